"""Fixtures: one SparkSession, and TPC-H data with plans from real producers.

The producers run here, not ahead of time: DuckDB 1.1.3 (with duckdb-extension-substrait)
generates TPC-H at sf=0.01 and writes its Substrait plans; DataFusion 55 writes its own
over the same parquet. Both engines also answer the queries in SQL, as the reference.
"""

import dataclasses
import os
import sys
from pathlib import Path

import pytest

from helpers import duckdb_substrait_extension, start_connect_server, stop_process_group

QUERIES = (1, 6)


@dataclasses.dataclass
class Tpch:
    folder: Path
    lineitem: Path                                   # a parquet file
    sql: dict[int, str]
    duckdb_bin: dict[int, bytes]
    duckdb_json: dict[int, str]
    datafusion_bin: dict[int, bytes]
    duckdb_rows: dict[int, list[tuple]]             # DuckDB's SQL answers
    datafusion_rows: dict[int, list[tuple]]         # DataFusion's SQL answers

    def plan_file(self, name: str) -> Path:
        """``q06.bin`` / ``q06.json`` (DuckDB's plans) or ``df_q06.bin`` as files."""
        path = self.folder / name
        if not path.exists():
            n = int(name.split("q")[-1][:2])
            if name.startswith("df_"):
                path.write_bytes(self.datafusion_bin[n])
            elif name.endswith(".json"):
                path.write_text(self.duckdb_json[n], encoding="utf-8")
            else:
                path.write_bytes(self.duckdb_bin[n])
        return path


@pytest.fixture(scope="session")
def tpch(tmp_path_factory) -> Tpch:
    import duckdb
    from datafusion import SessionContext
    from datafusion.substrait import Serde

    folder = tmp_path_factory.mktemp("tpch")
    lineitem = folder / "lineitem.parquet"
    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute("CALL dbgen(sf=0.01)")
    con.execute(f"COPY lineitem TO '{lineitem}' (FORMAT PARQUET)")
    sql, duck_bin, duck_json, duck_rows = {}, {}, {}, {}
    for n in QUERIES:
        q = con.execute("SELECT query FROM tpch_queries() WHERE query_nr = ?", [n]).fetchone()[0]
        sql[n] = q
        duck_bin[n] = con.execute("CALL get_substrait(?)", [q]).fetchone()[0]
        duck_json[n] = con.execute("CALL get_substrait_json(?)", [q]).fetchone()[0]
        duck_rows[n] = [tuple(r) for r in con.execute(q).fetchall()]
    con.close()

    ctx = SessionContext()
    ctx.register_parquet("lineitem", str(lineitem))
    df_bin, df_rows = {}, {}
    for n in QUERIES:
        q = sql[n].strip().rstrip(";")
        df_bin[n] = Serde.serialize_to_plan(q, ctx).encode()
        df_rows[n] = [tuple(r.values()) for r in ctx.sql(q).to_pylist()]
    return Tpch(folder, lineitem, sql, duck_bin, duck_json, df_bin, duck_rows, df_rows)


@pytest.fixture(scope="session")
def spark():
    from pyspark.sql import SparkSession

    import spark_substrait

    # Python UDFs run in workers of this interpreter (pyspark's default is whatever python3 is on PATH).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (SparkSession.builder.master("local[2]").appName("spark-substrait-tests")
               .config("spark.sql.shuffle.partitions", "2")
               .config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               # Fails any read whose plan is marked analyzed yet Spark's analyzer would change.
               .config("spark.substrait.test.verifySkippedAnalysis", "true"))
    session = spark_substrait.configure(builder).getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def lineitem_view(spark, tpch) -> str:
    spark.read.parquet(str(tpch.lineitem)).createOrReplaceTempView("lineitem")
    return "lineitem"


@pytest.fixture(scope="session")
def connect_server(tmp_path_factory):
    """A Spark Connect server on loopback, with spark-substrait's plugin, shared by the modules
    that need one (test_connect.py, test_user_functions.py): its URL. The server runs in its
    own process group, stopped at the end of the run; its Python UDFs run in this interpreter
    (helpers.start_connect_server, which tests/platforms/test_faults.py's soak shares)."""
    pytest.importorskip("grpc", reason="the Spark Connect client extras are not installed")
    log = tmp_path_factory.mktemp("connect-server") / "server.log"
    try:
        server, url = start_connect_server(log)
    except RuntimeError as e:
        pytest.fail(str(e))
    try:
        yield url
    finally:
        stop_process_group(server)
