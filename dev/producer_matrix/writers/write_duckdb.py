"""DuckDB with duckdb-extension-substrait: plans from get_substrait; rows from DuckDB's SQL.
The extension binary ships in the wheel (gzipped in 1.0.3) and loads offline."""

import gzip
import importlib.util
import shutil
from pathlib import Path

import duckdb

from common import all_queries, args, tables, write_query


def extension(out: Path) -> str:
    home = Path(importlib.util.find_spec("duckdb_extension_substrait").origin).parent / "extensions"
    found = sorted(home.glob("v*/substrait.duckdb_extension*"))
    if not found:
        raise RuntimeError(f"no extension binary under {home}")
    path = found[-1]
    if path.suffix == ".gz":
        plain = out.parent / "substrait.duckdb_extension"
        if not plain.exists():
            with gzip.open(path) as src, open(plain, "wb") as dst:
                shutil.copyfileobj(src, dst)
        path = plain
    return str(path)


def connect(data: Path, out: Path):
    con = duckdb.connect()
    con.execute(f"LOAD '{extension(out)}'")
    # Tables, not views: a view over parquet would put DuckDB's parquet scan into the plan.
    for t in tables():
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM '{data / 'parquet' / f'{t}.parquet'}'")
    return con


def main():
    data, out = args()
    state = {"con": connect(data, out)}

    def plan(sql):
        try:
            return bytes(state["con"].execute("CALL get_substrait(?)", [sql]).fetchone()[0])
        except Exception:
            # An internal error invalidates the database in DuckDB 1.0 and 1.1.0: start anew.
            state["con"] = connect(data, out)
            raise

    def rows(sql):
        cur = state["con"].execute(sql)
        return [d[0] for d in cur.description], cur.fetchall()

    for qid, sql in all_queries().items():
        write_query(out, qid, sql, lambda sql=sql: plan(sql), lambda sql=sql: rows(sql))


if __name__ == "__main__":
    main()
