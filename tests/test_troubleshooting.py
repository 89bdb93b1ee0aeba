"""docs/troubleshooting.md quotes the messages a user sees: each quote marked
``<!-- message: KEY -->`` is produced here the way a user meets it and compared line by line
(``…`` in a quote stands for any text; ``$ `` lines are the command). Every condition the page
names is a documented one (docs/errors.md) and, but for the Python-only
``SUBSTRAIT_NOT_INSTALLED``, one of the JVM's (error-conditions.json).

The plan errors go through the command line's own formatting (``cli._describe``) on the shared
session, so only one test starts a process: the one without Java, which fails at once.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from helpers import EXAMPLES, PARAMETER_PLAN, REPO, clean_env, duckdb_substrait_extension
from spark_substrait import cli
from spark_substrait.cli import session as cli_session

DOC = REPO / "docs" / "troubleshooting.md"
CONDITIONS = REPO / "jvm" / "src" / "main" / "resources" / "io" / "sparksubstrait" / "error-conditions.json"
_QUOTE = re.compile(r"<!-- message: ([\w-]+) -->\s*\n\s*```text\n(.*?)\n\s*```", re.S)


def quotes():
    """KEY -> the quoted lines, without the command lines."""
    found = {}
    for m in _QUOTE.finditer(DOC.read_text(encoding="utf-8")):
        lines = [line.strip() for line in m.group(2).splitlines()]
        found[m.group(1)] = [line for line in lines if not line.startswith("$ ")]
    return found


def assert_quoted(key: str, actual: str) -> None:
    quoted = quotes()[key]
    lines = actual.strip().splitlines()
    assert len(lines) == len(quoted), f"{key}: the message has {len(lines)} lines, the quote {len(quoted)}:\n{actual}"
    for q, line in zip(quoted, lines, strict=True):
        pattern = ".*?".join(re.escape(part) for part in q.split("…"))
        assert re.fullmatch(pattern, line), f"{key}: docs/troubleshooting.md quotes\n  {q}\nthe code says\n  {line}"


def described(error) -> str:
    """What the command line prints for a plan error."""
    message, _status = cli._describe(error)
    return message


def test_every_quote_is_checked_and_every_check_has_its_quote():
    assert set(quotes()) == set(CHECKED), "a quote without a check, or a check without its quote"
    text = DOC.read_text(encoding="utf-8")
    # A message of ours in a code block without a marker would go unchecked.
    for block in re.findall(r"```text\n(.*?)```", text, re.S):
        if "[SUBSTRAIT_" in block or "spark-substrait:" in block:
            assert any(block.strip() in m.group(0) for m in _QUOTE.finditer(text)), block


def test_every_condition_named_is_documented():
    text = DOC.read_text(encoding="utf-8")
    errors = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    jvm = set(json.loads(CONDITIONS.read_text(encoding="utf-8")))
    named = set(re.findall(r"SUBSTRAIT_[A-Z_]+[A-Z]", text))
    assert len(named) >= 6, named
    for condition in named:
        assert f"`{condition}`" in errors, f"{condition} is not in docs/errors.md"
        assert condition in jvm or condition == "SUBSTRAIT_NOT_INSTALLED", f"{condition} is no JVM condition"


@pytest.fixture(scope="module")
def read_parquet_plan(tmp_path_factory):
    """What DuckDB 1.1.3 writes for a query over read_parquet, in a folder of its own."""
    import duckdb

    folder = tmp_path_factory.mktemp("data")
    data = folder / "t.parquet"
    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute(f"COPY (SELECT range AS x FROM range(3)) TO '{data}' (FORMAT PARQUET)")
    plan = con.execute("CALL get_substrait(?)", [f"SELECT sum(x) AS s FROM read_parquet('{data}')"]).fetchone()[0]
    con.close()
    return folder, plan


def check_local_files(spark, read_parquet_plan, **_):
    folder, plan = read_parquet_plan
    with pytest.raises(Exception) as e:
        spark.newSession().read.substrait(plan)  # a session of its own: no allowed prefixes set
    assert_quoted("local-files", described(e.value).replace(str(folder), "/data"))


def check_table_not_found(spark, **_):
    fresh = spark.newSession()  # no temp views: lineitem is unknown
    with pytest.raises(Exception) as e:
        fresh.read.substrait(str(EXAMPLES / "q06.json"))
    assert_quoted("table-not-found", described(e.value))


def check_connect_extra(tmp_path, monkeypatch, capsys, **_):
    from pyspark.sql import SparkSession

    def without_pandas(self, url):  # as PySpark's Connect client says when pandas is missing
        raise ImportError("[PACKAGE_NOT_INSTALLED] Pandas >= 2.2.0 must be installed; however, it was not found.")

    monkeypatch.setattr(SparkSession.Builder, "remote", without_pandas)
    plan = tmp_path / "plan.json"
    plan.write_text(PARAMETER_PLAN)
    assert cli.main(["run", str(plan), "--remote", "sc://localhost:15002"]) == 1
    assert_quoted("connect-extra", capsys.readouterr().err)


def check_no_java(tmp_path, tpch, **_):
    # A PATH of every program but java, and no JAVA_HOME: PySpark's launcher finds no Java.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep) + ["/usr/bin", "/bin"]:
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            target, link = Path(folder) / name, bin_dir / name
            if name not in ("java", "javac") and not link.exists() and os.access(target, os.X_OK):
                link.symlink_to(target)
    env = clean_env(PATH=str(bin_dir))
    env.pop("JAVA_HOME", None)
    result = subprocess.run([sys.executable, "-m", "spark_substrait", "run", str(EXAMPLES / "q06.json"),
                             "--table", f"lineitem={tpch.lineitem}"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 1, result.stderr
    assert_quoted("no-java", result.stderr)


def check_no_jar(**_):
    from py4j.java_gateway import JavaPackage

    from spark_substrait._plans import entry_point

    # A driver JVM without the jar: Py4J finds a package, not a class, under the name.
    session = SimpleNamespace(_jvm=SimpleNamespace(**{"io.sparksubstrait.SubstraitPlans": JavaPackage("x", None)}))
    with pytest.raises(Exception) as e:
        entry_point(session)
    assert_quoted("no-jar", f"{type(e.value).__module__}.{type(e.value).__qualname__}: {e.value}")


def check_connect_no_plugin(**_):
    from spark_substrait._errors import from_connect

    class ServerError(Exception):  # what a server without the plugin sends (pyspark's error)
        _message = ("[CONNECT_INVALID_PLAN.NO_HANDLER_FOR_EXTENSION] The Spark Connect plan is invalid. "
                    "No handler found for extension type: type.googleapis.com/spark_substrait.connect.SubstraitRelation")

        def getCondition(self):
            return "CONNECT_INVALID_PLAN.NO_HANDLER_FOR_EXTENSION"

        def getMessageParameters(self):
            return {}

    error = from_connect(ServerError())
    assert_quoted("connect-no-plugin", f"{type(error).__module__}.{type(error).__qualname__}: {error}")


def check_unknown_function(spark, lineitem_view, tpch, **_):
    # Registered again: the session-wide view may have been dropped by an earlier check
    # (table-not-found runs first), and the plan's table is looked up before its functions.
    spark.read.parquet(str(tpch.lineitem)).createOrReplaceTempView(lineitem_view)
    plan = json.loads(tpch.duckdb_json[6])
    for ext in plan["extensions"]:
        if ext["extensionFunction"]["name"].startswith("multiply"):
            ext["extensionFunction"]["name"] = "no_such_function" + ext["extensionFunction"]["name"][8:]
    with pytest.raises(Exception) as e:
        spark.read.substrait(json.dumps(plan))
    assert_quoted("unknown-function", described(e.value))


def check_malformed(tmp_path, monkeypatch, capsys, **_):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli_session, "open_session", lambda *a, **k: pytest.fail("started Spark"))
    Path("broken.json").write_text('{"relations": [')
    assert cli.main(["run", "broken.json"]) == 2
    assert_quoted("malformed", capsys.readouterr().err)


def check_missing_table_path(tmp_path, monkeypatch, capsys, **_):
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(cli_session, "open_session", lambda *a, **k: pytest.fail("started Spark"))
    assert cli.main(["run", "examples/q06.json", "--table", "lineitem=no/such/folder"]) == 2
    assert_quoted("missing-table-path", capsys.readouterr().err)


CHECKED = {
    "local-files": check_local_files,
    "table-not-found": check_table_not_found,
    "connect-extra": check_connect_extra,
    "no-java": check_no_java,
    "no-jar": check_no_jar,
    "connect-no-plugin": check_connect_no_plugin,
    "unknown-function": check_unknown_function,
    "malformed": check_malformed,
    "missing-table-path": check_missing_table_path,
}
NEEDS_SPARK = {"local-files", "table-not-found", "unknown-function"}


@pytest.mark.parametrize("key", sorted(CHECKED))
def test_the_quoted_message_is_what_the_code_says(key, request, tmp_path, monkeypatch, capsys):
    fixtures = {"tmp_path": tmp_path, "monkeypatch": monkeypatch, "capsys": capsys}
    if key in NEEDS_SPARK:
        fixtures["spark"] = request.getfixturevalue("spark")
    if key in ("unknown-function", "no-java"):
        fixtures["tpch"] = request.getfixturevalue("tpch")
    if key == "unknown-function":
        fixtures["lineitem_view"] = request.getfixturevalue("lineitem_view")
    if key == "local-files":
        fixtures["read_parquet_plan"] = request.getfixturevalue("read_parquet_plan")
    CHECKED[key](**fixtures)
