"""Plans as real producer releases wrote them (tests/fixtures/producers, chosen by
`dev/producer-matrix fixtures` from the matrix's plans: one old and one new release per
producer, and each release a producer reading is keyed on) run on Spark over the feature
tables (tables.json: NULLs, duplicates, an empty table). The rows must be DuckDB's SQL
answer to the same query on the same data, an independent answer; plans built without SQL
(ibis expressions, the substrait builders' plans) are held to the producer engine's rows.
A plan of a known producer bug (a reading of kind KnownBug) must give the answer to the
question it asks, and each plan is read with the readings the manifest names.
"""

import json
import sys
from pathlib import Path

import duckdb
import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "producers"
sys.path.insert(0, str(REPO / "dev" / "producer_matrix"))

from compare import decoded_rows, difference, normal_rows  # noqa: E402
from known_bugs import meant_sql, normal, plan_bug  # noqa: E402
from spark_run import pandas_date  # noqa: E402

MANIFEST = json.loads((FIXTURES / "manifest.json").read_text(encoding="utf-8"))


def _literal(value, sql_type):
    if value is None:
        return f"CAST(NULL AS {sql_type})"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return f"CAST('{value}' AS {sql_type})" if isinstance(value, str) else f"CAST({value!r} AS {sql_type})"


@pytest.fixture(scope="module")
def feature_tables(spark, tmp_path_factory):
    """The same rows for both engines: DuckDB writes each table to parquet, Spark reads it."""
    import duckdb

    tables = json.loads((FIXTURES / "tables.json").read_text(encoding="utf-8"))
    folder = tmp_path_factory.mktemp("producer-tables")
    con = duckdb.connect()
    for name, spec in tables.items():
        con.execute(f"CREATE TABLE {name} ({', '.join(f'{c} {t}' for c, t in spec['columns'])})")
        for row in spec["rows"]:
            values = ", ".join(_literal(v, t) for v, (_, t) in zip(row, spec["columns"], strict=True))
            con.execute(f"INSERT INTO {name} VALUES ({values})")
        con.execute(f"COPY {name} TO '{folder / name}.parquet' (FORMAT PARQUET)")
        spark.read.parquet(str(folder / f"{name}.parquet")).createOrReplaceTempView(name)
        # substrait-java's Spark module names catalog tables in full (spark_catalog.default.emp).
        spark.sql(f"CREATE TABLE spark_catalog.default.{name} USING parquet LOCATION '{folder / name}.parquet'")
    yield con
    con.close()
    for name in tables:
        spark.catalog.dropTempView(name)
        spark.sql(f"DROP TABLE IF EXISTS spark_catalog.default.{name}")


def readings_of(df):
    plan = df._jdf.queryExecution().logical().toString()
    if "readings=[" not in plan:
        return []
    return [r.strip() for r in plan.split("readings=[", 1)[1].split("]", 1)[0].split(",")]


@pytest.mark.parametrize("fixture", MANIFEST, ids=[f"{m['release']}-{m['query']}" for m in MANIFEST])
def test_producer_plan_gives_the_sql_answer(spark, feature_tables, fixture):
    df = spark.read.substrait((FIXTURES / fixture["plan"]).read_bytes())
    assert readings_of(df) == fixture["readings"]
    actual = normal_rows(tuple(r) for r in df.collect())
    sql = fixture["sql"]
    # Plans built without SQL are held to the producer engine's rows, unless a known bug makes
    # them ask another question: known_bugs.py has that question's SQL.
    if sql.startswith("--") and fixture["outcome"] != "as-written":
        expected = [tuple(pandas_date(v) for v in r) for r in decoded_rows(fixture["engine_rows"])]
    else:
        for reading in fixture["readings"]:
            sql = meant_sql(reading, sql) or sql
        # A producer bug no plan shape reveals: the question the plan asks (known_bugs.py).
        bug = plan_bug(fixture["release"], fixture["producer"], fixture["query"])
        if bug is not None and fixture["outcome"] == "as-written":
            sql = bug[1](sql)
        try:
            expected = normal_rows(feature_tables.execute(sql).fetchall())
        except duckdb.Error:
            # The producer's dialect spells a function DuckDB lacks (DataFusion's CHAR_LENGTH):
            # the producer engine's own rows on the same data decide, as below.
            if fixture["engine_rows"] is None:
                raise
            expected = None
        for reading in fixture["readings"]:
            actual = normal(reading, actual)
            expected = None if expected is None else normal(reading, expected)
        # Where the producer's SQL dialect reads the query otherwise than DuckDB's (DataFusion
        # and Calcite order NULLs first in DESC), the producer engine's own rows decide.
        # ibis' own SQL front end (parse_sql) may build another expression than the SQL
        # says: its plan is then held to what ibis' engine answers for that expression.
        if (expected is None or difference(actual, expected) is not None) and fixture["engine_rows"] is not None:
            expected = decoded_rows(fixture["engine_rows"])
            if fixture["producer"] == "ibis":
                expected = [tuple(pandas_date(v) for v in r) for r in expected]
    assert difference(actual, expected) is None, difference(actual, expected)


def test_every_reading_has_a_fixture(spark):
    """docs/producers.md names a fixture for each reading: each must be exercised here."""
    readings = spark._jvm.io.sparksubstrait.decode.readings.ProducerReadings.all()
    names = {readings.apply(i).name() for i in range(readings.size())}
    exercised = {r for m in MANIFEST for r in m["readings"]}
    assert names - exercised == set(), f"readings without a fixture: {sorted(names - exercised)}"
