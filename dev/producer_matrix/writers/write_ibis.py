"""ibis-substrait: plans from SubstraitCompiler over ibis expressions on unbound tables of
the matrix's schemas; rows from the same expression on ibis' DuckDB backend. The SQL
queries become expressions through ibis.parse_sql where the release's ibis has it; the
ibis-only expressions below (i..) are built with the API every ibis since 3.x has."""

import ibis
from ibis_substrait.compiler.core import SubstraitCompiler

from common import all_queries, args, tables, write_query

TYPES = {"INTEGER": "int32", "BIGINT": "int64", "VARCHAR": "string", "DOUBLE": "float64",
         "DATE": "date", "BOOLEAN": "boolean"}


def ibis_type(sql_type: str) -> str:
    return TYPES.get(sql_type) or sql_type.lower().replace("decimal", "decimal")


def unbound(name, cols):
    return ibis.table(ibis.schema([(c, ibis_type(t)) for c, t in cols]), name=name)


def ibis_expressions(t):
    emp, dept = t["emp"], t["dept"]
    yield "i01_date_vs_string", lambda: emp.filter(emp.hired >= "2020-01-01")[["id"]]
    yield "i02_not", lambda: emp.filter(~(emp.dept == 20))[["id", "dept"]]
    yield "i03_group_by", lambda: emp.group_by("dept").aggregate(n=emp.count(), s=emp.code.sum(), m=emp.salary.max())
    yield "i04_inner_join", lambda: emp.join(dept, emp.dept == dept.dept_id)[[emp.id, dept.dname]]
    yield "i05_left_join", lambda: emp.left_join(dept, emp.dept == dept.dept_id)[[emp.id, dept.dname]]
    yield "i06_order_limit", lambda: emp.filter(emp.id.notnull()).order_by([ibis.desc(emp.code), emp.id]).limit(3)[["id", "code"]]
    yield "i07_strings", lambda: emp[["id"]].mutate(u=emp.name.upper(), n=emp.name.length(), s=emp.name.substr(1, 2))
    yield "i08_distinct", lambda: emp[["dept"]].distinct()
    yield "i09_union", lambda: emp[["dept"]].union(dept[[dept.dept_id.name("dept")]])
    yield "i10_nulls", lambda: emp[["id"]].mutate(no_name=emp.name.isnull(), d=ibis.coalesce(emp.dept, -1))
    yield "i11_between", lambda: emp.filter(emp.salary.between(750, 1500.25))[["id"]]
    yield "i12_integer_division", lambda: emp[["id"]].mutate(q=emp.code // (emp.id - 3))
    yield "i13_isin", lambda: emp.filter(emp.dept.isin([10, 30]))[["id"]]
    yield "i14_cast", lambda: emp[["id"]].mutate(s=emp.code.cast("string"), d=emp.salary.cast("float64"))
    yield "i15_date_parts", lambda: emp[["id"]].mutate(y=emp.hired.year(), m=emp.hired.month())
    yield "i16_mean", lambda: emp.group_by("dept").aggregate(a=emp.bonus.mean(), c=emp.name.count())
    # A correlated EXISTS (someone in the same dept earns more), a float fraction of a decimal sum
    # (TPC-H Q11's `total * 0.0001`) and a select under a filter (Q9): known ibis-substrait bugs' shapes.
    yield "i17_correlated_exists", lambda: _someone_earns_more(emp)
    yield "i18_float_fraction", lambda: emp.filter(emp.salary > emp.salary.sum() * 0.0015)[["id"]]
    yield "i19_select_under_filter", lambda: _pay_by_dept_name(emp, dept)
    # A correlated EXISTS over a projection: the enclosing column's number is past the subquery's columns.
    yield "i20_correlated_exists_projected", lambda: _correlated_exists_projected(emp, dept)


def _pay_by_dept_name(emp, dept):
    # TPC-H Q9's shape: a select over a join, filtered, then grouped (the select is not written).
    q = emp.join(dept, emp.dept == dept.dept_id)
    q = q.select((emp.salary * 2).name("pay"), dept.dname)
    q = q.filter(q.dname.notnull())
    return q.group_by(q.dname).aggregate(total=q.pay.sum())


def _correlated_exists_projected(emp, dept):
    # ibis-substrait writes `emp.dept` as field 2 (emp's column) inside a subquery of two columns.
    d = dept.select("dname", "dept_id")
    return emp.filter((d.dept_id == emp.dept).any())[["id"]]


def _someone_earns_more(emp):
    other = emp.view()
    return emp.filter(((other.dept == emp.dept) & (other.salary > emp.salary)).any())[["id"]]


def backend(data):
    con = ibis.duckdb.connect()
    for t in tables():
        path = str(data / "parquet" / f"{t}.parquet")
        if hasattr(con, "read_parquet"):
            con.read_parquet(path, table_name=t)
        else:
            con.register(path, table_name=t)
    return con


def rows(con, expr):
    df = con.execute(expr)
    return list(df.columns), [tuple(None if _isna(v) else v for v in r) for r in df.itertuples(index=False)]


def _isna(v):
    try:
        import pandas as pd
        return v is not None and not isinstance(v, (list, dict)) and bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def main():
    data, out = args()
    t = {name: unbound(name, cols) for name, cols in tables().items()}
    con = backend(data)
    compiler = SubstraitCompiler()

    def one(qid, build, sql):
        exprs = {}

        def plan():
            exprs["e"] = build()
            return compiler.compile(exprs["e"]).SerializeToString()
        write_query(out, qid, sql, plan, lambda: rows(con, exprs["e"]))

    parse_sql = getattr(ibis, "parse_sql", None)
    # parse_sql's catalog: schemas (older ibis rejects table expressions there).
    schemas = {name: table.schema() for name, table in t.items()}
    for qid, sql in all_queries().items():
        if parse_sql is None:
            (out / f"{qid}.failed").write_text(f"ibis {ibis.__version__} has no parse_sql: no SQL front end\n")
            continue
        one(qid, lambda sql=sql: parse_sql(sql, schemas), sql)
    for qid, build in ibis_expressions(t):
        one(qid, build, f"-- ibis expression {qid} (dev/producer_matrix/writers/write_ibis.py)")


if __name__ == "__main__":
    main()
