"""User function mappings (issue 36): a plan calling the functions of its own extension,
``extension:org.example:my_functions``, runs once each is mapped to something Spark calls —
a Python UDF (an object, or a name from ``spark.udf.register``), a pandas UDF, a Java UDF, a
SQL UDF, a built-in, a SQL template — through every entry point: ``spark.read.substrait``,
the SQL table function ``substrait_json`` after ``SET``, the command line's ``--conf`` and
``--function``, and Spark Connect.

Rows are compared with the same expressions written in Spark SQL over the same data (NULLs,
duplicate rows, an empty table), never with the mapped functions themselves.
"""

import collections
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import spark_substrait
from helpers import package_env, remote_session
from spark_substrait import SubstraitPlanError, SubstraitUnsupportedError
from spark_substrait._errors import from_java

URN = "extension:org.example:my_functions"
SCHEMA = "id INT, s STRING, a BIGINT, b BIGINT"
# NULLs in every column a function reads, two equal rows, an empty string, non-ASCII text.
ROWS = [(1, "a", 1, 2), (1, "a", 1, 2), (2, None, None, 5), (3, "Hello", 10, -3), (4, "", 0, None),
        (5, "ünï", -7, 7), (6, "a", 1, 2)]
# column -> (index, the plan's type short name)
COLUMNS = {"id": (0, "i32"), "s": (1, "str"), "a": (2, "i64"), "b": (3, "i64")}
_PLAN_TYPES = {"str": "string", "i32": "i32", "i64": "i64"}

DESCRIBE_TEMPLATE = "concat(coalesce($1, '(null)'), '/', CAST(coalesce(uf_strlen($1), -1) AS STRING))"

# name in the plan -> (arguments: columns, or a 'quoted' string literal; the result's type;
# the same in Spark SQL over the table's columns, the independent answer)
FUNCTIONS = {
    "shout": (["s"], "str", "concat(upper(s), '!')"),                        # a udf() object
    "strlen": (["s"], "i32", "char_length(s)"),                              # spark.udf.register'd by name
    "twice": (["a"], "i64", "a * 2"),                                        # a pandas_udf object
    "my_upper": (["s"], "str", "upper(s)"),                                  # a built-in
    "my_join": (["'-'", "s", "s"], "str", "concat_ws('-', s, s)"),            # a built-in, three arguments
    "my_add": (["a", "b"], "i64", "(a + b) * 2"),                            # a SQL template
    "describe": (["s"], "str",                                               # a template calling a UDF
                 "concat(coalesce(s, '(null)'), '/', CAST(coalesce(char_length(s), -1) AS STRING))"),
    "rev": (["s"], "str", "reverse(s)"),                                     # a Java UDF
    "bracket": (["s"], "str", "concat('[', s, ']')"),                        # a SQL UDF (CREATE FUNCTION)
    "nobody_maps_me": (["s"], "str", "s"),                                   # never mapped
}
PYTHON_API = ["shout", "strlen", "twice", "my_upper", "my_join", "my_add", "describe"]


# --- the Python functions behind the UDFs: made inside a function, so that they are pickled
# by value (a Python worker cannot import this test module)


def _python_functions():
    def shout(s):
        return None if s is None else s.upper() + "!"

    def strlen(s):
        return None if s is None else len(s)

    def twice(a: pd.Series) -> pd.Series:
        return (a * 2).astype("Int64")

    return shout, strlen, twice


_shout, _strlen, _twice = _python_functions()


# --- plans and answers


def _type(short):
    return {_PLAN_TYPES[short]: {"nullability": "NULLABILITY_NULLABLE"}}


def function_plan(names, table="uf_data", urn=URN, functions=FUNCTIONS, signatures=None):
    """A plan projecting ``id`` and each named function of ``urn`` over the named table
    ``(id, s, a, b)``; each declared with its compound name (``signatures`` overrides one)."""
    signatures = signatures or {}
    read = {"read": {"common": {"direct": {}}, "namedTable": {"names": [table]}, "baseSchema": {
        "names": list(COLUMNS), "struct": {"types": [_type(t) for _, t in COLUMNS.values()],
                                           "nullability": "NULLABILITY_REQUIRED"}}}}
    declarations, expressions = [], []
    for anchor, name in enumerate(names, start=1):
        args, out, _ = functions[name]
        arg_types, arguments = [], []
        for arg in args:
            if arg.startswith("'"):
                arg_types.append("str")
                arguments.append({"value": {"literal": {"string": arg.strip("'")}}})
            else:
                index, short = COLUMNS[arg]
                arg_types.append(short)
                arguments.append({"value": {"selection": {"directReference": {"structField": {"field": index}},
                                                          "rootReference": {}}}})
        compound = signatures.get(name, f"{name}:{'_'.join(arg_types)}")
        declarations.append({"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": anchor,
                                                   "name": compound}})
        expressions.append({"scalarFunction": {"functionReference": anchor, "outputType": _type(out),
                                               "arguments": arguments}})
    emit = [0] + list(range(len(COLUMNS), len(COLUMNS) + len(names)))
    return json.dumps({
        "version": {"minorNumber": 108, "producer": "spark-substrait tests"},
        "extensionUrns": [{"extensionUrnAnchor": 1, "urn": urn}],
        "extensions": declarations,
        "relations": [{"root": {"names": ["id", *names], "input": {"project": {
            "common": {"emit": {"outputMapping": emit}}, "input": read, "expressions": expressions}}}}]})


def expected_sql(names, table="uf_data", functions=FUNCTIONS):
    """The same projection in Spark SQL."""
    return "SELECT id, " + ", ".join(f"{functions[n][2]} AS {n}" for n in names) + f" FROM {table}"


def rows(df):
    return [tuple(r) for r in df.collect()]


def assert_same_rows(got_df, expected_df, names):
    """Same columns, same types, the same rows as a multiset (duplicates count)."""
    assert got_df.columns == ["id", *names]
    got_types = [f.dataType.simpleString() for f in got_df.schema.fields]
    expected_types = [f.dataType.simpleString() for f in expected_df.schema.fields]
    assert got_types == expected_types
    got, expected = rows(got_df), rows(expected_df)
    assert len(got) == len(expected)
    assert collections.Counter(got) == collections.Counter(expected), (sorted(got, key=repr), sorted(expected, key=repr))
    return got


def alias_of(urn, name):
    """The contract's alias, computed here independently of the package."""
    cleaned = "".join(c if c.isalnum() and c.isascii() or c == "_" else "_" for c in name)
    return f"{cleaned}_{hashlib.sha1(f'{urn}#{name}'.encode()).hexdigest()[:8]}"


def register_python_mappings(session):
    """Every kind the Python API takes, on a classic or a Connect session."""
    from pyspark.sql.functions import pandas_udf, udf

    session.udf.register("uf_strlen", udf(_strlen, "int"))
    register = spark_substrait.register_function
    register(session, URN, "shout", spark_function=udf(_shout, "string"))
    register(session, URN, "strlen", spark_function="uf_strlen")
    register(session, URN, "twice", spark_function=pandas_udf(_twice, "bigint"))
    register(session, URN, "my_upper", spark_function="upper")
    register(session, URN, "my_join", spark_function="concat_ws")
    register(session, URN, "my_add", sql="($1 + $2) * 2")
    register(session, URN, "describe", sql=DESCRIBE_TEMPLATE)


def _sql_literal(v):
    if v is None:
        return "NULL"
    return "'" + v.replace("'", "''") + "'" if isinstance(v, str) else str(v)


def make_views(session):
    """uf_data (ROWS) and uf_empty, as views of VALUES: plans our writer can write too."""
    values = ", ".join("(" + ", ".join(_sql_literal(v) for v in row) + ")" for row in ROWS)
    select = ("SELECT CAST(id AS INT) AS id, CAST(s AS STRING) AS s, CAST(a AS BIGINT) AS a, CAST(b AS BIGINT) AS b "
              f"FROM VALUES {values} AS t(id, s, a, b)")
    session.sql(f"CREATE OR REPLACE TEMPORARY VIEW uf_data AS {select}")
    session.sql(f"CREATE OR REPLACE TEMPORARY VIEW uf_empty AS {select} WHERE false")
    assert session.table("uf_data").schema.simpleString() == "struct<id:int,s:string,a:bigint,b:bigint>"


def assert_refused_as_unknown(read, name):
    """The plan's error names the function and says how to map it."""
    with pytest.raises(Exception) as info:
        read()
    error = info.value
    if not isinstance(error, SubstraitPlanError):
        # The SQL table functions raise Spark's own errors (Py4J's or Connect's), with ours inside.
        error = from_java(error) or spark_substrait.from_connect(error)
    assert isinstance(error, SubstraitUnsupportedError), f"{type(error).__name__}: {error}"
    assert error.condition == "SUBSTRAIT_UNKNOWN_FUNCTION", error.message
    assert name in error.message
    assert "register_function" in error.message or "spark.substrait.function" in error.message, error.message
    return error


# --- fixtures


@pytest.fixture(scope="module")
def data(spark):
    make_views(spark)
    return "uf_data"


@pytest.fixture(autouse=True)
def no_mapping_outlives_its_test(spark):
    yield
    for mapping in spark_substrait.registered_functions(spark):
        if mapping.get("urn", "").startswith("extension:org.example:"):
            spark_substrait.unregister_function(spark, mapping["urn"], mapping["name"])
    for key, _ in spark.sql("SET").collect():
        if key.startswith("spark.substrait.extensionYaml."):
            spark.conf.unset(key)


@pytest.fixture(scope="module")
def java_udf_jar(tmp_path_factory):
    """A jar of org.example.udfs.Reverse, a Java UDF1<String, String>, compiled here."""
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("no javac on PATH: the Java UDF is compiled by the test")
    import pyspark

    folder = tmp_path_factory.mktemp("java-udf")
    source = folder / "src" / "org" / "example" / "udfs" / "Reverse.java"
    source.parent.mkdir(parents=True)
    source.write_text("""package org.example.udfs;

public class Reverse implements org.apache.spark.sql.api.java.UDF1<String, String> {
  @Override
  public String call(String s) {
    return s == null ? null : new StringBuilder(s).reverse().toString();
  }
}
""", encoding="utf-8")
    classes = folder / "classes"
    classpath = str(Path(pyspark.__file__).parent / "jars" / "*")
    result = subprocess.run([javac, "-cp", classpath, "-d", str(classes), str(source)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    jar = folder / "reverse-udf.jar"
    with zipfile.ZipFile(jar, "w") as z:
        for f in classes.rglob("*.class"):
            z.write(f, f.relative_to(classes).as_posix())
    return jar


@pytest.fixture(scope="module")
def remote(connect_server):
    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    session = remote_session(connect_server)
    make_views(session)
    yield session
    session.stop()
    if before is None:
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)


# --- the Python API on a classic session


@pytest.mark.parametrize("table", ["uf_data", "uf_empty"])
def test_every_kind_of_mapping_through_spark_read_substrait(spark, data, table):
    register_python_mappings(spark)
    got = assert_same_rows(spark.read.substrait(function_plan(PYTHON_API, table)),
                           spark.sql(expected_sql(PYTHON_API, table)), PYTHON_API)
    if table == "uf_data":
        assert len(got) == len(ROWS)
        assert any(v is None for row in got for v in row[1:]), "the NULL inputs give NULLs"
    else:
        assert got == []


def test_the_settings_are_the_contracts(spark):
    register = spark_substrait.register_function
    added = register(spark, URN, "my_add", sql="($1 + $2) * 2")
    alias = alias_of(URN, "my_add")
    assert added == {"alias": alias, "urn": URN, "name": "my_add", "sql": "($1 + $2) * 2"}
    prefix = f"spark.substrait.function.{alias}"
    assert spark.conf.get(f"{prefix}.urn") == URN
    assert spark.conf.get(f"{prefix}.name") == "my_add"
    assert spark.conf.get(f"{prefix}.sql") == "($1 + $2) * 2"
    # A signature is part of the name, and of the alias; characters outside [A-Za-z0-9_] become _.
    signed = register(spark, URN, "my_add:i64_i64", spark_function="upper")
    assert signed["alias"] == alias_of(URN, "my_add:i64_i64") and signed["alias"].startswith("my_add_i64_i64_")
    # Registering again replaces: from a template to a function, the template's key is gone.
    register(spark, URN, "my_add", spark_function="concat_ws")
    assert spark.conf.get(f"{prefix}.spark") == "concat_ws"
    assert spark.conf.get(f"{prefix}.sql", None) is None


def test_the_jvm_api_and_the_python_api_share_aliases(spark):
    """A mapping or YAML registered through SubstraitPlans (Scala, Java) is the one Python sees,
    replaces and removes: both give it the same alias."""
    plans = spark._jvm.io.sparksubstrait.SubstraitPlans
    plans.registerSqlFunction(spark._jsparkSession, URN, "my_add", "($1 + $2) * 2")
    assert spark_substrait.registered_functions(spark) == [
        {"alias": alias_of(URN, "my_add"), "urn": URN, "name": "my_add", "sql": "($1 + $2) * 2"}]
    spark_substrait.register_function(spark, URN, "my_add", spark_function="concat_ws")
    lines = [str(line) for line in plans.registeredFunctions(spark._jsparkSession)]
    assert len(lines) == 1 and "concat_ws" in lines[0], lines  # replaced, not added
    assert spark_substrait.unregister_function(spark, URN, "MY_ADD")  # names in any case, as the JVM's
    assert len(plans.registeredFunctions(spark._jsparkSession)) == 0

    plans.registerExtensionYaml(spark._jsparkSession, CHECKED_YAML)
    spark_substrait.register_extension_yaml(spark, CHECKED_YAML.replace("the sum of", "adds"))
    yamls = {k: v for k, v in spark.sql("SET").collect() if k.startswith("spark.substrait.extensionYaml.")}
    assert list(yamls) == [f"spark.substrait.extensionYaml.{alias_of(CHECKED_URN, 'yaml')}"]
    assert "adds" in next(iter(yamls.values()))


def test_a_mapping_never_replaces_a_standard_function(spark, data):
    spark_substrait.register_function(spark, "extension:io.substrait:functions_string", "upper",
                                      spark_function="lower")
    spark_substrait.register_function(spark, URN, "my_upper", spark_function="upper")
    with pytest.raises(SubstraitPlanError) as info:
        spark.read.substrait(function_plan(["my_upper"]))
    assert info.value.condition == "SUBSTRAIT_INVALID_SETTING", info.value.message
    assert "extension:io.substrait:functions_string" in info.value.message
    spark_substrait.unregister_function(spark, "extension:io.substrait:functions_string", "upper")
    assert_same_rows(spark.read.substrait(function_plan(["my_upper"])), spark.sql(expected_sql(["my_upper"])),
                     ["my_upper"])


def test_registered_functions_lists_what_the_session_maps(spark):
    from pyspark.sql.functions import udf

    assert [m for m in spark_substrait.registered_functions(spark)
            if m.get("urn", "").startswith("extension:org.example")] == []
    spark_substrait.register_function(spark, URN, "my_upper", spark_function="upper")
    shout = spark_substrait.register_function(spark, URN, "shout", spark_function=udf(_shout, "string"))
    # A mapping set in SQL under an alias an admin chose is listed the same way.
    spark.sql(f"SET spark.substrait.function.admin_add.urn={URN}")
    spark.sql("SET spark.substrait.function.admin_add.name=my_add")
    spark.sql("SET spark.substrait.function.admin_add.sql=$1 + $2")
    listed = {m["alias"]: m for m in spark_substrait.registered_functions(spark)}
    assert listed[alias_of(URN, "my_upper")] == {"alias": alias_of(URN, "my_upper"), "urn": URN, "name": "my_upper",
                                                 "spark": "upper"}
    assert listed[shout["alias"]] == {"alias": shout["alias"], "urn": URN, "name": "shout",
                                      "spark": f"substrait_{alias_of(URN, 'shout')}"}
    assert listed["admin_add"] == {"alias": "admin_add", "urn": URN, "name": "my_add", "sql": "$1 + $2"}
    # The UDF object was registered under its generated name.
    assert rows(spark.sql(f"SELECT substrait_{alias_of(URN, 'shout')}('x')")) == [("X!",)]
    # register_function replaces a mapping of the same function under another alias.
    spark_substrait.register_function(spark, URN, "my_add", sql="$1 - $2")
    listed = {m["alias"]: m for m in spark_substrait.registered_functions(spark)}
    assert "admin_add" not in listed and listed[alias_of(URN, "my_add")]["sql"] == "$1 - $2"


def test_an_unregistered_function_is_refused_naming_how_to_register_it(spark, data):
    assert_refused_as_unknown(lambda: spark.read.substrait(function_plan(["nobody_maps_me"])), "nobody_maps_me")


def test_unregister_then_refused_again(spark, data):
    from pyspark.sql.functions import udf

    plan = function_plan(["shout", "my_add"])
    spark_substrait.register_function(spark, URN, "shout", spark_function=udf(_shout, "string"))
    spark_substrait.register_function(spark, URN, "my_add", sql="($1 + $2) * 2")
    assert_same_rows(spark.read.substrait(plan), spark.sql(expected_sql(["shout", "my_add"])), ["shout", "my_add"])
    generated = f"substrait_{alias_of(URN, 'shout')}"
    assert spark.catalog.functionExists(generated)

    assert spark_substrait.unregister_function(spark, URN, "shout") is True
    assert spark_substrait.unregister_function(spark, URN, "shout") is False
    assert_refused_as_unknown(lambda: spark.read.substrait(plan), "shout")
    assert [m["name"] for m in spark_substrait.registered_functions(spark) if m.get("urn") == URN] == ["my_add"]
    # The UDF it registered is dropped with it.
    assert not spark.catalog.functionExists(generated)
    # The other mapping still holds.
    assert_same_rows(spark.read.substrait(function_plan(["my_add"])), spark.sql(expected_sql(["my_add"])), ["my_add"])


def test_a_java_udf(spark, data, java_udf_jar):
    spark.sql(f"ADD JAR '{java_udf_jar}'")
    spark.udf.registerJavaFunction("uf_java_reverse", "org.example.udfs.Reverse", "string")
    spark_substrait.register_function(spark, URN, "rev", spark_function="uf_java_reverse")
    got = assert_same_rows(spark.read.substrait(function_plan(["rev"])), spark.sql(expected_sql(["rev"])), ["rev"])
    assert ("Hello"[::-1]) in [r[1] for r in got]


def test_a_sql_udf_from_create_function_is_refused_naming_the_template_form(spark, data):
    """Spark inlines a SQL function (CREATE FUNCTION ... RETURN) as a plan of its own, which a
    call site cannot hold: refused at the call, naming the sql-template form of its body."""
    try:
        spark.sql("CREATE OR REPLACE TEMPORARY FUNCTION uf_sql_bracket(x STRING) RETURNS STRING "
                  "RETURN concat('[', x, ']')")
    except Exception as e:  # noqa: BLE001 - Spark before 4.0 parses no SQL UDF
        pytest.skip(f"this Spark has no SQL UDFs (CREATE FUNCTION … RETURN): {str(e).splitlines()[0]}")
    spark_substrait.register_function(spark, URN, "bracket", spark_function="uf_sql_bracket")
    try:
        with pytest.raises(SubstraitUnsupportedError) as info:
            spark.read.substrait(function_plan(["bracket"])).collect()
        assert "CREATE FUNCTION" in str(info.value) and "sql template" in str(info.value), str(info.value)
        # The body as a template gives the SQL function's rows.
        spark_substrait.register_function(spark, URN, "bracket", sql="concat('[', $1, ']')")
        assert_same_rows(spark.read.substrait(function_plan(["bracket"])), spark.sql(expected_sql(["bracket"])),
                         ["bracket"])
    finally:
        spark_substrait.unregister_function(spark, URN, "bracket")


# --- the SQL table function, with the mappings SET in SQL


def test_the_sql_table_function_after_set(spark, data):
    from pyspark.sql.functions import udf

    names = ["strlen", "my_upper", "my_add", "describe"]
    spark.udf.register("uf_strlen", udf(_strlen, "int"))
    for alias, name, kind, value in [("sql_strlen", "strlen", "spark", "uf_strlen"),
                                     ("sql_upper", "my_upper", "spark", "upper"),
                                     ("sql_add", "my_add:i64_i64", "sql", "($1 + $2) * 2"),
                                     ("sql_describe", "describe", "sql", DESCRIBE_TEMPLATE)]:
        spark.sql(f"SET spark.substrait.function.{alias}.urn={URN}")
        spark.sql(f"SET spark.substrait.function.{alias}.name={name}")
        spark.sql(f"SET spark.substrait.function.{alias}.{kind}={value}")
    plan = function_plan(names)
    got = spark.sql("SELECT * FROM substrait_json(:plan)", args={"plan": plan})
    assert_same_rows(got, spark.sql(expected_sql(names)), names)
    # In SQL that uses it further.
    further = spark.sql("SELECT my_upper, count(*) AS n FROM substrait_json(:plan) GROUP BY my_upper",
                        args={"plan": plan})
    expected = spark.sql("SELECT upper(s) AS my_upper, count(*) AS n FROM uf_data GROUP BY upper(s)")
    assert collections.Counter(rows(further)) == collections.Counter(rows(expected))
    # Unmapped again (unregister_function finds mappings by URN and name, whatever their alias): refused.
    assert spark_substrait.unregister_function(spark, URN, "my_upper")
    assert_refused_as_unknown(lambda: rows(spark.sql("SELECT * FROM substrait_json(:plan)", args={"plan": plan})),
                              "my_upper")


# --- the command line


def test_the_command_line_with_conf_and_function(spark, tmp_path):
    names = ["my_upper", "my_join", "my_add"]
    table = tmp_path / "uf_data.parquet"
    spark.createDataFrame(ROWS, SCHEMA).coalesce(1).write.parquet(str(table))
    plan = tmp_path / "plan.json"
    plan.write_text(function_plan(names), encoding="utf-8")

    def run(*options):
        return subprocess.run([sys.executable, "-m", "spark_substrait", "run", str(plan), "--table",
                               f"uf_data={table}", "--format", "parquet", *options],
                              capture_output=True, env=package_env(), cwd=tmp_path, timeout=300)

    mappings = ["--conf", f"spark.substrait.function.cli_upper.urn={URN}",
                "--conf", "spark.substrait.function.cli_upper.name=my_upper",
                "--conf", "spark.substrait.function.cli_upper.spark=upper",
                "--conf", f"spark.substrait.function.cli_join.urn={URN}",
                "--conf", "spark.substrait.function.cli_join.name=my_join",
                "--conf", "spark.substrait.function.cli_join.spark=concat_ws"]
    result = run(*mappings, "--function", f"{URN}#my_add=($1 + $2) * 2")
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-3000:]
    got = [tuple(r.values()) for r in pq.read_table(io.BytesIO(result.stdout)).to_pylist()]
    spark.read.parquet(str(table)).createOrReplaceTempView("uf_cli_data")
    expected = rows(spark.sql(expected_sql(names, "uf_cli_data")))
    assert len(got) == len(ROWS)
    assert collections.Counter(got) == collections.Counter(expected)

    # Without the --function, my_add is unknown: exit 3, the message says how to map it.
    result = run(*mappings)
    stderr = result.stderr.decode(errors="replace")
    assert result.returncode == 3, stderr[-3000:]
    assert "[SUBSTRAIT_UNKNOWN_FUNCTION]" in stderr and "my_add" in stderr and "Traceback" not in stderr


def test_the_function_option_is_parsed_before_spark_starts():
    from spark_substrait import cli
    from spark_substrait.cli import session as cli_session

    parser = cli.build_parser()
    args = parser.parse_args(["run", "p", "--conf", "k=v", "--function", f"{URN}#my_add:i64_i64=($1 + $2) * 2",
                              "--function", f"{URN}#f=concat($1, '=')"])
    alias = alias_of(URN, "my_add:i64_i64")
    assert cli_session.settings(args) == [
        ("k", "v"),
        (f"spark.substrait.function.{alias}.urn", URN),
        (f"spark.substrait.function.{alias}.name", "my_add:i64_i64"),
        (f"spark.substrait.function.{alias}.sql", "($1 + $2) * 2"),
        (f"spark.substrait.function.{alias_of(URN, 'f')}.urn", URN),
        (f"spark.substrait.function.{alias_of(URN, 'f')}.name", "f"),
        (f"spark.substrait.function.{alias_of(URN, 'f')}.sql", "concat($1, '=')")]
    for bad in [f"{URN}#my_add", f"{URN}=($1)", "#my_add=$1", f"{URN}#=$1", f"{URN}#my_add=  ", f"{URN}#a b=$1"]:
        with pytest.raises(SystemExit):
            parser.parse_args(["run", "p", "--function", bad])


# --- writing: a DataFrame calling a registered function


def test_a_dataframe_calling_a_registered_udf_is_written_and_read_back(spark, data):
    from pyspark.sql.functions import udf

    spark.udf.register("uf_strlen", udf(_strlen, "int"))
    spark_substrait.register_function(spark, URN, "strlen", spark_function="uf_strlen")
    shout = spark_substrait.register_function(spark, URN, "shout", spark_function=udf(_shout, "string"))
    df = spark.sql(f"SELECT id, uf_strlen(s) AS n, substrait_{shout['alias']}(s) AS loud FROM uf_data")
    expected = rows(df)
    plan = spark_substrait.to_substrait(df, format="json")
    written = json.loads(plan)
    urns = [u["urn"] for u in written.get("extensionUrns", [])]
    assert URN in urns
    names = {e["extensionFunction"]["name"].split(":")[0] for e in written.get("extensions", [])
             if "extensionFunction" in e}
    assert {"strlen", "shout"} <= names
    back = spark.read.substrait(plan)
    assert collections.Counter(rows(back)) == collections.Counter(expected)
    assert len(expected) == len(ROWS)


# --- user extension YAMLs


CHECKED_URN = "extension:org.example:checked_functions"
CHECKED_YAML = f"""%YAML 1.2
---
urn: {CHECKED_URN}
scalar_functions:
  - name: checked_add
    description: the sum of two whole numbers
    impls:
      - args:
          - name: x
            value: i64
          - name: y
            value: i64
        return: i64
"""
CHECKED = {"checked_add": (["a", "b"], "i64", "a + b"), "checked_add_text": (["s", "s"], "str", "s")}


@pytest.mark.parametrize("form", ["text", "path"])
def test_an_extension_yaml_checks_signatures(spark, data, tmp_path, form):
    source = CHECKED_YAML
    if form == "path":
        source = tmp_path / "checked_functions.yaml"
        source.write_text(CHECKED_YAML, encoding="utf-8")
    assert spark_substrait.register_extension_yaml(spark, source) == CHECKED_URN
    spark_substrait.register_function(spark, CHECKED_URN, "checked_add", sql="$1 + $2")
    plan = function_plan(["checked_add"], urn=CHECKED_URN, functions=CHECKED)
    assert_same_rows(spark.read.substrait(plan), spark.sql(expected_sql(["checked_add"], functions=CHECKED)),
                     ["checked_add"])
    # The same function called with two strings: no such signature in the YAML.
    wrong = json.loads(function_plan(["checked_add_text"], urn=CHECKED_URN, functions=CHECKED,
                                     signatures={"checked_add_text": "checked_add:str_str"}))
    with pytest.raises(SubstraitPlanError) as info:
        spark.read.substrait(json.dumps(wrong))
    assert "checked_add" in info.value.message
    assert "str_str" in info.value.message or "string" in info.value.message


# --- arguments checked before anything is set


def test_arguments_are_checked_up_front(spark):
    register = spark_substrait.register_function
    before = spark_substrait.registered_functions(spark)
    with pytest.raises(ValueError, match="exactly one of spark_function= .* got neither"):
        register(spark, URN, "f")
    with pytest.raises(ValueError, match="exactly one of spark_function= or sql=; got both"):
        register(spark, URN, "f", spark_function="upper", sql="$1")
    with pytest.raises(ValueError, match="urn is empty"):
        register(spark, "", "f", sql="$1")
    with pytest.raises(ValueError, match="urn .* contains whitespace"):
        register(spark, " extension:org.example:x", "f", sql="$1")
    with pytest.raises(TypeError, match="urn must be a str .* got NoneType"):
        register(spark, None, "f", sql="$1")
    with pytest.raises(ValueError, match="name is empty"):
        register(spark, URN, "", sql="$1")
    with pytest.raises(ValueError, match="neither a name nor NAME:SIGNATURE"):
        register(spark, URN, "f:", sql="$1")
    with pytest.raises(TypeError, match="name must be a str"):
        register(spark, URN, 3, sql="$1")
    with pytest.raises(ValueError, match="sql is empty"):
        register(spark, URN, "f", sql="  ")
    with pytest.raises(TypeError, match="sql must be a str"):
        register(spark, URN, "f", sql=1)
    with pytest.raises(ValueError, match="spark_function is an empty string"):
        register(spark, URN, "f", spark_function="")
    with pytest.raises(TypeError, match="plain Python callable .* wrap it: pyspark.sql.functions.udf"):
        register(spark, URN, "f", spark_function=_shout)
    with pytest.raises(TypeError, match="spark_function must be a str .* got int"):
        register(spark, URN, "f", spark_function=42)
    with pytest.raises(TypeError, match="expected a SparkSession .* got str"):
        register("spark", URN, "f", sql="$1")
    with pytest.raises(TypeError, match="expected a SparkSession"):
        spark_substrait.registered_functions(None)
    with pytest.raises(ValueError, match="neither a YAML text nor the path of an existing file"):
        spark_substrait.register_extension_yaml(spark, "no/such/file.yaml")
    with pytest.raises(ValueError, match="no top-level 'urn:'"):
        spark_substrait.register_extension_yaml(spark, "scalar_functions:\n  - name: f\n")
    with pytest.raises(TypeError, match="expected a YAML text"):
        spark_substrait.register_extension_yaml(spark, 42)
    assert spark_substrait.registered_functions(spark) == before


# --- Spark Connect


def test_every_kind_of_mapping_over_spark_connect(remote):
    register_python_mappings(remote)
    try:
        for table in ("uf_data", "uf_empty"):
            plan = function_plan(PYTHON_API, table)
            expected = remote.sql(expected_sql(PYTHON_API, table))
            got = assert_same_rows(remote.read.substrait(plan), expected, PYTHON_API)
            assert len(got) == (len(ROWS) if table == "uf_data" else 0)
            assert_same_rows(remote.sql("SELECT * FROM substrait_json(:plan)", args={"plan": plan}), expected,
                             PYTHON_API)
        listed = {m["name"] for m in spark_substrait.registered_functions(remote) if m.get("urn") == URN}
        assert listed == set(PYTHON_API)
        # Unregistered over Connect: the plan is refused, naming how to map the function.
        assert spark_substrait.unregister_function(remote, URN, "shout")
        assert_refused_as_unknown(lambda: remote.read.substrait(function_plan(PYTHON_API)), "shout")
    finally:
        for name in PYTHON_API:
            spark_substrait.unregister_function(remote, URN, name)


def test_an_extension_yaml_over_spark_connect(remote, tmp_path):
    # The client reads the file; the server gets its text (it cannot see the client's files).
    source = tmp_path / "checked_functions.yaml"
    source.write_text(CHECKED_YAML, encoding="utf-8")
    assert spark_substrait.register_extension_yaml(remote, source) == CHECKED_URN
    spark_substrait.register_function(remote, CHECKED_URN, "checked_add", sql="$1 + $2")
    try:
        plan = function_plan(["checked_add"], urn=CHECKED_URN, functions=CHECKED)
        assert_same_rows(remote.read.substrait(plan), remote.sql(expected_sql(["checked_add"], functions=CHECKED)),
                         ["checked_add"])
        wrong = function_plan(["checked_add_text"], urn=CHECKED_URN, functions=CHECKED,
                              signatures={"checked_add_text": "checked_add:str_str"})
        with pytest.raises(SubstraitPlanError):
            remote.read.substrait(wrong)
    finally:
        spark_substrait.unregister_function(remote, CHECKED_URN, "checked_add")
        for key in remote.conf.getAll:
            if key.startswith("spark.substrait.extensionYaml."):
                remote.conf.unset(key)
