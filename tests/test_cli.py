"""``spark-substrait`` on the command line: plans from files and stdin, spark-submit's options,
every output format, quiet stderr, and the exit statuses 0 / 1 / 2 / 3.

Each run starts a Spark driver, so checks share runs where they can.
"""

import csv
import io
import json
import os
import re
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest

from helpers import EXAMPLES, PARAMETER_PLAN, assert_rows_equal, clean_env
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


# --- A user's first hour (issue 37): checks before Spark, the status line, --allow-path, --version.

class _NoSpark(Exception):
    pass


@pytest.fixture
def no_spark(monkeypatch):
    """open_session counting its calls and starting nothing (the command then fails with
    exit 1): what is checked must be checked before it."""
    calls = []

    def refuse(*args, **kwargs):
        calls.append(args)
        raise _NoSpark("the command started Spark")

    monkeypatch.setattr(cli_session, "open_session", refuse)
    return calls


def reaches_the_session(calls, argv) -> bool:
    before = len(calls)
    status = cli.main(argv)
    return len(calls) == before + 1 and status == 1


@pytest.mark.parametrize("command", ["run", "explain"])
def test_bad_arguments_are_refused_before_spark_starts(no_spark, tmp_path, capsys, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    good = tmp_path / "good.json"
    good.write_text(PARAMETER_PLAN)
    broken = tmp_path / "broken.json"
    broken.write_text('{"relations": [')
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x01\x02 not a plan \xff")
    cut = tmp_path / "cut.bin"
    cut.write_bytes(b"\x1a\x10\x0a\x04abc")  # field 3 (relations) of 16 bytes, 5 there
    cases = [
        ([str(tmp_path / "none.bin")], 2, f"no plan file at {tmp_path / 'none.bin'}"),
        ([str(broken)], 2, f"[SUBSTRAIT_MALFORMED_PLAN] At plan: cannot decode the Substrait plan (JSON): {broken} "
                           "is not JSON: Expecting value at line 1, column 16."),
        ([str(junk)], 2, f"[SUBSTRAIT_MALFORMED_PLAN] At plan: cannot decode the Substrait plan (binary): {junk} "
                         "is not a protobuf message: byte 0 starts a field numbered 0."),
        ([str(cut)], 2, "field 3 at byte 0 runs past the end of the input (7 bytes)"),
        ([str(good), "--table", f"t={tmp_path / 'missing.parquet'}"], 2,
         f"--table t={tmp_path / 'missing.parquet'}: no such file or folder"),
        ([str(good), "--table", f"t={junk}"], 2, f"--table t={junk}: cannot tell the format"),
        ([str(good), "--null-param", "1", "--param", "1=2"], 2, "given both a value and --null-param"),
    ]
    for args, status, message in filter(None, cases):
        assert cli.main([command, *args]) == status, args
        err = capsys.readouterr().err
        assert message in err, (args, err)
        assert "Traceback" not in err and "started Spark" not in err
    assert no_spark == []
    # A plan that decodes gets as far as the session.
    assert reaches_the_session(no_spark, [command, str(good)])


def test_explain_and_write_refuse_what_connect_cannot_do_before_connecting(no_spark, tmp_path, capsys):
    plan = tmp_path / "p.json"
    plan.write_text(PARAMETER_PLAN)
    assert cli.main(["explain", str(plan), "--remote", "sc://127.0.0.1:1"]) == 2
    assert "explain runs in a classic Spark driver" in capsys.readouterr().err
    assert cli.main(["write", "SELECT 1", "--remote", "sc://127.0.0.1:1", "--explain"]) == 2
    assert "--explain shows the written plan with the plan explorer" in capsys.readouterr().err
    assert no_spark == []
    # Without --explain, write goes on to the (remote) session: tests/test_connect.py runs it.
    assert reaches_the_session(no_spark, ["write", "SELECT 1", "--remote", "sc://127.0.0.1:1"])


def test_write_names_the_targets_when_the_default_would_run_on_neither_engine(no_spark, capsys):
    for args, noted in ((["write", "SELECT 1"], True), (["write", "SELECT 1", "--target", "duckdb-1.1"], False),
                        (["write", "SELECT 1", "--quiet"], False)):
        assert reaches_the_session(no_spark, args)
        err = capsys.readouterr().err
        assert ("--target duckdb-1.1" in err and "--analyzed --target datafusion-55" in err) == noted, (args, err)


def test_allow_path_and_conf_make_one_setting():
    parser = cli.build_parser()
    args = parser.parse_args(["run", "p", "--allow-path", "/data/a", "--allow-path", "s3a://b/x",
                              "--conf", "spark.substrait.localFiles.allowedPrefixes=/given", "--conf", "k=v"])
    assert cli_session.settings(args) == [("k", "v"), ("spark.substrait.localFiles.allowedPrefixes",
                                                       "/given,/data/a,s3a://b/x")]
    relative = parser.parse_args(["explain", "p", "--allow-path", "data"])
    assert cli_session.settings(relative) == [("spark.substrait.localFiles.allowedPrefixes", os.path.abspath("data"))]
    assert cli_session.settings(parser.parse_args(["run", "p"])) == []


@pytest.fixture(scope="module")
def duckdb_read_parquet_plan(tmp_path_factory):
    """A plan DuckDB 1.1.3 writes for a query over read_parquet: a LocalFiles read of the file."""
    import duckdb

    from helpers import duckdb_substrait_extension

    folder = tmp_path_factory.mktemp("exports")
    data = folder / "t.parquet"
    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute(f"COPY (SELECT range AS x FROM range(10)) TO '{data}' (FORMAT PARQUET)")
    plan = con.execute("CALL get_substrait(?)", [f"SELECT sum(x) AS s FROM read_parquet('{data}')"]).fetchone()[0]
    path = folder / "plan.bin"
    path.write_bytes(plan)
    return folder, path


def test_allow_path_lets_a_duckdb_read_parquet_plan_run(duckdb_read_parquet_plan, tmp_path):
    folder, plan = duckdb_read_parquet_plan
    refused = spark_substrait(["run", plan, "--format", "csv"], cwd=tmp_path)
    assert refused.returncode == 3, text(refused.stderr)[-3000:]
    err = text(refused.stderr)
    assert "[SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED]" in err
    # The second line says which option lets it read the file.
    assert err.splitlines()[-1] == (f"spark-substrait: the plan reads files itself: let it read them with "
                                    f"--allow-path {folder} (repeatable; docs/security.md)"), err
    allowed = spark_substrait(["run", plan, "--format", "csv", "--allow-path", folder], cwd=tmp_path)
    assert allowed.returncode == 0, text(allowed.stderr)[-3000:]
    assert text(allowed.stdout).splitlines() == ["s", "45"]


def test_a_table_the_plan_names_but_the_command_line_lacks(tmp_path):
    result = spark_substrait(["run", EXAMPLES / "q06.json"], cwd=tmp_path)
    assert result.returncode == 2, text(result.stderr)[-3000:]
    err = text(result.stderr)
    assert "[SUBSTRAIT_TABLE_NOT_FOUND]" in err and "Traceback" not in err
    assert err.splitlines()[-1] == "spark-substrait: the plan reads the table lineitem: add --table lineitem=PATH[:FORMAT]"


def test_version_without_a_jvm(tmp_path):
    from importlib import metadata

    import spark_substrait as package

    started = time.monotonic()
    result = spark_substrait(["--version"], cwd=tmp_path)
    assert result.returncode == 0, text(result.stderr)
    lines = text(result.stdout).splitlines()
    assert lines[0] == f"spark-substrait {package.__version__}"
    minor = ".".join(metadata.version("pyspark").split(".")[:2])
    assert lines[1].startswith("jars for: ") and f"Spark {minor} (Scala 2.1" in lines[1], lines
    assert lines[2] == f"PySpark: {metadata.version('pyspark')}"
    # Far below a driver's start: no JVM.
    assert time.monotonic() - started < 15


def run_with_stderr_on_a_terminal(args, stdin: bytes, cwd):
    """The command with stderr on a pseudo-terminal, stdout a pipe: (status, stderr, stdout,
    seconds to the first stderr byte, seconds to the first stdout byte)."""
    import pty
    import select

    master, slave = pty.openpty()
    started = time.monotonic()
    process = subprocess.Popen([SCRIPT, *map(str, args)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=slave, cwd=cwd, env=clean_env())
    os.close(slave)
    process.stdin.write(stdin)
    process.stdin.close()
    err, out, first_err, first_out = b"", b"", None, None
    open_fds = [master, process.stdout.fileno()]
    while open_fds:
        ready, _, _ = select.select(open_fds, [], [], 300)
        assert ready, "no output for 300 s"
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal's other end closed
                chunk = b""
            if not chunk:
                open_fds.remove(fd)
            elif fd == master:
                err, first_err = err + chunk, first_err or time.monotonic() - started
            else:
                out, first_out = out + chunk, first_out or time.monotonic() - started
    os.close(master)
    return process.wait(timeout=60), text(err), text(out), first_err, first_out


def test_a_status_line_while_spark_starts_on_a_terminal_only(tmp_path):
    status, err, out, first_err, first_out = run_with_stderr_on_a_terminal(
        ["run", "-", "--format", "csv"], PARAMETER_PLAN.encode(), tmp_path)
    assert status == 0, err
    lines = err.replace("\r\n", "\n").splitlines()
    assert re.fullmatch(r"spark-substrait: starting Spark \(local\[2\]\)… done \(\d+\.\d s\)", lines[0]), err
    assert re.fullmatch(r"spark-substrait: converting the plan… done \(\d+\.\d s\)", lines[1]), err
    assert out.splitlines() == ["x,p,d", "1,7,2024-01-31", "2,7,2024-01-31"]
    # The first line comes before the driver has started (docs/cli.md states the times).
    assert first_err < first_out
    print(f"first stderr line after {first_err:.2f} s, first row after {first_out:.2f} s")
    # --quiet: nothing on the terminal but errors.
    status, err, out, _, _ = run_with_stderr_on_a_terminal(
        ["run", "-", "--format", "csv", "--quiet"], PARAMETER_PLAN.encode(), tmp_path)
    assert status == 0 and err == "" and out.splitlines()[0] == "x,p,d", err


CONNECT_CLIENT_MISSING = r"""
import importlib.abc, sys

class Missing(importlib.abc.MetaPathFinder):
    # As if pip had installed spark-substrait without its connect extra: no pandas.
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] == "pandas":
            raise ImportError(f"No module named {name!r}")
        return None

sys.meta_path.insert(0, Missing())
from spark_substrait import cli
sys.exit(cli.main(["run", sys.argv[1], "--remote", "sc://127.0.0.1:9"]))
"""


def test_remote_without_the_connect_client_names_the_extra(tmp_path):
    plan = tmp_path / "p.json"
    plan.write_text(PARAMETER_PLAN)
    # A script file, not -c: PySpark takes a __main__ without a file for its doctests and exits 0.
    script = tmp_path / "without_connect.py"
    script.write_text(CONNECT_CLIENT_MISSING)
    result = subprocess.run([sys.executable, str(script), str(plan)], capture_output=True,
                            env=clean_env(), cwd=tmp_path, timeout=120)
    err = text(result.stderr)
    assert result.returncode == 1, err
    assert err.startswith("spark-substrait: --remote needs the Spark Connect client's packages: "
                          "pip install 'spark-substrait[connect]' (PySpark said: "), err
    assert "Traceback" not in err
