"""Spark Connect: ``spark.read.substrait`` and the SQL functions on a remote session.

A Spark Connect server is started on loopback (the ``connect_server`` fixture of conftest.py:
pyspark's spark-submit with SparkConnectServer, the jar and the settings of
``spark_substrait.connect_server_conf()``), shared with the other modules that need one and
stopped at the end of the run. The client is ``SparkSession.builder.remote("sc://...")``. Rows are
compared with the same SQL run by the same server on the same data, and with DuckDB's.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import spark_substrait
from helpers import Q1_AVG_COLUMNS, Q1_COLUMNS, assert_rows_equal, clean_env, run_python
from spark_substrait import SubstraitInvalidPlanError, SubstraitPlanError, SubstraitUnsupportedError

pytest.importorskip("grpc", reason="the Spark Connect client extras are not installed")

Q6_MEASURE_FUNCTION = ("relations[0].root.input.project.input.aggregate.measures[0].measure"
                       ".arguments[0].value.scalar_function")


@pytest.fixture(scope="module")
def remote(connect_server, tpch):
    """A Spark Connect session, made the way users make one, with the lineitem view."""
    from pyspark.sql import SparkSession

    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    # create(), not getOrCreate(): the other test modules' classic session may be running in
    # this process, and getOrCreate() refuses a remote session next to it.
    session = SparkSession.builder.remote(connect_server).create()
    # builder.remote() marks the whole process as a Connect client; the other test modules
    # use a classic session, so that mark is undone here.
    if before is None:
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
    assert type(session).__module__ == "pyspark.sql.connect.session"
    session.read.parquet(str(tpch.lineitem)).createOrReplaceTempView("lineitem")
    yield session
    session.stop()
    if before is None:
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)


def columns_of(query):
    return Q1_COLUMNS if query == 1 else ["revenue"]


def rows(df):
    return [tuple(r) for r in df.collect()]


@pytest.mark.parametrize("query,fmt", [(1, "bin"), (1, "json"), (6, "bin"), (6, "json")],
                         ids=["q1-bin", "q1-json", "q6-bin", "q6-json"])
def test_tpch_plans_give_the_answers_of_sql(remote, tpch, query, fmt):
    plan = tpch.duckdb_bin[query] if fmt == "bin" else tpch.duckdb_json[query]
    df = remote.read.substrait(plan)
    assert type(df).__module__ == "pyspark.sql.connect.dataframe"
    assert df.columns == columns_of(query)
    got = rows(df)
    assert len(got) == (4 if query == 1 else 1)
    # The same SQL on the same server and data (ORDER BY: rows in order), and DuckDB's own
    # answer. DuckDB's plan makes the averages doubles; Spark SQL's are decimal(_, 6),
    # rounded half up: within half a unit of the last digit.
    averages = {c: 5.01e-7 for c in Q1_AVG_COLUMNS}
    assert_rows_equal(got, rows(remote.sql(tpch.sql[query].strip().rstrip(";"))), columns_of(query),
                      tolerance=averages)
    assert_rows_equal(got, tpch.duckdb_rows[query], columns_of(query), tolerance=averages)


def test_datafusion_plan_and_a_plan_file(remote, tpch):
    expected = rows(remote.sql(tpch.sql[6].strip().rstrip(";")))
    assert rows(remote.read.substrait(tpch.datafusion_bin[6])) == expected
    assert rows(remote.read.substrait(tpch.plan_file("q06.json"))) == expected
    assert rows(remote.read.substrait(str(tpch.plan_file("q06.bin")))) == expected


def test_the_result_is_an_ordinary_connect_dataframe(remote, tpch):
    df = remote.read.substrait(tpch.duckdb_bin[1]).where("l_returnflag = 'R'").select("count_order")
    expected = remote.sql("SELECT count(*) FROM lineitem WHERE l_returnflag = 'R' "
                          "AND l_shipdate <= DATE'1998-12-01' - INTERVAL 90 DAY")
    assert rows(df) == rows(expected)


def test_dynamic_parameters_and_root(remote, tpch):
    import datetime

    from test_reader import PARAMETER_PLAN

    assert rows(remote.read.substrait(PARAMETER_PLAN)) == [
        (1, 7, datetime.date(2024, 1, 31)), (2, 7, datetime.date(2024, 1, 31))]
    assert rows(remote.read.substrait(PARAMETER_PLAN, params={1: 42, 2: datetime.date(1999, 12, 31)})) == [
        (1, 42, datetime.date(1999, 12, 31)), (2, 42, datetime.date(1999, 12, 31))]
    assert rows(remote.read.substrait(PARAMETER_PLAN, params={1: None, 2: "2000-02-29"})) == [
        (1, None, datetime.date(2000, 2, 29)), (2, None, datetime.date(2000, 2, 29))]
    # A float, a bool and an int beyond int64 travel too, and are cast to the parameter's type.
    assert rows(remote.read.substrait(PARAMETER_PLAN, params={1: 3.0}))[0][1] == 3
    assert rows(remote.read.substrait(PARAMETER_PLAN, params={1: True}))[0][1] == 1
    with pytest.raises(SubstraitInvalidPlanError) as e:
        remote.read.substrait(PARAMETER_PLAN, params={1: 2 ** 70})
    assert e.value.condition == "SUBSTRAIT_TYPE_MISMATCH"
    with pytest.raises(SubstraitInvalidPlanError) as e:
        remote.read.substrait(PARAMETER_PLAN, params={2: "not a date"})
    assert e.value.condition == "SUBSTRAIT_TYPE_MISMATCH"
    assert e.value.location.endswith("dynamic_parameter.parameter_reference")
    with pytest.raises(TypeError):
        remote.read.substrait(PARAMETER_PLAN, params={"1": 5})

    from substrait.plan_pb2 import Plan

    plan = Plan()
    plan.ParseFromString(tpch.datafusion_bin[6])
    plan.relations.append(plan.relations[0])
    plan.relations[1].root.names[0] = "other_name"
    two_roots = plan.SerializeToString()
    expected = rows(remote.read.substrait(tpch.datafusion_bin[6]))
    for root in (0, 1):
        df = remote.read.substrait(two_roots, root=root)
        assert rows(df) == expected
        assert df.columns == [["revenue"], ["other_name"]][root]
    with pytest.raises(TypeError):
        remote.read.substrait(two_roots, root="1")
    expect_error(remote, two_roots, SubstraitInvalidPlanError, "SUBSTRAIT_NO_ROOT", "relations")


def expect_error(remote, plan, cls, condition, location):
    """The error is raised by spark.read.substrait itself (as in classic mode), with the
    server's condition and location; the session stays usable."""
    with pytest.raises(SubstraitPlanError) as info:
        remote.read.substrait(plan)
    error = info.value
    assert type(error) is cls, f"{type(error).__name__}: {error}"
    assert error.condition == error.getCondition() == condition
    assert error.location == location
    assert error.message.startswith(f"[{condition}] ")
    if location is not None:
        assert error.message.startswith(f"[{condition}] At {location}: ")
        assert error.parameters["location"] == location
    assert error.connect_exception is not None
    assert rows(remote.sql("SELECT 1")) == [(1,)]
    return error


def test_invalid_plans_raise_the_projects_errors(remote, tpch):
    error = expect_error(remote, b"\x01\x02 not a plan \xff", SubstraitInvalidPlanError,
                         "SUBSTRAIT_MALFORMED_PLAN", "plan")
    assert error.parameters["format"] == "binary"
    expect_error(remote, '{"relations": [', SubstraitInvalidPlanError, "SUBSTRAIT_MALFORMED_PLAN", "plan")

    plan = json.loads(tpch.duckdb_json[6])
    for ext in plan["extensions"]:
        function = ext.get("extensionFunction", {})
        if function.get("name", "").startswith("multiply"):
            function["name"] = "no_such_function"
    error = expect_error(remote, json.dumps(plan), SubstraitUnsupportedError,
                         "SUBSTRAIT_UNKNOWN_FUNCTION", Q6_MEASURE_FUNCTION)
    assert error.parameters["name"] == "no_such_function"

    plan = json.loads(tpch.duckdb_json[6])
    plan["relations"][0]["root"]["input"]["project"]["expressions"][0]["selection"][
        "directReference"]["structField"]["field"] = 3
    expect_error(remote, json.dumps(plan), SubstraitInvalidPlanError, "SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
                 "relations[0].root.input.project.expressions[0].selection.direct_reference.struct_field.field")
    # After the errors, plans still run.
    assert_rows_equal(rows(remote.read.substrait(tpch.duckdb_bin[6])), tpch.duckdb_rows[6], ["revenue"])


def test_sql_table_functions_over_connect(remote, tpch):
    for query in (1, 6):
        expected = rows(remote.sql(tpch.sql[query].strip().rstrip(";")))
        got = rows(remote.sql("SELECT * FROM substrait_json(:plan)", args={"plan": tpch.duckdb_json[query]}))
        averages = {c: 5.01e-7 for c in Q1_AVG_COLUMNS}
        assert_rows_equal(got, expected, columns_of(query), tolerance=averages)
        hex_plan = tpch.duckdb_bin[query].hex()
        assert_rows_equal(rows(remote.sql(f"SELECT * FROM substrait(X'{hex_plan}')")), expected,
                          columns_of(query), tolerance=averages)
    # In SQL that uses them further.
    q6 = tpch.duckdb_json[6].replace("'", "''").replace("\\", "\\\\")
    assert rows(remote.sql(f"SELECT revenue * 2 FROM substrait_json('{q6}')")) == [(expected[0][0] * 2,)]
    # A bad plan: Spark's error carries the condition and message parameters, and
    # spark_substrait.from_connect gives the project's Python error for it.
    from pyspark.errors import PySparkException

    with pytest.raises(PySparkException) as info:
        rows(remote.sql("SELECT * FROM substrait_json('{\"relations\": [')"))
    assert info.value.getCondition() == "SUBSTRAIT_MALFORMED_PLAN"
    error = spark_substrait.from_connect(info.value)
    assert isinstance(error, SubstraitInvalidPlanError) and error.location == "plan"
    assert rows(remote.sql("SELECT 1")) == [(1,)]


def test_server_without_the_plugin_is_not_installed_error():
    from pyspark.errors.exceptions.connect import SparkConnectGrpcException

    from spark_substrait._connect_proto import TYPE_URL

    server_error = SparkConnectGrpcException(
        f"[CONNECT_INVALID_PLAN.NO_HANDLER_FOR_EXTENSION] No handler found for extension type: {TYPE_URL}",
        errorClass="CONNECT_INVALID_PLAN.NO_HANDLER_FOR_EXTENSION",
        messageParameters={"extensionTypeUrl": TYPE_URL})
    error = spark_substrait.from_connect(server_error)
    assert isinstance(error, spark_substrait.SubstraitNotInstalledError)
    assert "connect_server_conf" in error.message
    other = SparkConnectGrpcException("boom", errorClass="INTERNAL_ERROR", messageParameters={})
    assert spark_substrait.from_connect(other) is None
    assert spark_substrait.from_connect(ValueError("x")) is None


def test_the_connect_messages_come_from_the_one_proto_file_in_the_jar():
    """The client's message classes are built from the descriptor the JVM build compiled from
    proto/spark_substrait/connect/substrait_relation.proto and put in every jar: the same
    fields, numbers and presence as the file says, so client and server cannot drift apart."""
    from spark_substrait import _connect_proto

    relation = _connect_proto.SubstraitRelation.DESCRIPTOR
    assert relation.full_name == "spark_substrait.connect.SubstraitRelation"
    assert {f.name: f.number for f in relation.fields} == {
        "plan_binary": 1, "plan_json": 2, "root": 3, "parameters": 4}
    assert [f.name for f in relation.oneofs_by_name["plan"].fields] == ["plan_binary", "plan_json"]
    parameter = relation.nested_types_by_name["Parameter"]
    assert {f.name: f.number for f in parameter.fields} == {
        "anchor": 1, "is_null": 2, "bool_value": 3, "int_value": 4, "double_value": 5, "string_value": 6}
    write = _connect_proto.SubstraitWrite.DESCRIPTOR
    assert {f.name: f.number for f in write.fields} == {"relation": 1, "analyzed": 2, "target": 3, "json": 4}
    # proto2 presence: an unset root is not root 0.
    message = _connect_proto.SubstraitRelation(plan_json="{}")
    assert not message.HasField("root")
    message.root = 0
    assert message.HasField("root")
    proto = Path(__file__).parent.parent / "proto" / "spark_substrait" / "connect" / "substrait_relation.proto"
    text = proto.read_text()
    for field in [*relation.fields, *parameter.fields, *write.fields]:
        assert f"{field.name} = {field.number};" in text, field.name


def test_connect_server_conf_appends():
    conf = spark_substrait.connect_server_conf({"spark.jars": "/a.jar", "spark.sql.extensions": "x.Ext"})
    assert conf["spark.jars"] == f"/a.jar,{spark_substrait.jar_path()}"
    assert conf["spark.sql.extensions"] == f"x.Ext,{spark_substrait.EXTENSION_CLASS}"
    assert conf["spark.connect.extensions.relation.classes"] == spark_substrait.RELATION_PLUGIN_CLASS


IMPORT_WITHOUT_EXTRAS = textwrap.dedent(r"""
    import importlib.abc, sys

    class Missing(importlib.abc.MetaPathFinder):
        # As if the Connect extras were not installed.
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] in {"grpc", "pandas", "zstandard", "google"}:
                raise ImportError(f"No module named {name!r}")
            return None

    sys.meta_path.insert(0, Missing())
    import spark_substrait
    from pyspark.sql.readwriter import DataFrameReader
    print("classic", hasattr(DataFrameReader, "substrait"))
    print("connect_imported", "pyspark.sql.connect.readwriter" in sys.modules)
""")


def test_import_works_without_the_connect_extras():
    result = run_python(["-c", IMPORT_WITHOUT_EXTRAS], python=sys.executable)
    assert result.returncode == 0, result.stderr
    assert "classic True" in result.stdout
    assert "connect_imported False" in result.stdout


@pytest.mark.parametrize("first", ["spark_substrait", "pyspark.sql.connect.readwriter"])
def test_the_connect_reader_gets_substrait_whichever_is_imported_first(first):
    second = ({"spark_substrait", "pyspark.sql.connect.readwriter"} - {first}).pop()
    script = (f"import importlib; importlib.import_module({first!r}); importlib.import_module({second!r})\n"
              "from pyspark.sql.connect.readwriter import DataFrameReader\n"
              "import spark_substrait._connect as c\n"
              "print(DataFrameReader.substrait is c.substrait)")
    result = run_python(["-c", script], python=sys.executable)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"


def test_the_command_line_runs_a_plan_over_connect(connect_server, tpch, tmp_path):
    """``spark-substrait run - --remote sc://…``: the plan from stdin, the table registered
    on the server's session, CSV rows back; quiet, and exit 0."""
    import csv
    import io

    script = os.path.join(os.path.dirname(sys.executable), "spark-substrait")
    result = subprocess.run([script, "run", "-", "--remote", connect_server, "--table", f"lineitem={tpch.lineitem}",
                             "--format", "csv"], input=tpch.duckdb_bin[6], capture_output=True, env=clean_env(),
                            cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    rows = list(csv.reader(io.StringIO(result.stdout.decode())))
    assert rows[0] == ["revenue"]
    assert [float(rows[1][0])] == [float(tpch.duckdb_rows[6][0][0])]


def test_to_substrait_writes_a_connect_dataframe_on_the_server(remote, tpch):
    """spark_substrait.to_substrait on a remote DataFrame: the server's plugin writes it; the
    plan read back (on the same server) gives the DataFrame's rows, binary and JSON, optimized
    and analyzed; an unwritable DataFrame is our error, not Spark Connect's."""
    query = tpch.sql[6].strip().rstrip(";")
    expected = rows(remote.sql(query))
    # The optimized plan reads the view's parquet file (LocalFiles): reading it back needs its folder allowed.
    remote.conf.set("spark.substrait.localFiles.allowedPrefixes", str(tpch.folder))
    plan = spark_substrait.to_substrait(remote.sql(query))
    assert isinstance(plan, bytes) and plan
    assert rows(remote.read.substrait(plan)) == expected
    text = spark_substrait.to_substrait(remote.sql(query), format="json", optimized=False)
    assert isinstance(text, str) and json.loads(text)["version"]["producer"] == "spark-substrait"
    assert rows(remote.read.substrait(text)) == expected
    # Grouped with NULL keys and duplicates: rows compared as multisets with Spark's own.
    grouped = ("SELECT l_returnflag, count(*) AS n, sum(CASE WHEN l_quantity > 40 THEN NULL ELSE l_quantity END) AS q "
               "FROM lineitem GROUP BY l_returnflag")
    assert sorted(rows(remote.read.substrait(spark_substrait.to_substrait(remote.sql(grouped))))) == \
        sorted(rows(remote.sql(grouped)))
    with pytest.raises(SubstraitUnsupportedError) as unwritable:
        spark_substrait.to_substrait(remote.sql("SELECT hash(l_orderkey) AS h FROM lineitem"))
    assert unwritable.value.condition == "SUBSTRAIT_UNWRITABLE_PLAN"
    remote.conf.unset("spark.substrait.localFiles.allowedPrefixes")


def test_explain_on_a_connect_session_says_it_needs_a_classic_one(remote, tpch):
    """The plan explorer runs in the driver JVM: on a remote session, a NotImplementedError that
    names spark_substrait.explain and what to do, not a reader's 'not installed' error."""
    with pytest.raises(NotImplementedError) as info:
        spark_substrait.explain(tpch.duckdb_bin[6], spark=remote)
    message = str(info.value)
    assert message.startswith("spark_substrait.explain needs a classic (JVM-backed) SparkSession")
    assert "spark-substrait explain PLAN --table NAME=PATH" in message
    assert not isinstance(info.value, SubstraitPlanError)


def test_the_command_line_writes_a_plan_over_connect(connect_server, remote, tpch, tmp_path):
    """``spark-substrait write … --remote``: the server's plugin writes the query's plan; read back
    on the same server it gives the query's rows."""
    script = os.path.join(os.path.dirname(sys.executable), "spark-substrait")
    out = tmp_path / "plan.bin"
    query = "SELECT l_returnflag, count(*) AS n FROM lineitem GROUP BY l_returnflag"
    result = subprocess.run([script, "write", query, "--remote", connect_server, "--table", f"lineitem={tpch.lineitem}",
                             "--analyzed", "-o", str(out)], capture_output=True, env=clean_env(), cwd=tmp_path,
                            timeout=300)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    assert f"wrote {out}" in result.stdout.decode()
    assert "--target duckdb-1.1" in result.stderr.decode()  # the default encoding's note
    assert sorted(rows(remote.read.substrait(out.read_bytes()))) == sorted(rows(remote.sql(query)))
