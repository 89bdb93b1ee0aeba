"""``python -m spark_substrait run``: prints, writes, explains, and fails with exit status 2."""

import json
import os
import sys

import pytest

from helpers import assert_rows_equal, run_python
from spark_substrait import cli


def test_run_shows_rows_and_explains(tpch, tmp_path):
    result = run_python(["-m", "spark_substrait", "run", str(tpch.plan_file("q06.json")),
                         "--table", f"lineitem={tpch.lineitem}", "--show", "5", "--explain"],
                        cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    revenue = str(tpch.duckdb_rows[6][0][0])
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert "|revenue     |" in lines
    assert f"|{revenue}|" in lines
    assert "== Analyzed Logical Plan ==" in result.stdout
    assert "== Physical Plan ==" in result.stdout


def test_run_writes_output(spark, tpch, tmp_path):
    out = tmp_path / "revenue.parquet"
    result = run_python(["-m", "spark_substrait", "run", str(tpch.plan_file("df_q06.bin")),
                         "--table", f"lineitem={tpch.lineitem}", "--output", str(out)],
                        cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"wrote {out}" in result.stdout
    rows = [tuple(r) for r in spark.read.parquet(str(out)).collect()]
    assert_rows_equal(rows, tpch.duckdb_rows[6], ["revenue"])


def test_invalid_plan_exits_2_with_the_message(tpch, tmp_path):
    plan = json.loads(tpch.duckdb_json[6])
    for ext in plan["extensions"]:
        if ext["extensionFunction"]["name"].startswith("multiply"):
            ext["extensionFunction"]["name"] = "no_such_function"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(plan))
    result = run_python(["-m", "spark_substrait", "run", str(path),
                         "--table", f"lineitem={tpch.lineitem}"], cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr[-3000:]
    assert ("[SUBSTRAIT_UNKNOWN_FUNCTION] At relations[0].root.input.project.input.aggregate"
            ".measures[0].measure.arguments[0].value.scalar_function: found function "
            "no_such_function") in result.stderr
    assert "Traceback" not in result.stderr


def test_missing_plan_file_exits_2(tmp_path):
    result = run_python(["-m", "spark_substrait", "run", str(tmp_path / "none.bin")])
    assert result.returncode == 2
    assert "no plan file at" in result.stderr


def test_console_script_is_installed():
    script = os.path.join(os.path.dirname(sys.executable), "spark-substrait")
    assert os.path.isfile(script)
    result = run_python([script, "run", "--help"], python=sys.executable)
    assert result.returncode == 0
    for option in ("--table", "--show", "--output", "--explain"):
        assert option in result.stdout


def test_bad_table_argument_is_a_usage_error():
    with pytest.raises(SystemExit) as info:
        cli.build_parser().parse_args(["run", "plan.bin", "--table", "lineitem"])
    assert info.value.code == 2


@pytest.mark.parametrize("fmt", ["csv", "orc", "parquet-folder"])
def test_table_formats(spark, tmp_path, fmt):
    df = spark.createDataFrame([(1, "a", 2.5), (2, "b", 3.5)], "k long, s string, x double")
    path = tmp_path / ("t.csv" if fmt == "csv" else "t.orc" if fmt == "orc" else "t")
    writer = df.coalesce(1).write
    if fmt == "csv":
        writer.option("header", "true").csv(str(path))
    elif fmt == "orc":
        writer.orc(str(path))
    else:
        writer.parquet(str(path))
    cli._register_table(spark, f"t_{fmt.replace('-', '_')}", str(path))
    read = spark.table(f"t_{fmt.replace('-', '_')}")
    assert read.columns == ["k", "s", "x"]
    if fmt == "csv":  # header + inferSchema
        assert [f.dataType.simpleString() for f in read.schema] == ["int", "string", "double"]
    assert sorted(tuple(r) for r in read.collect()) == [(1, "a", 2.5), (2, "b", 3.5)]


def test_unknown_table_format(spark, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("x")
    with pytest.raises(ValueError, match="cannot tell the format"):
        cli._register_table(spark, "t", str(path))
