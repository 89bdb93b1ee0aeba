"""Shared by the test modules: producers, row comparison, subprocesses."""

import importlib.util
import math
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
EXTENSION_CLASS = "io.sparksubstrait.SubstraitExtensions"

# Names and order of the columns of TPC-H Q1's result.
Q1_COLUMNS = ["l_returnflag", "l_linestatus", "sum_qty", "sum_base_price", "sum_disc_price",
              "sum_charge", "avg_qty", "avg_price", "avg_disc", "count_order"]
Q1_AVG_COLUMNS = {"avg_qty", "avg_price", "avg_disc"}


def duckdb_substrait_extension() -> str:
    spec = importlib.util.find_spec("duckdb_extension_substrait")
    assert spec is not None and spec.origin, "duckdb-extension-substrait is not installed"
    path = os.path.join(os.path.dirname(spec.origin), "extensions", "v1.1.3",
                        "substrait.duckdb_extension")
    assert os.path.isfile(path), path
    return path


def assert_rows_equal(actual: Sequence[Sequence], expected: Sequence[Sequence],
                      columns: Sequence[str], float_rel: float = 1e-9,
                      tolerance: dict[str, float] | None = None) -> None:
    """Row by row, in order. Decimals must be equal exactly (scale aside); a float expected
    value is matched within ``float_rel`` (relative); ``tolerance`` gives an absolute
    tolerance for named columns instead."""
    tolerance = tolerance or {}
    assert len(actual) == len(expected), f"{len(actual)} rows, expected {len(expected)}"
    for i, (a_row, e_row) in enumerate(zip(actual, expected, strict=True)):
        assert len(a_row) == len(e_row) == len(columns), (a_row, e_row)
        for name, a, e in zip(columns, a_row, e_row, strict=True):
            where = f"row {i} column {name}: got {a!r}, expected {e!r}"
            if name in tolerance:
                assert abs(Decimal(str(a)) - Decimal(str(e))) <= Decimal(str(tolerance[name])), where
            elif isinstance(e, float):
                assert isinstance(a, (float, Decimal)), where
                assert math.isclose(float(a), e, rel_tol=float_rel, abs_tol=0.0), where
            elif isinstance(e, Decimal):
                assert isinstance(a, Decimal), where
                assert a == e, where
            else:
                assert a == e, where


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a fresh Python + Spark driver, free of this run's settings."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("SPARK_HOME", "SPARK_CONF_DIR", "PYTHONPATH", "PYSPARK_SUBMIT_ARGS",
                        "SPARK_SUBSTRAIT_JAR", "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    env.update(extra)
    return env


def package_env(**extra: str) -> dict[str, str]:
    """:func:`clean_env`, but a fresh interpreter imports the spark_substrait this run imported
    and uses the jar this run uses (``python -m spark_substrait`` then runs the code under test,
    whichever checkout or jar the console script on PATH would pick)."""
    import spark_substrait

    package_root = str(Path(spark_substrait.__file__).resolve().parent.parent)
    return clean_env(PYTHONPATH=package_root, SPARK_SUBSTRAIT_JAR=spark_substrait.jar_path(), **extra)


def remote_session(url: str):
    """A Spark Connect session, made the way users make one (``builder.remote(url).create()``),
    leaving the process's classic sessions as they were: builder.remote() marks the whole
    process as a Connect client, and that mark is undone."""
    from pyspark.sql import SparkSession

    before = os.environ.get("SPARK_CONNECT_MODE_ENABLED")
    # create(), not getOrCreate(): another module's classic session may be running in this
    # process, and getOrCreate() refuses a remote session next to it.
    session = SparkSession.builder.remote(url).create()
    if before is None:
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
    assert type(session).__module__ == "pyspark.sql.connect.session"
    return session


def run_python(args: list[str], python: str = sys.executable, cwd: Path | None = None,
               env: dict[str, str] | None = None, timeout: float = 300
               ) -> subprocess.CompletedProcess:
    return subprocess.run([python, *args], cwd=str(cwd) if cwd else None,
                          env=env if env is not None else clean_env(),
                          capture_output=True, text=True, timeout=timeout)


def write_spark_defaults(conf_dir: Path, settings: dict[str, str]) -> Path:
    conf_dir.mkdir(parents=True, exist_ok=True)
    (conf_dir / "spark-defaults.conf").write_text(
        "".join(f"{k} {v}\n" for k, v in settings.items()), encoding="utf-8")
    return conf_dir


# A script run in a fresh interpreter: reads a plan file over a lineitem parquet file and
# prints the rows. argv: mode (configure | plain), plan path, lineitem parquet path.
READ_PLAN_SCRIPT = r"""
import sys
import spark_substrait
from pyspark.sql import SparkSession

mode, plan_path, lineitem = sys.argv[1:4]
builder = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
           .config("spark.sql.shuffle.partitions", "1"))
if mode == "configure":
    builder = spark_substrait.configure(builder)
spark = builder.getOrCreate()
spark.sparkContext.setLogLevel("ERROR")
print("module", spark_substrait.__file__)
jvm = spark._jvm
print("extension_enabled", jvm.io.sparksubstrait.SubstraitPlans.extensionEnabled(spark._jsparkSession))
print("jars", spark.conf.get("spark.jars", ""))
spark.read.parquet(lineitem).createOrReplaceTempView("lineitem")
with open(plan_path, "rb") as f:
    rows = spark.read.substrait(f.read()).collect()
for row in rows:
    print("row", repr(tuple(row)))
spark.stop()
"""


# A plan of two dynamic parameters (i64 anchor 1, date anchor 2) bound to 7 and 2024-01-31,
# over two rows x = 1, 2.
PARAMETER_PLAN = """{"relations": [{"root": {"names": ["x", "p", "d"], "input": {"project": {
  "common": {"emit": {"outputMapping": [0, 1, 2]}},
  "input": {"read": {"baseSchema": {"names": ["x"], "struct": {"nullability": "NULLABILITY_REQUIRED",
      "types": [{"i32": {"nullability": "NULLABILITY_REQUIRED"}}]}},
    "virtualTable": {"expressions": [{"fields": [{"literal": {"i32": 1}}]}, {"fields": [{"literal": {"i32": 2}}]}]}}},
  "expressions": [
    {"dynamicParameter": {"type": {"i64": {"nullability": "NULLABILITY_NULLABLE"}}, "parameterReference": 1}},
    {"dynamicParameter": {"type": {"date": {"nullability": "NULLABILITY_NULLABLE"}}, "parameterReference": 2}}]}}}}],
  "parameterBindings": [{"parameterAnchor": 1, "value": {"i64": "7"}}, {"parameterAnchor": 2, "value": {"date": 19753}}]}"""


def free_port() -> int:
    """A TCP port free on loopback now (for a server started next)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def accepts(port: int) -> bool:
    """Whether something listens on the loopback port."""
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def stop_process_group(server: subprocess.Popen) -> None:
    """SIGTERM to the server's process group (spark-submit and its JVM), SIGKILL if it lingers."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)


def start_connect_server(log: Path, settings: dict[str, str] | None = None, timeout: float = 180
                         ) -> tuple[subprocess.Popen, str]:
    """A Spark Connect server on loopback with spark-substrait's plugin, started as users start
    one (pyspark's spark-submit with SparkConnectServer and ``connect_server_conf()``), in its
    own process group (stop it with :func:`stop_process_group`), its output in ``log``, its
    Python UDFs run by this interpreter. ``settings`` adds to or overrides the defaults.
    Returns the process and the ``sc://`` URL once the server accepts connections; raises
    RuntimeError with the log's tail if it does not start within ``timeout`` seconds."""
    import pyspark

    import spark_substrait

    spark_home = Path(pyspark.__file__).parent
    port = free_port()
    conf = {
        "spark.master": "local[2]",
        "spark.driver.memory": "1g",
        "spark.driver.host": "127.0.0.1",
        "spark.connect.grpc.binding.address": "127.0.0.1",
        "spark.connect.grpc.binding.port": str(port),
        "spark.sql.shuffle.partitions": "2",
        "spark.ui.enabled": "false",
        **spark_substrait.connect_server_conf(),
        **(settings or {}),
    }
    args = [str(spark_home / "bin" / "spark-submit"),
            "--class", "org.apache.spark.sql.connect.service.SparkConnectServer"]
    for key, value in conf.items():
        args += ["--conf", f"{key}={value}"]
    args.append("spark-internal")
    with open(log, "wb") as out:
        server = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                                  env=clean_env(SPARK_HOME=str(spark_home), PYSPARK_PYTHON=sys.executable))
    deadline = time.monotonic() + timeout
    while not accepts(port):
        if server.poll() is not None or time.monotonic() > deadline:
            stop_process_group(server)
            raise RuntimeError("the Spark Connect server did not start:\n"
                               + log.read_text(errors="replace")[-4000:])
        time.sleep(0.5)
    return server, f"sc://127.0.0.1:{port}"
