"""``spark-substrait`` on the command line: plans from files and stdin, spark-submit's options,
every output format, quiet stderr, and the exit statuses 0 / 1 / 2 / 3.

Each run starts a Spark driver, so checks share runs where they can.
"""

import csv
import io
import json
import os
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from helpers import PARAMETER_PLAN, assert_rows_equal, clean_env
from spark_substrait import cli
from spark_substrait.cli import output as cli_output, run as cli_run, session as cli_session

SCRIPT = os.path.join(os.path.dirname(sys.executable), "spark-substrait")


def spark_substrait(args, stdin: bytes = None, cwd=None) -> subprocess.CompletedProcess:
    """The installed console script, with bytes in and out."""
    return subprocess.run([SCRIPT, *map(str, args)], input=stdin, capture_output=True, cwd=cwd,
                          env=clean_env(), timeout=300)


def text(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def test_run_a_plan_from_stdin_as_csv_quietly(tpch, tmp_path):
    # DataFusion's binary plan through stdin, CSV rows on stdout, nothing on stderr.
    result = spark_substrait(["run", "-", "--table", f"lineitem={tpch.lineitem}", "--format", "csv"],
                             stdin=tpch.datafusion_bin[6], cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    assert result.stderr == b"", text(result.stderr)
    rows = list(csv.reader(io.StringIO(text(result.stdout))))
    assert rows[0] == ["revenue"]
    assert_rows_equal([tuple(float(v) for v in r) for r in rows[1:]],
                      [tuple(float(v) for v in r) for r in tpch.duckdb_rows[6]], ["revenue"])


def test_run_json_lines_with_a_limit_and_a_table_format_suffix(tpch, tmp_path):
    # DuckDB's JSON plan of Q1 through stdin; the table named with :parquet on a path without an extension.
    bare = tmp_path / "lineitem_data"
    bare.write_bytes(tpch.lineitem.read_bytes())
    result = spark_substrait(["run", "-", "--table", f"lineitem={bare}:parquet", "--format", "json", "--limit", "2"],
                             stdin=tpch.duckdb_json[1].encode(), cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    lines = [json.loads(line) for line in text(result.stdout).splitlines()]
    assert len(lines) == 2
    expected = {(r[0], r[1]): r[2] for r in tpch.duckdb_rows[1]}
    for line in lines:
        assert float(line["sum_qty"]) == float(expected[(line["l_returnflag"], line["l_linestatus"])])


def test_run_parquet_to_stdout_and_csv_to_a_folder(tpch, tmp_path):
    plan = tpch.plan_file("q06.bin")
    result = spark_substrait(["run", plan, "--table", f"lineitem={tpch.lineitem}", "--format", "parquet"], cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    table = pq.read_table(io.BytesIO(result.stdout))
    assert table.column_names == ["revenue"]
    assert_rows_equal([(float(v),) for v in table.column(0).to_pylist()],
                      [(float(r[0]),) for r in tpch.duckdb_rows[6]], ["revenue"])
    out = tmp_path / "out"
    result = spark_substrait(["run", plan, "--table", f"lineitem={tpch.lineitem}", "--format", "csv", "--output", out],
                             cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    assert f"wrote {out}" in text(result.stdout)
    part = next(p for p in out.iterdir() if p.name.endswith(".csv"))
    assert part.read_text().splitlines()[0] == "revenue"


def test_run_params_root_and_conf(tmp_path):
    # Parameter values are text cast to the parameter's type; --null-param gives NULL.
    result = spark_substrait(["run", "-", "--param", "1=42", "--param", "2=1999-12-31", "--format", "csv"],
                             stdin=PARAMETER_PLAN.encode(), cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    assert text(result.stdout).splitlines() == ["x,p,d", "1,42,1999-12-31", "2,42,1999-12-31"]
    result = spark_substrait(["run", "-", "--null-param", "1", "--root", "0", "--format", "csv",
                              "--conf", "spark.sql.session.timeZone=Asia/Kathmandu", "--master", "local[1]"],
                             stdin=PARAMETER_PLAN.encode(), cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    assert text(result.stdout).splitlines() == ["x,p,d", "1,,2024-01-31", "2,,2024-01-31"]
    # A value that does not fit its parameter's type is the plan's error (exit 2).
    result = spark_substrait(["run", "-", "--param", "2=not a date"], stdin=PARAMETER_PLAN.encode(), cwd=tmp_path)
    assert result.returncode == 2
    assert "[SUBSTRAIT_TYPE_MISMATCH]" in text(result.stderr) and "Traceback" not in text(result.stderr)


def test_driver_memory_and_the_log_file(tmp_path):
    # --driver-memory reaches the driver JVM at its start: its block store is sized from the heap.
    log = tmp_path / "spark.log"
    result = spark_substrait(["run", "-", "--driver-memory", "600m", "--log-file", log, "--format", "csv"],
                             stdin=PARAMETER_PLAN.encode(), cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    assert result.stderr == b""
    logged = log.read_text()
    line = next(l for l in logged.splitlines() if "MemoryStore started with capacity" in l)
    capacity_mib = float(line.split("capacity")[1].split()[0])
    assert capacity_mib < 300, line  # 600m of heap leaves about 170 MiB to storage; the default 1g, about 430
    # -v shows Spark's own log on stderr.
    result = spark_substrait(["run", "-", "-v", "--format", "csv"], stdin=PARAMETER_PLAN.encode(), cwd=tmp_path)
    assert result.returncode == 0
    assert "log4j" in text(result.stderr) or " WARN " in text(result.stderr) or " INFO " in text(result.stderr)


def test_exit_statuses_and_messages(tpch, tmp_path):
    # Invalid plan: 2; unsupported: 3; usage: 2; anything else: 1; never a traceback unless --debug.
    result = spark_substrait(["run", "-"], stdin=b"\x01\x02 not a plan \xff", cwd=tmp_path)
    assert result.returncode == 2 and "[SUBSTRAIT_MALFORMED_PLAN]" in text(result.stderr)
    plan = json.loads(tpch.duckdb_json[6])
    for ext in plan["extensions"]:
        if ext["extensionFunction"]["name"].startswith("multiply"):
            ext["extensionFunction"]["name"] = "no_such_function"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(plan))
    result = spark_substrait(["run", bad, "--table", f"lineitem={tpch.lineitem}"], cwd=tmp_path)
    assert result.returncode == 3, text(result.stderr)[-3000:]
    assert ("[SUBSTRAIT_UNKNOWN_FUNCTION] At relations[0].root.input.project.input.aggregate"
            ".measures[0].measure.arguments[0].value.scalar_function: found function no_such_function") in text(result.stderr)
    assert "Traceback" not in text(result.stderr)
    result = spark_substrait(["run", tmp_path / "none.bin"])
    assert result.returncode == 2 and "no plan file at" in text(result.stderr)
    result = spark_substrait(["run", bad, "--param", "x=1"])
    assert result.returncode == 2 and "ANCHOR=VALUE" in text(result.stderr)
    result = spark_substrait(["run", "-", "--master", "nonsense://x", "--debug"], stdin=PARAMETER_PLAN.encode(), cwd=tmp_path)
    assert result.returncode == 1
    # The driver's own explanation of why it did not start comes along.
    assert "Traceback" in text(result.stderr) and "Master must" in text(result.stderr)


def test_run_explain_goes_to_stdout_with_a_table_and_stderr_with_rows(tpch, tmp_path):
    plan = tpch.plan_file("q06.json")
    result = spark_substrait(["run", plan, "--table", f"lineitem={tpch.lineitem}", "--show", "5", "--explain"], cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)[-3000:]
    out = text(result.stdout)
    assert "== Physical Plan ==" in out and f"|{tpch.duckdb_rows[6][0][0]}|" in out.replace(" ", "")


def test_parsing_of_tables_params_and_session_options():
    assert cli_run.table_arg("t=/data/t") == ("t", "/data/t", None)
    assert cli_run.table_arg("t=s3a://bucket/t:orc") == ("t", "s3a://bucket/t", "orc")
    assert cli_run.table_arg("t=C:\\data\\t.csv") == ("t", "C:\\data\\t.csv", None)
    parser = cli.build_parser()
    for bad in (["run", "p", "--table", "t"], ["run", "p", "--param", "a=1"], ["run", "p", "--root", "-1"],
                ["run", "p", "--format", "xml"], ["run", "p", "--remote", "sc://h:1", "--master", "local"]):
        with pytest.raises(SystemExit) as info:
            args = parser.parse_args(bad)
            cli_session.check_session_options(args, parser)
        assert info.value.code == 2, bad
    assert cli_output.output_format(None, "x.parquet") == "parquet"
    assert cli_output.output_format("csv", "x.parquet") == "csv"
    with pytest.raises(cli_output.UsageError):
        cli_output.output_format(None, "x.xlsx")


def test_the_jvm_stderr_forwarder_keeps_only_the_progress_line(tmp_path):
    read_end, write_end = os.pipe()
    terminal_read, terminal_write = os.pipe()
    log = tmp_path / "log"
    os.write(write_end, b"WARNING: Using incubator modules\n")
    os.write(write_end, b"\r[Stage 3:=====>   (2 + 2) / 4]")
    os.close(write_end)
    cli_session._JvmStderr._forward(read_end, terminal_write, str(log))
    os.close(terminal_write)
    assert os.read(terminal_read, 1000) == b"\r[Stage 3:=====>   (2 + 2) / 4]"
    assert log.read_bytes() == b"WARNING: Using incubator modules\n"


def test_console_script_is_installed():
    result = spark_substrait(["run", "--help"])
    assert result.returncode == 0
    for option in ("--table", "--format", "--output", "--master", "--conf", "--remote", "--param", "--root", "--limit"):
        assert option in text(result.stdout)


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
    name = f"t_{fmt.replace('-', '_')}"
    cli_run.register_tables(spark, [(name, str(path), None)])
    read = spark.table(name)
    assert read.columns == ["k", "s", "x"]
    if fmt == "csv":  # header + inferSchema
        assert [f.dataType.simpleString() for f in read.schema] == ["int", "string", "double"]
    assert sorted(tuple(r) for r in read.collect()) == [(1, "a", 2.5), (2, "b", 3.5)]


def test_unknown_table_format(spark, tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("x")
    with pytest.raises(cli_output.UsageError, match="cannot tell the format"):
        cli_run.register_tables(spark, [("t", str(path), None)])
    cli_run.register_tables(spark, [("t_text", str(path), "text")])
    assert [tuple(r) for r in spark.table("t_text").collect()] == [("x",)]
