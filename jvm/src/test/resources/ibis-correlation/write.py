"""Writes this folder's plans with ibis-substrait 4.0.1 (ibis-framework[duckdb] 9.5.0, substrait 0.21.0,
duckdb 1.1.3: dev/producer_matrix/releases.py's pins) and prints the rows ibis' DuckDB backend gives
for each expression on the data IbisCorrelationSuite registers. Usage: python write.py OUT_DIR"""

import sys
from pathlib import Path

import ibis
import pandas as pd
from ibis_substrait.compiler.core import SubstraitCompiler

out = Path(sys.argv[1])
dept_schema = ibis.schema([("dname", "string"), ("budget", "float64"), ("dept_id", "int32")])
emp_schema = ibis.schema([("id", "int32"), ("dept", "int32"), ("name", "string"), ("salary", "float64")])
dept_rows = [("a", 10.0, 1), ("b", 5.0, 2), (None, None, 3), ("a", 10.0, 1), ("d", 0.0, None)]
emp_rows = [(1, 1, "x", 20.0), (2, 1, "y", 3.0), (3, None, "z", 4.0), (4, 2, None, None), (4, 2, None, None)]


def plans(dept, emp):
    # emp.dept == dept.dept_id is equal(field 1, field 2): locally dept (i32) and name (string).
    yield "exists", dept.filter((emp.dept == dept.dept_id).any())[["dname"]]
    yield "not_exists", dept.filter(~(emp.dept == dept.dept_id).any())[["dname"]]
    # emp.salary > dept.budget is gt(field 3, field 1): salary > dept as written, or salary > budget.
    yield "exists_ambiguous", dept.filter(((emp.dept == dept.dept_id) & (emp.salary > dept.budget)).any())[["dname"]]


con = ibis.duckdb.connect()
for name, schema, rows in (("dept", dept_schema, dept_rows), ("emp", emp_schema, emp_rows), ("emp0", emp_schema, [])):
    con.create_table(name, pd.DataFrame(rows, columns=list(schema.names)).astype(
        {c: t for c, t in zip(schema.names, ["object" if str(t) == "string" else ("Int32" if "int" in str(t) else "float64") for t in schema.types])}),
        schema=schema)
for table in ("emp", "emp0"):
    for name, expr in plans(ibis.table(dept_schema, name="dept"), ibis.table(emp_schema, name=table)):
        suffix = "" if table == "emp" else "_empty"
        (out / f"{name}{suffix}.bin").write_bytes(SubstraitCompiler().compile(expr).SerializeToString())
        bound = expr.unbind() if hasattr(expr, "unbind") else expr
        print(name + suffix, sorted(map(tuple, con.execute(bound).itertuples(index=False)), key=str))
