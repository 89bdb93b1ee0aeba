"""The matrix's data, made once under build/producers/data/: parquet/<table>.parquet
for the eight TPC-H tables (DuckDB's dbgen, scale 0.01) and the feature tables, with the
column types of queries.py; ddl.sql, the CREATE TABLE statements isthmus reads."""

from pathlib import Path

from queries import FEATURE_ROWS, FEATURE_TABLES, TPCH_TABLES

SCALE = 0.01


def parquet(data: Path, table: str) -> Path:
    return data / "parquet" / f"{table}.parquet"


def _literal(value, sql_type: str) -> str:
    if value is None:
        return f"CAST(NULL AS {sql_type})"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return f"CAST('{value}' AS {sql_type})"
    return f"CAST({value!r} AS {sql_type})"


def ensure_data(data: Path) -> None:
    if (data / "ddl.sql").exists():
        print(f"  {data} is ready")
        return
    import duckdb

    (data / "parquet").mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"CALL dbgen(sf={SCALE})")
    for t, cols in TPCH_TABLES.items():
        select = ", ".join(f"CAST({c} AS {ty}) AS {c}" for c, ty in cols)
        con.execute(f"COPY (SELECT {select} FROM {t}) TO '{parquet(data, t)}' (FORMAT PARQUET)")
    for t, cols in FEATURE_TABLES.items():
        con.execute(f"CREATE TABLE {t} ({', '.join(f'{c} {ty}' for c, ty in cols)})")
        for row in FEATURE_ROWS[t]:
            literals = ", ".join(_literal(v, ty) for v, (_, ty) in zip(row, cols, strict=True))
            con.execute(f"INSERT INTO {t} VALUES ({literals})")
        con.execute(f"COPY {t} TO '{parquet(data, t)}' (FORMAT PARQUET)")
    ddl = [f"CREATE TABLE {t} ({', '.join(f'{c} {ty} NOT NULL' for c, ty in cols)})" for t, cols in TPCH_TABLES.items()]
    ddl += [f"CREATE TABLE {t} ({', '.join(f'{c} {ty}' for c, ty in cols)})" for t, cols in FEATURE_TABLES.items()]
    (data / "ddl.sql").write_text("\n".join(ddl) + "\n", encoding="utf-8")
    print(f"  wrote {data}")
