"""The Python `substrait` package's own plan builders (substrait.builders.plan): a few plans
built by hand over the feature tables; rows from DuckDB's SQL for the same question."""

import duckdb
import substrait.builders.plan as pb
import substrait.builders.type as tb
from substrait.builders.extended_expression import aggregate_function, column, literal, scalar_function
from substrait.extension_registry import ExtensionRegistry

from common import args, write_query

try:
    import substrait.gen.proto.type_pb2 as stt  # noqa: F401 (older layout)
    from substrait.gen.proto import algebra_pb2 as stalg  # noqa: F401
except ImportError:  # newer layout
    import substrait.algebra_pb2 as stalg  # noqa: F401
    import substrait.type_pb2 as stt  # noqa: F401

ARITH = "functions_arithmetic.yaml"
COMPARISON = "functions_comparison.yaml"


def urn(name):
    return "extension:io.substrait:" + name.replace(".yaml", "")


def emp():
    # substrait.builders.type.decimal takes (scale, precision).
    schema = tb.named_struct(
        names=["id", "name", "dept", "salary", "bonus", "hired", "active", "code"],
        struct=tb.struct(types=[tb.i32(nullable=True), tb.string(nullable=True), tb.i32(nullable=True),
                                tb.decimal(2, 10, nullable=True), tb.fp64(nullable=True), tb.date(nullable=True),
                                tb.boolean(nullable=True), tb.i64(nullable=True)], nullable=False))
    return pb.read_named_table("emp", schema)


def fn(registry, name, spec=None):
    """scalar_function's first argument: a URN in newer releases, a URI in older ones."""
    import inspect
    params = list(inspect.signature(scalar_function).parameters)
    key = params[0]
    value = urn(spec) if key == "urn" else "https://github.com/substrait-io/substrait/blob/main/extensions/" + spec
    return {key: value, "function": name}


def afn(name, spec):
    import inspect
    params = list(inspect.signature(aggregate_function).parameters)
    key = params[0]
    value = urn(spec) if key == "urn" else "https://github.com/substrait-io/substrait/blob/main/extensions/" + spec
    return {key: value, "function": name}


def plans(registry):
    # A ProjectRel outputs its input's columns, then its expressions (the spec; the builders write no emit).
    yield ("b01_project", "SELECT *, id, code + 1 FROM emp",
           lambda: pb.project(emp(), expressions=[column("id"), scalar_function(
               **fn(registry, "add", ARITH), expressions=[column("code"), literal(1, tb.i64(nullable=False))])]))
    yield ("b02_filter", "SELECT * FROM emp WHERE dept = 20",
           lambda: pb.filter(emp(), expression=scalar_function(
               **fn(registry, "equal", COMPARISON), expressions=[column("dept"), literal(20, tb.i32(nullable=False))])))
    yield ("b03_aggregate", "SELECT dept, SUM(code) FROM emp GROUP BY dept",
           lambda: pb.aggregate(emp(), grouping_expressions=[column("dept")], measures=[aggregate_function(
               **afn("sum", "functions_arithmetic.yaml"), expressions=[column("code")])]))
    yield ("b04_sort_fetch", "SELECT * FROM emp ORDER BY code DESC NULLS LAST LIMIT 3 OFFSET 1",
           lambda: pb.fetch(pb.sort(emp(), expressions=[(column("code"), stalg.SortField.SORT_DIRECTION_DESC_NULLS_LAST)]),
                            offset=literal(1, tb.i64(nullable=False)), count=literal(3, tb.i64(nullable=False))))
    yield ("b05_and_or", "SELECT * FROM emp WHERE dept = 10 OR code > 400",
           lambda: pb.filter(emp(), expression=scalar_function(
               **fn(registry, "or", "functions_boolean.yaml"), expressions=[
                   scalar_function(**fn(registry, "equal", COMPARISON), expressions=[column("dept"), literal(10, tb.i32(nullable=False))]),
                   scalar_function(**fn(registry, "gt", COMPARISON), expressions=[column("code"), literal(400, tb.i64(nullable=False))])])))


def main():
    data, out = args()
    registry = ExtensionRegistry(load_default_extensions=True)
    con = duckdb.connect()
    con.execute(f"CREATE TABLE emp AS SELECT * FROM '{data / 'parquet' / 'emp.parquet'}'")

    def rows(sql):
        cur = con.execute(sql)
        return [d[0] for d in cur.description], cur.fetchall()

    for qid, sql, build in plans(registry):
        write_query(out, qid, sql, lambda build=build: build()(registry).SerializeToString(), lambda sql=sql: rows(sql))


if __name__ == "__main__":
    main()
