"""YARN, as EMR runs Spark (issue 60, part 1): ``spark-submit --master yarn`` in client and in
cluster deploy mode, onto a YARN cluster with HDFS that the test starts.

**The cluster.** Hadoop 3.5.0's own mini clusters, the ones Hadoop's and Spark's YARN test
suites start: MiniDFSCluster (a NameNode and a DataNode) and MiniYARNCluster (a
ResourceManager and two NodeManagers), in one JVM (dev/cluster/MiniClusterMain.java) run from
``hadoop-client-minicluster`` and what it needs, fetched from Maven Central by
dev/cluster/pom.xml into build/cache/hadoop-minicluster. Hadoop 3.5.0 is the version PySpark
4.3.0 bundles. The launcher writes core-site.xml / hdfs-site.xml / yarn-site.xml into a
HADOOP_CONF_DIR, as an EMR node has them in /etc/hadoop/conf. Every daemon and every
container runs on this machine, on loopback.

**The job** (yarn_job.py, the same script in both modes) reads TPC-H's lineitem as parquet from
HDFS and the plans from HDFS — DuckDB 1.1.3's and DataFusion 55's TPC-H q01 and q06, written
by the ``tpch`` fixture (tests/conftest.py) — and runs each plan and, in the same application
on the same table, the query's SQL in Spark SQL. Then a plan calling a function of its own
extension, mapped with ``spark_substrait.register_function`` to a Python UDF that returns the
YARN container it runs in. Rows must equal Spark SQL's and the producer's own SQL answer.

**As on EMR.** Spark is installed on every node (``spark.yarn.jars`` names its jars as
``local:``, as EMR's /usr/lib/spark); the project's jar is a cluster library (``spark.jars`` in
spark-defaults.conf, or ``--jars``); ``spark.sql.extensions`` is set in spark-defaults.conf
(EMR's ``spark-defaults`` classification) and nowhere in the job. The nodes' Python
(``spark.pyspark.python``) is the interpreter .venv was made from: neither pyspark (Spark ships
pyspark.zip and py4j to the containers) nor spark_substrait is installed in it. In client mode
the driver is this machine's .venv, where the package is installed (EMR: the bootstrap action's
``pip install`` on the primary node); in cluster mode the driver runs in a YARN container and
the package reaches it only by ``--py-files spark_substrait.zip``. The job prints its findings
as ``SUBSTRAIT-YARN {json}`` lines: in client mode on spark-submit's stdout, in cluster mode in
the driver container's ``stdout`` log, read from the NodeManager's log folder (log aggregation
off; what ``yarn logs -applicationId`` would print).

**Lines.** Spark 4.3.0 (the pinned one: this .venv's pyspark and jar; marked ``ci``) and Spark
3.5.9 (EMR 7's line: tests/platforms/sparklines.py's virtualenv and jar, Hadoop 3.3.4's client
against the 3.5.0 cluster; ``dev/cluster-test`` only). One cluster serves the module.

Times on the 2-core machine with other test suites running (load average 12-15, 2026-12-07):
the mini cluster up in 28-72 s; on Spark 4.3 a client-mode submission 128-134 s, cluster mode
115-162 s; on Spark 3.5.9 77 s and 111 s. The first Maven fetch (empty build/cache/m2) takes
~40 s; after it the stamps skip Maven and javac altogether.
"""

import ast
import contextlib
import datetime
import fcntl
import hashlib
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import pyspark
import pytest

from helpers import (
    EXTENSION_CLASS,
    Q1_AVG_COLUMNS,
    Q1_COLUMNS,
    REPO,
    assert_rows_equal,
    clean_env,
    stop_process_group,
    write_spark_defaults,
)

HERE = Path(__file__).resolve().parent
CLUSTER_DIR = REPO / "dev" / "cluster"
MINICLUSTER_JARS = REPO / "build" / "cache" / "hadoop-minicluster"
MAVEN_REPO = REPO / "build" / "cache" / "m2"
# The nodes' Python: the interpreter this .venv was made from (CPython 3.11), bare.
NODE_PYTHON = getattr(sys, "_base_executable", sys.executable)


@dataclass(frozen=True)
class Line:
    """A Spark line as the submitting machine has it: its Spark (SPARK_HOME), the project's jar
    for it, and the client-mode driver's Python with the package importable."""
    name: str
    spark_home: Path
    jar: str
    driver_python: str
    driver_pythonpath: str | None   # None: the package is installed in driver_python


def _line(name: str) -> Line:
    if name == "4.3":
        # The pinned Spark 4.3.0: this .venv's pyspark (its jars/ hold spark-yarn_2.13 and
        # Hadoop 3.5.0's client), the package installed in it (pip install -e .).
        from spark_substrait import jar_path

        return Line(name, Path(pyspark.__file__).parent, jar_path(), sys.executable, None)
    # Spark 3.5.9 (Scala 2.12, Hadoop 3.3.4's client), what EMR 7 runs: its own virtualenv
    # and jar (tests/platforms/sparklines.py), the package by PYTHONPATH, not installed.
    from sparklines import LINES

    line = LINES[name]
    return Line(name, line.spark_home, str(line.jar), str(line.python), str(REPO / "python"))


LINE_PARAMS = [pytest.param("4.3", marks=pytest.mark.ci, id="spark4.3"), pytest.param("3.5", id="spark3.5")]
# Cluster deploy mode stays out of CI's subset (about a minute of CI's budget): dev/cluster-test runs it.
CLUSTER_MODE_LINE_PARAMS = [pytest.param("4.3", id="spark4.3"), pytest.param("3.5", id="spark3.5")]
PLANS = ["duckdb_q01", "duckdb_q06", "datafusion_q01", "datafusion_q06"]
URN = "extension:org.example:yarn"   # yarn_job.py maps its where_am_i to a Python UDF
QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def minicluster_classpath() -> str:
    """The mini cluster's jars, copied from Maven Central by dev/cluster/pom.xml the first time
    and whenever the pom changes, and the launcher compiled beside them whenever its source
    changes (stamps of their digests say which pom and source the folders hold)."""
    pom, source = CLUSTER_DIR / "pom.xml", CLUSTER_DIR / "MiniClusterMain.java"
    classes = MINICLUSTER_JARS.parent / "hadoop-minicluster-launcher"
    MINICLUSTER_JARS.parent.mkdir(parents=True, exist_ok=True)
    with open(MINICLUSTER_JARS.parent / ".hadoop-minicluster.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two pytest runs at once fetch and compile once
        if not _stamped(MINICLUSTER_JARS, pom):
            assert shutil.which("mvn"), "Maven (mvn) fetches Hadoop's mini cluster from Maven Central"
            shutil.rmtree(MINICLUSTER_JARS, ignore_errors=True)
            fetch = subprocess.run(["mvn", "-q", "-B", "-f", str(pom), f"-Dmaven.repo.local={MAVEN_REPO}",
                                    "dependency:copy-dependencies", f"-DoutputDirectory={MINICLUSTER_JARS}"],
                                   capture_output=True, text=True, timeout=900)
            assert fetch.returncode == 0, fetch.stdout[-4000:] + fetch.stderr[-4000:]
            _stamp(MINICLUSTER_JARS, pom)
        jars = os.pathsep.join(sorted(str(p) for p in MINICLUSTER_JARS.glob("*.jar")))
        if not _stamped(classes, source, pom):
            # Compiled once, not in java's source-file mode at every start: seconds of CPU saved.
            shutil.rmtree(classes, ignore_errors=True)
            javac = subprocess.run(["javac", "-d", str(classes), "-cp", jars, str(source)],
                                   capture_output=True, text=True, timeout=300)
            assert javac.returncode == 0, javac.stdout + javac.stderr
            _stamp(classes, source, pom)
    return os.pathsep.join([str(classes), jars])


def _digest(*files: Path) -> str:
    return hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()


def _stamped(folder: Path, *files: Path) -> bool:
    stamp = folder / ".sources.sha256"
    return stamp.exists() and stamp.read_text(encoding="utf-8") == _digest(*files)


def _stamp(folder: Path, *files: Path) -> None:
    (folder / ".sources.sha256").write_text(_digest(*files), encoding="utf-8")


@dataclass
class YarnCluster:
    work: Path              # the launcher's folder: HDFS's and the NodeManagers' files
    hadoop_conf: Path       # HADOOP_CONF_DIR
    default_fs: str         # hdfs://localhost:PORT
    data: str               # the folder of the tables, plans and SQL on HDFS
    start_seconds: float

    def container_logs(self, app_id: str) -> dict[str, Path]:
        """The NodeManagers' log folders of the application's containers, by container id
        (log aggregation is off, as a NodeManager's default: they stay on the node)."""
        return {p.name: p for p in self.work.glob(f"target/**/*-logDir-nm-*/{app_id}/container_*")}


def _stage_data(tpch, folder: Path) -> Path:
    """What the job reads from HDFS: lineitem, the producers' plan files, the queries' SQL."""
    (folder / "lineitem").mkdir(parents=True)
    shutil.copy(tpch.lineitem, folder / "lineitem" / "part-0.parquet")
    (folder / "plans").mkdir()
    (folder / "sql").mkdir()
    for n in (1, 6):
        (folder / "plans" / f"duckdb_q{n:02d}.bin").write_bytes(tpch.duckdb_bin[n])
        (folder / "plans" / f"datafusion_q{n:02d}.bin").write_bytes(tpch.datafusion_bin[n])
        (folder / "sql" / f"q{n:02d}.sql").write_text(tpch.sql[n], encoding="utf-8")
    (folder / "plans" / "where_am_i.json").write_text(WHERE_AM_I_PLAN, encoding="utf-8")
    return folder


def _field(i):
    return {"selection": {"directReference": {"structField": {"field": i}}, "rootReference": {}}}


# SELECT where_am_i(l_returnflag) AS tag, count(*) AS n FROM lineitem GROUP BY tag, with
# where_am_i of extension:org.example:yarn: every row goes through the Python UDF.
WHERE_AM_I_PLAN = json.dumps({
    "version": {"minorNumber": 108, "producer": "spark-substrait tests"},
    "extensionUrns": [{"extensionUrnAnchor": 1, "urn": URN},
                      {"extensionUrnAnchor": 2, "urn": "extension:io.substrait:functions_aggregate_generic"}],
    "extensions": [
        {"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 1, "name": "where_am_i:str"}},
        {"extensionFunction": {"extensionUrnReference": 2, "functionAnchor": 2, "name": "count:"}}],
    "relations": [{"root": {"names": ["tag", "n"], "input": {"aggregate": {
        "input": {"project": {
            "common": {"emit": {"outputMapping": [1]}},
            "input": {"read": {"common": {"direct": {}}, "namedTable": {"names": ["lineitem"]}, "baseSchema": {
                "names": ["l_returnflag"],
                "struct": {"types": [{"string": {"nullability": "NULLABILITY_NULLABLE"}}],
                           "nullability": "NULLABILITY_REQUIRED"}}}},
            "expressions": [{"scalarFunction": {
                "functionReference": 1, "outputType": {"string": {"nullability": "NULLABILITY_NULLABLE"}},
                "arguments": [{"value": _field(0)}]}}]}},
        "groupingExpressions": [_field(0)],
        "groupings": [{"expressionReferences": [0]}],
        "measures": [{"measure": {"functionReference": 2, "outputType": {"i64": {"nullability": "NULLABILITY_REQUIRED"}},
                                  "phase": "AGGREGATION_PHASE_INITIAL_TO_RESULT",
                                  "invocation": "AGGREGATION_INVOCATION_ALL"}}]}}}}]})


def _read_line(process: subprocess.Popen, timeout: float) -> str:
    """The launcher's next stdout line, or '' when it exits or the time is up."""
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    return process.stdout.readline().decode("utf-8", "replace") if ready else ""


def _kill_leftovers(work: Path) -> None:
    """Containers whose NodeManager did not stop them (the launcher killed hard): every
    container's java command line names its folder under ``work``; each is killed by its pid."""
    marker = str(work)
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmdline:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(proc.name), signal.SIGKILL)


@pytest.fixture(scope="module")
def yarn_cluster(tpch, tmp_path_factory):
    # Every daemon and container talks to the others by this machine's name (YARN's
    # NodeManagers register under it): it must be a loopback address here.
    address = socket.gethostbyname(socket.gethostname())
    if not address.startswith("127."):
        pytest.skip(f"the host name {socket.gethostname()} is {address}, not loopback: the mini cluster's "
                    "traffic would leave loopback")
    classpath = minicluster_classpath()
    work = tmp_path_factory.mktemp("yarn")
    staged = _stage_data(tpch, work / "staged" / "tpch")
    hadoop_conf = work / "hadoop-conf"
    cluster_dir = work / "cluster"
    cluster_dir.mkdir()
    log = work / "minicluster.log"
    # The NodeManagers start containers with $JAVA_HOME/bin/java (Spark's launch command): the
    # Java 17 that runs the launcher.
    java_home = os.environ.get("JAVA_HOME") or str(Path(shutil.which("java")).resolve().parent.parent)
    java = str(Path(java_home) / "bin" / "java")
    started = time.monotonic()
    with open(log, "wb") as err:
        launcher = subprocess.Popen(
            [java, "-Xmx768m", *QUICK_JVM.split(), f"-Dlog4j.configuration=file:{CLUSTER_DIR / 'log4j.properties'}",
             "-cp", classpath, "MiniClusterMain",
             "--conf-dir", str(hadoop_conf), "--nodemanagers", "2", "--nm-memory-mb", "2560",
             "--put", f"{staged}=/tpch"],
            cwd=cluster_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
            start_new_session=True, env={**clean_env(), "JAVA_HOME": java_home})
    try:
        deadline = time.monotonic() + 300
        line = ""
        while not line.startswith("READY ") and launcher.poll() is None and time.monotonic() < deadline:
            line = _read_line(launcher, deadline - time.monotonic())
        if not line.startswith("READY "):
            pytest.fail(f"the mini cluster did not start:\n{log.read_text(errors='replace')[-6000:]}")
        _, default_fs, _ = line.split()
        cluster = YarnCluster(cluster_dir, hadoop_conf, default_fs, "hdfs:///tpch", time.monotonic() - started)
        print(f"mini cluster (HDFS + YARN, Hadoop 3.5.0) up in {cluster.start_seconds:.1f} s at {default_fs}")
        yield cluster
    finally:
        # EOF on stdin: YARN stops (its NodeManagers kill what still runs), then HDFS.
        try:
            launcher.stdin.close()
            launcher.wait(timeout=60)
        except subprocess.TimeoutExpired:
            pass
        stop_process_group(launcher)
        _kill_leftovers(cluster_dir)


# --- submitting


def _spark_defaults(conf_dir: Path, line: Line, jar_in_defaults: bool) -> Path:
    """spark-defaults.conf as EMR's ``spark-defaults`` classification would write it."""
    settings = {
        "spark.sql.extensions": EXTENSION_CLASS,
        # Spark is on every node: its jars are not uploaded per application.
        "spark.yarn.jars": f"local:{line.spark_home / 'jars'}/*",
        "spark.pyspark.python": NODE_PYTHON,
        # Two executors of one core, in containers of 512 MB + Spark's 384 MB overhead; the
        # application master (client mode) and the driver's container (cluster mode) as small.
        "spark.executor.instances": "2",
        "spark.executor.cores": "1",
        "spark.executor.memory": "512m",
        "spark.yarn.am.memory": "512m",
        "spark.driver.memory": "640m",
        # One attempt: a failed driver fails the test now, not after YARN's second attempt.
        "spark.yarn.maxAppAttempts": "1",
        "spark.sql.shuffle.partitions": "4",
        "spark.ui.enabled": "false",
        # Spark 4's Python UDFs go through Arrow by default, which needs pyarrow in the nodes'
        # Python; these nodes have only the standard library (and Spark's pyspark.zip), as a
        # bare EMR node's python3 has. (A cluster whose nodes have pyarrow leaves this on.)
        "spark.sql.execution.pythonUDF.arrow.enabled": "false",
        # Spark would take this machine's outside address for its driver and executors (the
        # host name is loopback here, and Spark looks past that): everything stays on loopback.
        "spark.yarn.appMasterEnv.SPARK_LOCAL_IP": "127.0.0.1",
        "spark.executorEnv.SPARK_LOCAL_IP": "127.0.0.1",
        # Short-lived JVMs on a 2-core machine: the client compiler only and the serial
        # collector spend less CPU on start-up than the defaults (test tuning, not EMR's).
        "spark.driver.extraJavaOptions": QUICK_JVM,
        "spark.yarn.am.extraJavaOptions": QUICK_JVM,
        "spark.executor.extraJavaOptions": QUICK_JVM,
    }
    if jar_in_defaults:
        settings["spark.jars"] = line.jar
    return write_spark_defaults(conf_dir, settings)


def _py_files_zip(target: Path) -> Path:
    """python/spark_substrait as a zip for ``--py-files``, without its bundled jars (the jar
    goes as the cluster library) and caches."""
    package = REPO / "python" / "spark_substrait"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(package.rglob("*")):
            relative = path.relative_to(package.parent)
            if path.is_file() and "__pycache__" not in relative.parts and "jars" not in relative.parts:
                zf.write(path, relative.as_posix())
    return target


def _submit(cluster: YarnCluster, line: Line, tmp_path: Path, mode: str, extra: list[str]):
    conf_dir = _spark_defaults(tmp_path / "spark-conf", line, jar_in_defaults="--jars" not in extra)
    env = clean_env(SPARK_HOME=str(line.spark_home), SPARK_CONF_DIR=str(conf_dir),
                    HADOOP_CONF_DIR=str(cluster.hadoop_conf), SPARK_LOCAL_IP="127.0.0.1")
    if mode == "client" and line.driver_pythonpath:
        env["PYTHONPATH"] = line.driver_pythonpath
    args = [str(line.spark_home / "bin" / "spark-submit"), "--master", "yarn", "--deploy-mode", mode, *extra,
            str(HERE / "yarn_job.py"), cluster.data, *PLANS]
    out, err = tmp_path / "submit.out", tmp_path / "submit.err"
    started = time.monotonic()
    with open(out, "wb") as stdout, open(err, "wb") as stderr:
        submit = subprocess.Popen(args, stdout=stdout, stderr=stderr, env=env, cwd=tmp_path, start_new_session=True)
        try:
            submit.wait(timeout=600)
        finally:
            stop_process_group(submit)
    seconds = time.monotonic() - started
    log = err.read_text(errors="replace")
    ids = re.findall(r"application_\d+_\d+", log)
    assert submit.returncode == 0, f"spark-submit exited {submit.returncode}:\n{log[-6000:]}"
    assert ids, log[-4000:]
    print(f"Spark {line.name}: spark-submit --deploy-mode {mode}: {seconds:.1f} s, {ids[0]}")
    return ids[0], out.read_text(errors="replace"), log


def _records(text: str):
    records = [json.loads(line.split(" ", 1)[1]) for line in text.splitlines() if line.startswith("SUBSTRAIT-YARN ")]
    return {r["kind"] if r["kind"] != "plan" else r["plan"]: r for r in records}


def _values(reprs):
    """The job's rows back from their repr (our own output): Decimals, dates, numbers, text."""
    names = {"Decimal": Decimal, "datetime": datetime}
    rows = []
    for text in reprs:
        ast.parse(text, mode="eval")  # an expression, nothing more
        rows.append(eval(text, {"__builtins__": {}}, names))  # noqa: S307 - our own repr() output
    return rows


# --- checks


def _check_plans(records, tpch):
    for name in PLANS:
        record = records[name]
        query = int(name[-2:])
        columns = Q1_COLUMNS if query == 1 else ["revenue"]
        got, spark_sql = _values(record["substrait"]), _values(record["sql"])
        assert record["columns"] == columns, (name, record["columns"])
        assert len(got) == (4 if query == 1 else 1), (name, got)
        # The producers' plans compute the averages as doubles; Spark SQL's TPC-H text as
        # decimal(_, 6), rounded half up: within half a unit of its last digit. Everything
        # else equal exactly (decimals) or to 1e-9 relative (doubles).
        averages = {c: 5.01e-7 for c in Q1_AVG_COLUMNS} if query == 1 else {}
        assert_rows_equal(got, spark_sql, columns, tolerance=averages)
        if name.startswith("duckdb"):
            assert_rows_equal(got, tpch.duckdb_rows[query], columns, tolerance=averages)
        else:
            # DataFusion 55's own answer: its decimal averages are cut to 6 digits where
            # Spark rounds half up (25.575154 against 25.575155): within one unit.
            truncated = {c: 1.01e-6 for c in Q1_AVG_COLUMNS} if query == 1 else {}
            assert_rows_equal(got, tpch.datafusion_rows[query], columns, tolerance=truncated)


def _check_udf(record, app_id: str, executor_containers, tpch):
    """The UDF's rows: per return flag, the row counts the plan grouped by (flag, container)
    add up to Spark SQL's count per flag, and to DuckDB's over the same parquet; each container
    named is one of this application's executors (not its first container, the application
    master, which holds the driver in cluster mode)."""
    assert record["columns"] == ["tag", "n"]
    by_flag, containers = Counter(), set()
    for tag, n in _values(record["substrait"]):
        flag, _, container = tag.partition("@")
        by_flag[flag] += n
        containers.add(container)
    assert by_flag == Counter(dict(_values(record["sql"])))
    import duckdb

    duck = duckdb.sql(f"SELECT l_returnflag, count(*) FROM '{tpch.lineitem}' GROUP BY ALL").fetchall()
    assert by_flag == Counter(dict(duck))
    app_seq = app_id[len("application_"):]
    assert containers and all(c.startswith(f"container_{app_seq}_") for c in containers), (app_id, containers)
    assert containers <= set(executor_containers), (containers, sorted(executor_containers))
    return containers


def _executor_containers(cluster: YarnCluster, app_id: str):
    """This application's containers other than the first (the application master)."""
    logs = cluster.container_logs(app_id)
    assert logs, f"no container logs of {app_id} under {cluster.work}"
    return {c for c in logs if not c.endswith("_000001")}


@pytest.mark.parametrize("line_name", LINE_PARAMS)
def test_client_mode_with_the_jar_in_spark_defaults(yarn_cluster, tpch, tmp_path, line_name):
    """EMR: ``spark-submit --master yarn --deploy-mode client job.py`` on the primary node, the
    jar and the extension from spark-defaults.conf, the package installed by pip there."""
    line = _line(line_name)
    # The driver's Python (spark.pyspark.python, the nodes', would win over PYSPARK_DRIVER_PYTHON).
    app_id, stdout, log = _submit(yarn_cluster, line, tmp_path, "client",
                                  ["--conf", f"spark.pyspark.driver.python={line.driver_python}"])
    records = _records(stdout)
    driver = records["driver"]
    assert driver["master"] == "yarn" and driver["deploy_mode"] == "client", driver
    assert driver["app_id"] == app_id
    assert driver["container"] is None, driver      # the driver is this machine's process
    assert driver["extension"] is True, driver
    assert driver["default_fs"] == yarn_cluster.default_fs, driver
    assert driver["package"] == str(REPO / "python" / "spark_substrait" / "__init__.py"), driver
    _check_plans(records, tpch)
    executors = _executor_containers(yarn_cluster, app_id)
    _check_udf(records["udf"], app_id, executors, tpch)


@pytest.mark.parametrize("line_name", CLUSTER_MODE_LINE_PARAMS)
def test_cluster_mode_with_jars_and_the_package_by_py_files(yarn_cluster, tpch, tmp_path, line_name):
    """EMR: ``spark-submit --master yarn --deploy-mode cluster --jars … --py-files
    spark_substrait.zip job.py``: the driver runs in a YARN container, on a node whose Python
    has no spark_substrait; the rows come back in the driver container's stdout log (what
    ``yarn logs -applicationId`` shows), read from the NodeManager's log folder."""
    line = _line(line_name)
    node_has = subprocess.run([NODE_PYTHON, "-c", "import spark_substrait"], capture_output=True,
                              env=clean_env(), timeout=60)
    assert node_has.returncode != 0, "the nodes' Python must not have spark_substrait for this test to mean anything"
    package_zip = _py_files_zip(tmp_path / "spark_substrait.zip")
    app_id, stdout, log = _submit(yarn_cluster, line, tmp_path, "cluster",
                                  ["--jars", line.jar, "--py-files", str(package_zip)])
    assert "SUBSTRAIT-YARN" not in stdout   # the driver is not here
    containers = yarn_cluster.container_logs(app_id)
    am = [c for c in containers if c.endswith("_000001")]
    assert len(am) == 1, sorted(containers)
    records = _records((containers[am[0]] / "stdout").read_text(errors="replace"))
    driver = records["driver"]
    assert driver["master"] == "yarn" and driver["deploy_mode"] == "cluster", driver
    assert driver["app_id"] == app_id
    assert driver["container"] == am[0], driver     # the driver runs in the application master
    assert driver["extension"] is True, driver
    assert driver["default_fs"] == yarn_cluster.default_fs, driver
    # Imported from the zip YARN localized into the driver's container.
    assert re.search(r"/container_\d+_\d+_\d+_000001/spark_substrait\.zip/spark_substrait/__init__\.py$",
                     driver["package"]), driver
    _check_plans(records, tpch)
    _check_udf(records["udf"], app_id, _executor_containers(yarn_cluster, app_id), tpch)
