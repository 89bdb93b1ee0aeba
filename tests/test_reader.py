"""spark.read.substrait accepts every documented form of a plan, and nothing else."""

import os
import pathlib

import pytest
from pyspark.sql import SparkSession

import spark_substrait
from helpers import EXTENSION_CLASS, PARAMETER_PLAN, assert_rows_equal


def q6_rows(spark, plan):
    return [tuple(r) for r in spark.read.substrait(plan).collect()]


def test_configured_session_has_the_extension(spark):
    jvm = spark._jvm
    assert jvm.io.sparksubstrait.SubstraitPlans.extensionEnabled(spark._jsparkSession)
    assert spark_substrait.jar_path() in spark.conf.get("spark.jars")


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview], ids=lambda w: w.__name__)
def test_binary_plan(spark, tpch, lineitem_view, wrap):
    rows = q6_rows(spark, wrap(tpch.duckdb_bin[6]))
    assert_rows_equal(rows, tpch.duckdb_rows[6], ["revenue"])


@pytest.mark.parametrize("prefix", ["", "\n  \t"], ids=["plain", "leading-whitespace"])
def test_json_string(spark, tpch, lineitem_view, prefix):
    rows = q6_rows(spark, prefix + tpch.duckdb_json[6])
    assert_rows_equal(rows, tpch.duckdb_rows[6], ["revenue"])


@pytest.mark.parametrize("producer", ["duckdb", "datafusion"])
def test_substrait_plan_message(spark, tpch, lineitem_view, producer):
    from substrait.plan_pb2 import Plan

    message = Plan()
    message.ParseFromString(tpch.duckdb_bin[6] if producer == "duckdb" else tpch.datafusion_bin[6])
    assert_rows_equal(q6_rows(spark, message), tpch.duckdb_rows[6], ["revenue"])


def test_any_object_with_serialize_to_string(spark, tpch, lineitem_view):
    class Message:
        def SerializeToString(self):  # noqa: N802 - protobuf's name
            return tpch.datafusion_bin[6]

    assert_rows_equal(q6_rows(spark, Message()), tpch.duckdb_rows[6], ["revenue"])


@pytest.mark.parametrize("name", ["q06.bin", "q06.json", "df_q06.bin"])
@pytest.mark.parametrize("as_type", [pathlib.Path, str], ids=["Path", "str"])
def test_plan_file(spark, tpch, lineitem_view, name, as_type):
    path = as_type(tpch.plan_file(name))
    assert_rows_equal(q6_rows(spark, path), tpch.duckdb_rows[6], ["revenue"])


def test_result_is_an_ordinary_dataframe(spark, tpch, lineitem_view):
    df = spark.read.substrait(tpch.duckdb_bin[6])
    assert df.columns == ["revenue"]
    assert df.schema["revenue"].dataType.simpleString() == "decimal(38,4)"
    doubled = df.selectExpr("revenue * 2 AS twice").collect()[0].twice
    assert doubled == 2 * tpch.duckdb_rows[6][0][0]


@pytest.mark.parametrize("plan", [12345, None, 1.5, ["{}"], {"relations": []}],
                         ids=["int", "None", "float", "list", "dict"])
def test_other_types_are_refused(spark, plan):
    with pytest.raises(TypeError, match="expected the plan as bytes, a JSON string"):
        spark.read.substrait(plan)


def test_string_that_is_neither_json_nor_a_file(spark, tmp_path):
    with pytest.raises(ValueError, match="neither a JSON plan .* nor the path of an existing"):
        spark.read.substrait(str(tmp_path / "missing.bin"))
    with pytest.raises(ValueError, match="neither a JSON plan"):
        spark.read.substrait("select * from lineitem")


def test_missing_path_object(spark, tmp_path):
    with pytest.raises(ValueError, match="no plan file at"):
        spark.read.substrait(tmp_path / "missing.json")


def test_serialize_to_string_must_give_bytes(spark):
    class Bad:
        def SerializeToString(self):  # noqa: N802
            return "not bytes"

    with pytest.raises(TypeError, match="returned str, not bytes"):
        spark.read.substrait(Bad())


def test_configure_appends_to_existing_settings():
    builder = (SparkSession.Builder()
               .config("spark.jars", "/opt/a.jar, /opt/b.jar")
               .config("spark.sql.extensions", "com.example.Ext"))
    spark_substrait.configure(builder)
    spark_substrait.configure(builder)  # twice: nothing is added twice
    jar = spark_substrait.jar_path()
    assert builder._options["spark.jars"] == f"/opt/a.jar,/opt/b.jar,{jar}"
    assert builder._options["spark.sql.extensions"] == f"com.example.Ext,{EXTENSION_CLASS}"


def test_configure_keeps_spark_defaults(tmp_path, monkeypatch):
    (tmp_path / "spark-defaults.conf").write_text(
        "# comment\nspark.sql.extensions  com.example.FromDefaults\nspark.jars=/opt/c.jar\n")
    monkeypatch.setenv("SPARK_CONF_DIR", str(tmp_path))
    builder = spark_substrait.configure(SparkSession.Builder())
    assert builder._options["spark.sql.extensions"] == f"com.example.FromDefaults,{EXTENSION_CLASS}"
    assert builder._options["spark.jars"] == f"/opt/c.jar,{spark_substrait.jar_path()}"


def test_jar_path_is_the_bundled_jar(monkeypatch):
    monkeypatch.delenv("SPARK_SUBSTRAIT_JAR", raising=False)
    path = spark_substrait.jar_path()
    assert os.path.isfile(path)
    assert os.path.basename(os.path.dirname(path)) == "jars"
    assert os.path.basename(path).startswith("spark-substrait-spark43_2.13-")


def test_jar_path_picks_the_jar_of_the_running_spark(monkeypatch):
    # dev/test builds the Spark 3.5 jar too, so the package carries both.
    monkeypatch.delenv("SPARK_SUBSTRAIT_JAR", raising=False)
    assert os.path.basename(spark_substrait.jar_path("3.5.9")).startswith("spark-substrait-spark35_2.12-")
    assert os.path.basename(spark_substrait.jar_path("4.3.1")).startswith("spark-substrait-spark43_2.13-")
    with pytest.raises(FileNotFoundError, match=r"No spark-substrait jar for Spark 3\.4\.1 .*spark-substrait-spark35_2\.12"):
        spark_substrait.jar_path("3.4.1")


def test_jar_path_override(tmp_path, monkeypatch):
    jar = tmp_path / "custom.jar"
    jar.write_bytes(b"PK")
    monkeypatch.setenv("SPARK_SUBSTRAIT_JAR", str(jar))
    assert spark_substrait.jar_path() == str(jar)
    monkeypatch.setenv("SPARK_SUBSTRAIT_JAR", str(tmp_path / "missing.jar"))
    with pytest.raises(FileNotFoundError, match="SPARK_SUBSTRAIT_JAR"):
        spark_substrait.jar_path()





def test_dynamic_parameters_from_the_plan_and_from_params(spark):
    import datetime

    rows = [tuple(r) for r in spark.read.substrait(PARAMETER_PLAN).collect()]
    assert rows == [(1, 7, datetime.date(2024, 1, 31)), (2, 7, datetime.date(2024, 1, 31))]
    rows = [tuple(r) for r in spark.read.substrait(PARAMETER_PLAN, params={1: 42, 2: datetime.date(1999, 12, 31)}).collect()]
    assert rows == [(1, 42, datetime.date(1999, 12, 31)), (2, 42, datetime.date(1999, 12, 31))]
    rows = [tuple(r) for r in spark.read.substrait(PARAMETER_PLAN, params={1: None}).collect()]
    assert rows == [(1, None, datetime.date(2024, 1, 31)), (2, None, datetime.date(2024, 1, 31))]


def test_dynamic_parameter_that_does_not_fit_is_the_projects_error(spark):
    with pytest.raises(spark_substrait.SubstraitInvalidPlanError) as e:
        spark.read.substrait(PARAMETER_PLAN, params={2: "not a date"})
    assert e.value.condition == "SUBSTRAIT_TYPE_MISMATCH"
    assert "dynamic_parameter" in e.value.location
    with pytest.raises(TypeError):
        spark.read.substrait(PARAMETER_PLAN, params={"1": 5})


UUID_PLAN = """{"relations": [{"root": {"names": ["u"], "input": {"sort": {
  "sorts": [{"expr": {"selection": {"directReference": {"structField": {"field": 0}}, "rootReference": {}}},
             "direction": "SORT_DIRECTION_ASC_NULLS_LAST"}],
  "input": {"read": {"baseSchema": {"names": ["u"], "struct": {"nullability": "NULLABILITY_REQUIRED",
      "types": [{"uuid": {"nullability": "NULLABILITY_NULLABLE"}}]}},
    "virtualTable": {"expressions": [{"fields": [{"literal": {"uuid": "gAAAAAAAAAAAAAAAAAAAAQ=="}}]},
      {"fields": [{"literal": {"null": {"uuid": {"nullability": "NULLABILITY_NULLABLE"}}}}]},
      {"fields": [{"literal": {"uuid": "f////////////////////w=="}}]}]}}}}}}}]}"""


def test_uuid_values_are_python_uuids_in_unsigned_byte_order(spark):
    import uuid

    df = spark.read.substrait(UUID_PLAN)
    assert df.schema["u"].dataType.simpleString() == "uuid"
    # 7f... before 80... (unsigned bytes), NULL last as the plan asks.
    assert [r.u for r in df.collect()] == [uuid.UUID("7fffffff-ffff-ffff-ffff-ffffffffffff"),
                                           uuid.UUID("80000000-0000-0000-0000-000000000001"), None]


def _arrow_plan(path, types):
    """A plan reading one Arrow IPC file through LocalFiles, base_schema from (name, type JSON) pairs."""
    import json

    return json.dumps({"relations": [{"root": {"names": [n for n, _ in types], "input": {"read": {
        "baseSchema": {"names": [n for n, _ in types],
                       "struct": {"nullability": "NULLABILITY_REQUIRED", "types": [t for _, t in types]}},
        "localFiles": {"items": [{"uriFile": str(path), "arrow": {}}]}}}}}]})


def test_arrow_files_written_by_pyarrow(spark, tmp_path):
    import datetime

    import pyarrow as pa

    schema = pa.schema([("id", pa.int32()), ("name", pa.string()), ("at", pa.timestamp("us", tz="UTC"))])
    at = datetime.datetime(2024, 1, 31, 18, 0, tzinfo=datetime.UTC)
    batches = [pa.record_batch([pa.array([1, None, 1], pa.int32()), pa.array(["a", "b", "a"]), pa.array([at, None, at])], schema=schema),
               pa.record_batch([pa.array([7], pa.int32()), pa.array([None], pa.string()), pa.array([at])], schema=schema)]
    path = tmp_path / "rows.arrow"
    with pa.ipc.new_file(str(path), schema) as writer:
        for b in batches:
            writer.write_batch(b)
    nullable = {"nullability": "NULLABILITY_NULLABLE"}
    types = [("id", {"i32": nullable}), ("name", {"string": nullable}), ("at", {"precisionTimestampTz": dict(precision=6, **nullable)})]
    spark.conf.set("spark.substrait.localFiles.allowedPrefixes", str(tmp_path))
    try:
        df = spark.read.substrait(_arrow_plan(path, types))
        assert df.rdd.getNumPartitions() == 2
        # pyarrow's own rows, instants compared in UTC.
        expected = [tuple(r.values()) for r in pa.Table.from_batches(batches).to_pylist()]
        got = [(r.id, r.name, r.at.astimezone(datetime.UTC) if r.at else None) for r in df.collect()]
        assert sorted(got, key=repr) == sorted(expected, key=repr)

        dictionary = tmp_path / "dictionary.arrow"
        codes = pa.schema([("name", pa.dictionary(pa.int32(), pa.string()))])
        with pa.ipc.new_file(str(dictionary), codes) as writer:
            writer.write_batch(pa.record_batch([pa.array(["a", "b", "a"]).dictionary_encode()], schema=codes))
        with pytest.raises(spark_substrait.SubstraitPlanError) as e:
            spark.read.substrait(_arrow_plan(dictionary, [("name", {"string": nullable})]))
        assert e.value.condition == "SUBSTRAIT_FILE_NOT_READABLE"
    finally:
        spark.conf.unset("spark.substrait.localFiles.allowedPrefixes")
