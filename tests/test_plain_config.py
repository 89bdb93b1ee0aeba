"""The reader works when the jar and the extension come from plain Spark configuration
(spark-defaults.conf, --conf), with no configure() call, each in a fresh driver JVM."""

import textwrap

import spark_substrait
from helpers import EXTENSION_CLASS, READ_PLAN_SCRIPT, clean_env, run_python, write_spark_defaults


def parse_rows(stdout):
    return [line[len("row "):] for line in stdout.splitlines() if line.startswith("row ")]


def test_spark_defaults_conf(tpch, tmp_path):
    conf_dir = write_spark_defaults(tmp_path / "conf", {
        "spark.jars": spark_substrait.jar_path(),
        "spark.sql.extensions": EXTENSION_CLASS,
    })
    result = run_python(["-c", READ_PLAN_SCRIPT, "plain", str(tpch.plan_file("q06.bin")),
                         str(tpch.lineitem)],
                        cwd=tmp_path, env=clean_env(SPARK_CONF_DIR=str(conf_dir)))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "extension_enabled True" in result.stdout
    assert parse_rows(result.stdout) == [repr(tuple(tpch.duckdb_rows[6][0]))]


def test_jar_from_submit_args_without_extension(tpch, tmp_path):
    """Only ``--conf spark.jars=...``: the extension is off, the plan is converted eagerly."""
    submit_args = f"--conf spark.jars={spark_substrait.jar_path()} pyspark-shell"
    result = run_python(["-c", READ_PLAN_SCRIPT, "plain", str(tpch.plan_file("df_q06.bin")),
                         str(tpch.lineitem)],
                        cwd=tmp_path, env=clean_env(PYSPARK_SUBMIT_ARGS=submit_args))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "extension_enabled False" in result.stdout
    assert parse_rows(result.stdout) == [repr(tuple(tpch.duckdb_rows[6][0]))]


def test_without_the_jar_the_error_says_how_to_enable_it(tpch, tmp_path):
    script = textwrap.dedent("""
        import spark_substrait
        from pyspark.sql import SparkSession
        spark = SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false").getOrCreate()
        try:
            spark.read.substrait(b"")
        except spark_substrait.SubstraitPlanError as e:
            print("error", type(e).__name__, e.condition)
            print(e.message)
        spark.stop()
    """)
    result = run_python(["-c", script], cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "error SubstraitNotInstalledError SUBSTRAIT_NOT_INSTALLED" in result.stdout
    assert "not on the Spark driver's classpath" in result.stdout
    assert "spark_substrait.configure" in result.stdout
    assert EXTENSION_CLASS in result.stdout
