"""Regenerates examples/q06.json: TPC-H Q6 as DuckDB 1.1.3 writes it in Substrait.

Needs duckdb==1.1.3 and duckdb-extension-substrait==1.1.3 (both in requirements-test.txt).
DuckDB's optimizer looks at the data (on an empty table it drops the filter), so the
plan is made over the TPC-H database at sf=0.01, as in the tests.

    .venv/bin/python examples/make_q06_plan.py
"""

import importlib.util
import json
import os
import sys

import duckdb

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    spec = importlib.util.find_spec("duckdb_extension_substrait")
    ext = os.path.join(os.path.dirname(spec.origin), "extensions", "v1.1.3",
                       "substrait.duckdb_extension")
    con = duckdb.connect()
    con.execute(f"LOAD '{ext}'")
    con.execute("CALL dbgen(sf=0.01)")
    query = con.execute("SELECT query FROM tpch_queries() WHERE query_nr = 6").fetchone()[0]
    plan = con.execute("CALL get_substrait_json(?)", [query]).fetchone()[0]
    out = os.path.join(HERE, "q06.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(json.loads(plan), f, indent=1)
        f.write("\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
