"""The bundled example: examples/q06.json over the data examples/generate_data.py writes."""

import importlib.util
import json

import duckdb

from helpers import EXAMPLES, assert_rows_equal, run_python

SPARK_TYPE_OF = {"i64": "bigint", "string": "string", "date": "date"}


def load_generator():
    spec = importlib.util.spec_from_file_location("generate_data", EXAMPLES / "generate_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def base_schema():
    plan = json.loads((EXAMPLES / "q06.json").read_text())
    assert plan["version"]["producer"] == "DuckDB"
    read = plan["relations"][0]["root"]["input"]["project"]["input"]["aggregate"]["input"]["read"]
    assert read["namedTable"]["names"] == ["lineitem"]
    schema = read["baseSchema"]
    types = []
    for t in schema["struct"]["types"]:
        (kind, spec), = t.items()
        types.append(f"decimal({spec['precision']},{spec['scale']})" if kind == "decimal"
                     else SPARK_TYPE_OF[kind])
    return schema["names"], types


def test_generated_rows_are_deterministic():
    generator = load_generator()
    assert list(generator.rows(300, 6)) == list(generator.rows(300, 6))
    assert list(generator.rows(300, 6)) != list(generator.rows(300, 7))


def test_example_plan_over_generated_data(spark, tpch, lineitem_view, tmp_path):
    out = tmp_path / "lineitem"
    result = run_python([str(EXAMPLES / "generate_data.py"), "--rows", "3000", "--output", str(out)])
    assert result.returncode == 0, result.stderr[-3000:]

    data = spark.read.parquet(str(out))
    names, types = base_schema()
    assert data.columns == names
    assert [f.dataType.simpleString() for f in data.schema] == types
    assert data.count() == 3000

    con = duckdb.connect()
    con.execute(f"CREATE VIEW lineitem AS SELECT * FROM read_parquet('{out}/*.parquet')")
    expected = [tuple(r) for r in con.execute(tpch.sql[6]).fetchall()]
    assert expected[0][0] is not None and expected[0][0] > 0

    data.createOrReplaceTempView("lineitem")
    try:
        rows = [tuple(r) for r in spark.read.substrait(EXAMPLES / "q06.json").collect()]
    finally:  # the other tests use the TPC-H lineitem
        spark.read.parquet(str(tpch.lineitem)).createOrReplaceTempView(lineitem_view)
    assert_rows_equal(rows, expected, ["revenue"])


def test_run_example_keeps_the_build_quiet_unless_a_step_fails(tmp_path):
    """dev/run-example (without --verbose) sends each step's output to a log (dev/common.sh's
    run_logged): nothing of a step that succeeds reaches the terminal; a failing step shows
    its last lines and fails the command."""
    import subprocess

    from helpers import REPO

    script = f"""
        set -euo pipefail
        source {REPO / 'dev' / 'common.sh'}
        export QUIET_LOG_DIR={tmp_path / 'logs'}
        run_logged noisy bash -c 'echo "[warn] sbt says"; echo "WARN NativeCodeLoader: Spark says" >&2'
        echo after-noisy
        run_logged failing bash -c 'echo "the reason"; exit 3'
        echo not-reached
    """
    result = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert result.stdout == "after-noisy\n"
    assert "sbt says" not in result.stderr and "Spark says" not in result.stderr
    assert "failed: bash -c" in result.stderr and "the reason" in result.stderr
    assert "Spark says" in (tmp_path / "logs" / "noisy.log").read_text()
    run_example = (REPO / "dev" / "run-example").read_text()
    assert 'QUIET_LOG_DIR="$ROOT/build/run-example-logs"' in run_example and "--verbose" in run_example
