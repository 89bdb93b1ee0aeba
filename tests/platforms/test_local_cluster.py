"""A real (if small) cluster: ``local-cluster[2,1,1024]`` starts a master and two workers,
each with its own executor JVM, from the scripts that ship with pyspark. The jar reaches
the driver and the executors only through ``spark.jars``, as a cluster library does, and
the extension is enabled only in ``spark-defaults.conf`` (SPARK_CONF_DIR): the script itself
sets neither. The plans' rows must equal the in-process session's (and DuckDB's for Q6)."""

import os
import textwrap
from decimal import Decimal

import pyspark

import spark_substrait
from helpers import EXTENSION_CLASS, Q1_COLUMNS, assert_rows_equal, clean_env, run_python, write_spark_defaults

CLUSTER_SCRIPT = textwrap.dedent(r"""
    import sys
    from pyspark.sql import SparkSession

    lineitem, *plans = sys.argv[1:]
    spark = (SparkSession.builder.master("local-cluster[2,1,1024]")
             .config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.executor.memory", "512m")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    # The two executors must be up before the plans run, so their tasks run there.
    import time
    deadline = time.time() + 120
    while spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() < 3 and time.time() < deadline:
        time.sleep(0.5)
    print("executors", spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1)
    import spark_substrait  # the reader only; the jar came from spark-defaults.conf
    print("extension_enabled",
          spark._jvm.io.sparksubstrait.SubstraitPlans.extensionEnabled(spark._jsparkSession))
    spark.read.parquet(lineitem).repartition(4).createOrReplaceTempView("lineitem")
    hosts = spark.sparkContext.parallelize(range(8), 8).map(lambda _: __import__("os").getpid()).distinct().count()
    print("executor_pids", hosts)
    for path in plans:
        with open(path, "rb") as f:
            rows = spark.read.substrait(f.read()).collect()
        print("plan", path.rsplit("/", 1)[-1])
        for row in rows:
            print("row", repr(tuple(row)))
    spark.stop()
""")


def rows_by_plan(stdout):
    out, current = {}, None
    for line in stdout.splitlines():
        if line.startswith("plan "):
            current = line[len("plan "):]
            out[current] = []
        elif line.startswith("row ") and current:
            out[current].append(line[len("row "):])
    return out


def test_plans_on_a_local_cluster_with_the_jar_from_spark_jars(spark, tpch, lineitem_view, tmp_path):
    jar = spark_substrait.jar_path()
    # SPARK_HOME: pyspark's own folder, whose bin/ and jars/ the workers launch executors from.
    conf_dir = write_spark_defaults(tmp_path / "conf", {
        "spark.jars": jar,
        "spark.sql.extensions": EXTENSION_CLASS,
    })
    env = clean_env(SPARK_HOME=os.path.dirname(pyspark.__file__), SPARK_CONF_DIR=str(conf_dir))
    plans = [str(tpch.plan_file("q01.bin")), str(tpch.plan_file("q06.bin")), str(tpch.plan_file("df_q06.bin"))]
    result = run_python(["-c", CLUSTER_SCRIPT, str(tpch.lineitem), *plans], cwd=tmp_path, env=env,
                        timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert "executors 2" in result.stdout, result.stdout
    assert "extension_enabled True" in result.stdout, result.stdout
    assert "executor_pids 2" in result.stdout, result.stdout
    got = {name: [eval(r, {"Decimal": Decimal}) for r in rows]  # noqa: S307 - our own repr() output
           for name, rows in rows_by_plan(result.stdout).items()}
    # The same plans in this process's local session give the same rows, in the same order;
    # floating-point averages may differ in the last digits (another summation order).
    for name in ("q01.bin", "q06.bin", "df_q06.bin"):
        local = [tuple(r) for r in spark.read.substrait((tpch.folder / name).read_bytes()).collect()]
        columns = Q1_COLUMNS if name == "q01.bin" else ["revenue"]
        assert_rows_equal(got[name], local, columns, float_rel=1e-12)
    assert len(got["q01.bin"]) == len(tpch.duckdb_rows[1]) == 4
    assert got["q06.bin"] == [tuple(tpch.duckdb_rows[6][0])]


def test_the_standalone_recipe_names_what_pips_pyspark_ships():
    """docs/quickstart.md's standalone recipe: pip's pyspark has spark-class (on the PATH of its
    environment, and in the SPARK_HOME the recipe prints) but no sbin/start-master.sh."""
    import shutil
    import sys
    from pathlib import Path

    from helpers import REPO

    recipe = (REPO / "docs" / "quickstart.md").read_text(encoding="utf-8")
    for words in ("spark-class org.apache.spark.deploy.master.Master", "spark-class org.apache.spark.deploy.worker.Worker",
                  "os.path.dirname(pyspark.__file__)"):
        assert words in recipe, words
    spark_home = Path(pyspark.__file__).parent
    assert (spark_home / "bin" / "spark-class").is_file()
    assert not (spark_home / "sbin" / "start-master.sh").exists()
    on_path = shutil.which("spark-class", path=os.path.dirname(sys.executable))
    assert on_path is not None, "pip put no spark-class beside python"
