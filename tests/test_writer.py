"""Writing Substrait from Spark (docs/writing.md): spark_substrait.to_substrait.

The 22 TPC-H queries (DuckDB's dbgen at scale 0.01, stored as Parquet) are written from
``spark.sql`` and run by three consumers, each compared with the rows Spark gives for the
same DataFrame:

- Spark itself, through ``spark.read.substrait`` (every query must round-trip);
- DuckDB 1.1.3 (duckdb-extension-substrait's ``from_substrait``), on the ``duckdb-1.1``
  encoding of the optimized plan (LocalFiles of the Parquet files);
- DataFusion 55 (``datafusion.substrait``), on the ``datafusion-55`` encoding of the analyzed
  plan (the views as NamedTables, which DataFusion resolves in its own catalog; it does not
  read LocalFiles).

A consumer's refusal is recorded as an xfail with the consumer's message; a wrong row fails.
"""

import decimal
import math

import pytest

from helpers import duckdb_substrait_extension

TABLES = ("part", "supplier", "partsupp", "customer", "orders", "lineitem", "nation", "region")
QUERIES = tuple(range(1, 23))

# Plans a consumer reads but answers wrongly, with the reason (found by these tests; our
# reader gives Spark's rows for the same plan). Each is an xfail that must keep failing.
# Consumers' wrong answers to exact plans (none known now): (consumer, query) -> the cause.
WRONG_ANSWERS: dict = {}

# Plans a target refuses because its consumer would misread them (docs/writing.md, "Targets").
REFUSED_BY_TARGET = {
    ("datafusion", 21): "binds an outer reference",  # lineitem l2 referring to lineitem l1: bound to l2
}


@pytest.fixture(scope="module")
def tpch_files(tmp_path_factory):
    """(folder of one Parquet file per table, {n: query text}), from DuckDB's dbgen."""
    import duckdb

    folder = tmp_path_factory.mktemp("writer-tpch")
    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute("CALL dbgen(sf=0.01)")
    for t in TABLES:
        con.execute(f"COPY {t} TO '{folder / (t + '.parquet')}' (FORMAT PARQUET)")
    queries = {n: con.execute("SELECT query FROM tpch_queries() WHERE query_nr = ?", [n]).fetchone()[0].strip().rstrip(";")
               for n in QUERIES}
    con.close()
    return folder, queries


@pytest.fixture(scope="module")
def tpch_views(spark, tpch_files):
    folder, queries = tpch_files
    spark.conf.set("spark.substrait.localFiles.allowedPrefixes", str(folder.resolve()))
    for t in TABLES:
        spark.read.parquet(str(folder / f"{t}.parquet")).createOrReplaceTempView(t)
    yield queries
    for t in TABLES:
        spark.catalog.dropTempView(t)
    spark.conf.unset("spark.substrait.localFiles.allowedPrefixes")


def _value(v):
    if isinstance(v, (decimal.Decimal, float, int)) and not isinstance(v, bool):
        return float(v)
    return v


def _last_digit(*values) -> float:
    """One unit in the last place of the coarser decimal: Substrait's decimal avg (and divide)
    do not say how the result is rounded to its declared scale; Spark rounds half up,
    DataFusion truncates, DuckDB 1.1 returns the unrounded double."""
    scales = [-v.as_tuple().exponent for v in values if isinstance(v, decimal.Decimal)]
    return 10.0 ** -min(scales) if scales else 0.0


def _key(row):
    return tuple((0, round(v, 2)) if isinstance(v, float) else (1, "" if v is None else str(v)) for v in row)


def assert_same_rows(actual, expected, what, rel=1e-6):
    """Multisets of rows; numbers compared as floats (decimal and double results agree within
    ``rel``), everything else exactly."""
    def norm(r):
        return tuple(_value(v) for v in r)

    a = sorted(actual, key=lambda r: _key(norm(r)))
    e = sorted(expected, key=lambda r: _key(norm(r)))
    assert len(a) == len(e), f"{what}: {len(a)} rows, Spark gives {len(e)}"
    for x, y in zip(a, e, strict=True):
        assert len(x) == len(y), f"{what}: row {x}, Spark gives {y}"
        for p, q in zip(x, y, strict=True):
            p2, q2 = _value(p), _value(q)
            if isinstance(p2, float) and isinstance(q2, float):
                close = math.isclose(p2, q2, rel_tol=rel) or abs(p2 - q2) <= _last_digit(p, q) * (1 + 1e-9)
                assert close, f"{what}: row {x}, Spark gives {y}"
            else:
                assert p2 == q2, f"{what}: row {x}, Spark gives {y}"


def _spark_rows(df):
    return [tuple(r) for r in df.collect()]


@pytest.mark.parametrize("n", QUERIES)
def test_tpch_round_trip_on_spark(spark, tpch_views, n):
    import spark_substrait

    df = spark.sql(tpch_views[n])
    expected = _spark_rows(df)
    assert expected, "the query gives no rows on this data"
    binary = spark_substrait.to_substrait(df)
    assert isinstance(binary, bytes)
    assert_same_rows(_spark_rows(spark.read.substrait(binary)), expected, f"Q{n} binary")
    text = spark_substrait.to_substrait(df, format="json")
    assert text.lstrip().startswith("{") and '"producer": "spark-substrait"' in text
    assert_same_rows(_spark_rows(spark.read.substrait(text)), expected, f"Q{n} JSON")


@pytest.mark.parametrize("n", QUERIES)
def test_tpch_on_duckdb(spark, tpch_views, n):
    import duckdb

    import spark_substrait

    df = spark.sql(tpch_views[n])
    plan = spark_substrait.to_substrait(df, target="duckdb-1.1")
    # A fresh database per plan: an internal error of the extension invalidates its database.
    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    try:
        rows = con.from_substrait(proto=plan).fetchall()
    except duckdb.Error as e:
        pytest.xfail(f"DuckDB 1.1.3 refuses the plan: {str(e).splitlines()[0]}")
    finally:
        con.close()
    _compare(rows, _spark_rows(df), "duckdb", n)


@pytest.mark.parametrize("n", QUERIES)
def test_tpch_on_datafusion(spark, tpch_views, tpch_files, n):
    from datafusion import SessionContext
    from datafusion.substrait import Consumer, Serde

    import spark_substrait

    folder, _ = tpch_files
    df = spark.sql(tpch_views[n])
    refused = REFUSED_BY_TARGET.get(("datafusion", n))
    if refused is not None:
        with pytest.raises(Exception, match=refused):
            spark_substrait.to_substrait(df, optimized=False, target="datafusion-55")
        return
    plan = spark_substrait.to_substrait(df, optimized=False, target="datafusion-55")
    ctx = SessionContext()
    for t in TABLES:
        ctx.register_parquet(t, str(folder / f"{t}.parquet"))
    try:
        logical = Consumer.from_substrait_plan(ctx, Serde.deserialize_bytes(plan))
        rows = [tuple(r.values()) for r in ctx.create_dataframe_from_logical_plan(logical).to_pylist()]
    except Exception as e:  # DataFusion raises plain Exceptions
        pytest.xfail(f"DataFusion 55 refuses the plan: {str(e).splitlines()[0]}")
    _compare(rows, _spark_rows(df), "datafusion", n)


def _compare(rows, expected, consumer, n):
    known = WRONG_ANSWERS.get((consumer, n))
    if known is None:
        assert_same_rows(rows, expected, f"Q{n} on {consumer}")
        return
    with pytest.raises(AssertionError):
        assert_same_rows(rows, expected, f"Q{n} on {consumer}")
    pytest.xfail(f"{consumer} answers wrongly: {known}")


def test_options_are_checked(spark, tpch_views):
    import spark_substrait

    df = spark.sql("SELECT 1 AS one")
    with pytest.raises(ValueError):
        spark_substrait.to_substrait(df, format="xml")
    with pytest.raises(ValueError):
        spark_substrait.to_substrait(df, target="duckdb-0.9")


def test_unwritable_plan_raises_the_condition(spark, tpch_views):
    import spark_substrait

    df = spark.sql("SELECT n_name, hash(n_name) AS h FROM nation")
    with pytest.raises(spark_substrait.SubstraitUnsupportedError) as info:
        spark_substrait.to_substrait(df)
    assert info.value.condition == "SUBSTRAIT_UNWRITABLE_PLAN"
    assert "hash" in str(info.value)


def _cli(args, tmp_path):
    """``python -m spark_substrait`` with this checkout's package and jar, in a fresh driver."""
    import os
    import subprocess
    import sys

    import spark_substrait
    from helpers import clean_env

    extra = {"PYTHONPATH": os.path.dirname(os.path.dirname(spark_substrait.__file__))}
    if os.environ.get("SPARK_SUBSTRAIT_JAR"):
        extra["SPARK_SUBSTRAIT_JAR"] = os.environ["SPARK_SUBSTRAIT_JAR"]
    return subprocess.run([sys.executable, "-m", "spark_substrait", *map(str, args)], capture_output=True,
                          cwd=tmp_path, env=clean_env(**extra), timeout=300)


def test_cli_write_to_a_file_and_explain(spark, tpch_views, tpch_files, tmp_path):
    folder, _ = tpch_files
    sql = "SELECT n_regionkey, count(*) AS n FROM nation WHERE n_nationkey > 3 GROUP BY n_regionkey"
    table = f"nation={folder / 'nation.parquet'}"
    out = tmp_path / "plan.bin"
    result = _cli(["write", sql, "--table", table, "-o", out], tmp_path)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    assert out.stat().st_size > 0 and f"wrote {out}" in result.stdout.decode()
    # No --target: the plan is for our reader, and a note names the targets DuckDB and DataFusion read.
    assert result.stderr.decode().startswith("spark-substrait: note: this plan is in the pinned spec's encoding"), \
        result.stderr.decode()
    assert_same_rows(_spark_rows(spark.read.substrait(out.read_bytes())), _spark_rows(spark.sql(sql)), "CLI write")

    shown = _cli(["write", sql, "--table", table, "--explain", "--analyzed"], tmp_path)
    assert shown.returncode == 0, shown.stderr.decode()[-3000:]
    text = shown.stdout.decode()
    assert "aggregate" in text.lower() and "nation" in text, text

    refused = _cli(["write", "SELECT hash(n_name) FROM nation", "--table", table], tmp_path)
    assert refused.returncode == 3 and b"SUBSTRAIT_UNWRITABLE_PLAN" in refused.stderr, refused.stderr.decode()[-2000:]
