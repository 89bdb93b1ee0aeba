"""Faults (issue 60, part 3): an executor lost in the middle of a Substrait plan, and a Spark
Connect server under a long mixed load.

**Executor lost.** A real standalone cluster: a Master and two Workers, each its own JVM
process started here by pyspark's ``bin/spark-class`` (pip's pyspark has no ``sbin/``
scripts; docs/quickstart.md's standalone recipe starts them the same way), one core each; the
workers start the executors as their own child processes. A driver process
(executor_loss_driver.py, which says what it does) runs a plan with two shuffles, a runtime
function of the project on the executors (integer ``power``: ``ExactMath``) and a function
mapped to a slow Python UDF, and SIGKILLs one executor's JVM while that stage runs. The plan
must give the rows of the same query in Spark SQL (run by the same driver after the fault)
and of Python's own arithmetic; the evidence must show the executor died mid-stage, its tasks
failed as lost and ran again elsewhere, and the worker started a new executor.

**Connect soak.** A Spark Connect server with the plugin (helpers.start_connect_server, as
tests/conftest.py's ``connect_server``), 8 client sessions in 8 threads, each running the five
kinds of work in turn: DuckDB's and DataFusion's TPC-H plans (the ``tpch`` fixture's, rows
checked against the engines' own SQL answers), invalid plans (the project's Python error class
with its SUBSTRAIT_* condition, the session still usable after), a function mapping registered
(a SQL template or a Python UDF, with a multiplier of the client's own), used, unregistered and
then refused, and writes (DdlRel DROP, WriteRel CTAS and INSERT into a table of the client's
own, with ``spark.substrait.allowWrites=true``, then read back by a plan). The warm-up ends
when every client has run every kind once; the load goes on for ``SUBSTRAIT_SOAK_SECONDS``
from its start (default 90; dev/cluster-test --ci sets 60, its full run 600), and
until every client has run every kind at least twice. The server's heap after full GCs (``jcmd
GC.run``, ``GC.heap_info``) at the end, clients idle, must be at most 10 % above where it was
after the warm-up, clients idle too: nothing is kept per plan.
"""

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pyspark
import pytest

import plan_json
import spark_substrait
from helpers import accepts, clean_env, free_port, stop_process_group

HERE = Path(__file__).resolve().parent
SPARK_HOME = Path(pyspark.__file__).parent


# --- executor lost


def _spark_class(args, log: Path, env) -> subprocess.Popen:
    """A standalone daemon (Master or Worker) in its own process group: stopping the group
    also stops the executors a worker started."""
    with open(log, "wb") as out:
        return subprocess.Popen([str(SPARK_HOME / "bin" / "spark-class"), *args], stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True, env=env)


def _alive_workers(web_port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/json/", timeout=5) as response:
            return json.load(response).get("aliveworkers", 0)
    except (OSError, ValueError):  # not up yet, or only its HTML pages are (while it starts)
        return 0


def _wait(what, condition, timeout, processes, logs):
    deadline = time.monotonic() + timeout
    while not condition():
        dead = [p.args[1] for p in processes if p.poll() is not None]
        if dead or time.monotonic() > deadline:
            tails = "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-2000:]}" for log in logs)
            pytest.fail(f"{what}: {'exited: ' + ', '.join(dead) if dead else 'timed out'}\n{tails}")
        time.sleep(0.2)


def _expected_rows(rows=2400):
    """The plan's answer from Python's own integers, independent of Spark."""
    groups = {}
    for i in range(rows):
        v = (i * 7919) % 10007
        g = groups.setdefault(i % 16, [i % 16, 0, 0, 0])
        g[1] += v * v
        g[2] += v * 3 + 1
        g[3] += 1
    return [groups[k] for k in sorted(groups)]


@pytest.mark.ci
def test_an_executor_killed_mid_stage_and_the_plan_still_gives_the_right_rows(tmp_path):
    started = time.monotonic()
    # Daemons of 256 MB (two cores, other tests beside): they only schedule.
    # PYSPARK_PYTHON: the executors' Python workers run this interpreter (pandas, pyarrow).
    env = clean_env(SPARK_HOME=str(SPARK_HOME), SPARK_DAEMON_MEMORY="256m", SPARK_LOCAL_IP="127.0.0.1",
                    PYSPARK_PYTHON=sys.executable)
    master_port, master_web = free_port(), free_port()
    logs = [tmp_path / "master.log", tmp_path / "worker-1.log", tmp_path / "worker-2.log"]
    processes = []
    driver = None
    try:
        processes.append(_spark_class(["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                       "--port", str(master_port), "--webui-port", str(master_web)], logs[0], env))
        _wait("the master", lambda: accepts(master_port) and accepts(master_web), 120, processes, logs)
        for n in (1, 2):
            work = tmp_path / f"work-{n}"
            work.mkdir()
            processes.append(_spark_class(
                ["org.apache.spark.deploy.worker.Worker", f"spark://127.0.0.1:{master_port}", "--host", "127.0.0.1",
                 "--cores", "1", "--memory", "1g", "--webui-port", str(free_port()), "--work-dir", str(work)],
                logs[n], env))
        _wait("two workers registered", lambda: _alive_workers(master_web) == 2, 120, processes, logs)
        cluster_up = time.monotonic() - started

        evidence_file = tmp_path / "evidence.json"
        driver_log = tmp_path / "driver.log"
        with open(driver_log, "wb") as out:
            driver = subprocess.Popen(
                [sys.executable, str(HERE / "executor_loss_driver.py"), f"spark://127.0.0.1:{master_port}",
                 spark_substrait.jar_path(), ",".join(str(w.pid) for w in processes[1:]), str(evidence_file)],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True, env=env, cwd=str(tmp_path))
        try:
            driver.wait(timeout=420)
        except subprocess.TimeoutExpired:
            pytest.fail("the driver did not finish in 420 s:\n" + driver_log.read_text(errors="replace")[-4000:])
        assert driver.returncode == 0, driver_log.read_text(errors="replace")[-6000:]
        evidence = json.loads(evidence_file.read_text(encoding="utf-8"))
    finally:
        for p in ([driver] if driver else []) + processes[::-1]:
            stop_process_group(p)
    wall = time.monotonic() - started

    # The plan ran the project's runtime function and the Python UDF on the executors.
    physical = evidence["plan_physical"]
    assert "io.sparksubstrait.runtime.ExactMath" in physical and "power" in physical, physical
    assert "EvalPython [substrait_slow_triple_" in physical, physical   # Batch- or ArrowEvalPython
    assert physical.count("Exchange") >= 2, physical     # the aggregate's shuffle and the sort's

    # The right rows: the same query in Spark SQL (same driver, after the fault) and Python's.
    assert "error" not in evidence["plan"], evidence["plan"]
    expected = _expected_rows()
    assert evidence["sql_rows"] == expected
    assert evidence["plan"]["rows"] == expected

    # An executor really died mid-stage: its JVM was SIGKILLed while tasks of the stage ran on
    # both executors with some already done; the driver removed it (the reason names the exit
    # code of a SIGKILL, 137); the tasks it ran failed as lost and ran again on another executor;
    # the worker started a new executor, which took part.
    events, killed, stage = evidence["events"], evidence["killed"], evidence["stage"]
    assert 1 <= stage["complete_at_kill"] < 12 and stage["active_at_kill"] >= 2, stage
    assert events["plan_started"] < events["killed"] < events["plan_finished"], events
    removed = {e["id"]: e for e in evidence["removed"]}
    victim = removed[killed["executor"]]
    assert victim["isActive"] is False and "137" in (victim["removeReason"] or ""), victim
    assert evidence["new_executors"] and all(removed[e]["isActive"] for e in evidence["new_executors"])
    tasks = [t for a in evidence["stage_attempts"] for t in a["tasks"]]
    lost = [t for t in tasks if t["executor"] == killed["executor"] and t["status"] == "FAILED"]
    assert lost and all("ExecutorLostFailure" in t["error"] for t in lost), lost
    done = {t["index"]: t["executor"] for t in tasks if t["status"] == "SUCCESS"}
    assert set(done) == set(range(12)), done
    for t in lost:
        assert done[t["index"]] != killed["executor"], (t, done)
    # Who finished the stage: the surviving executor, the new one, or both (not asserted: it
    # depends on how fast the new executor's JVM starts).
    finishers = sorted(set(done.values()) - {killed["executor"]})

    print(f"\nexecutor lost: cluster up {cluster_up:.1f} s; driver events (s since its start) {events}; "
          f"killed executor {killed['executor']} pid {killed['pid']} with {stage['complete_at_kill']}/12 tasks "
          f"done, {stage['active_at_kill']} running; {len(lost)} task(s) lost, re-run on "
          f"{sorted({done[t['index']] for t in lost})}; new executor(s) {evidence['new_executors']}; "
          f"stage finished by {finishers}; "
          f"removed because {victim['removeReason']!r}; wall {wall:.1f} s")


# --- Spark Connect soak

SOAK_SECONDS = float(os.environ.get("SUBSTRAIT_SOAK_SECONDS", "90"))
CLIENTS = 8
SOAK_URN = "extension:org.example:soak"
KINDS = ("duckdb", "datafusion", "invalid", "function", "write")
I64 = {"i64": {"nullability": "NULLABILITY_NULLABLE"}}
# A per-session view the mapped function reads: NULLs, a duplicate row, a negative.
PAIRS = [(1, 2), (None, 5), (10, -3), (10, -3), (7, None)]


COLUMNS = [("id", "i64"), ("label", "string")]


def _write(op, table, rows, mode=None):
    """A WriteRel of ``rows`` (id, label) into ``table``, by plan_json's builders (shared with
    test_tables.py)."""
    values = [[plan_json.lit("i64", i), plan_json.lit("string", label)] for i, label in rows]
    rel = plan_json.write([table], op, plan_json.virtual(COLUMNS, values), plan_json.schema(COLUMNS), mode)
    return plan_json.Plan().json(rel)


def _drop_table(table):
    return plan_json.Plan().json(plan_json.ddl([table], "TABLE", "DROP_IF_EXIST"))


def _read_table(table, columns=COLUMNS):
    return plan_json.Plan().json(plan_json.read([table], columns), [n for n, _ in columns])


def _function_plan():
    """``soak_f(a, b)`` of SOAK_URN over the session's ``soak_pairs`` view."""
    # By hand: plan_json.Plan declares io.substrait's functions only.
    return json.dumps({
        "version": {"minorNumber": 108, "producer": "spark-substrait tests"},
        "extensionUrns": [{"extensionUrnAnchor": 1, "urn": SOAK_URN}],
        "extensions": [{"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 1,
                                              "name": "soak_f:i64_i64"}}],
        "relations": [{"root": {"names": ["a", "b", "f"], "input": {"project": {
            "common": {"emit": {"outputMapping": [0, 1, 2]}},
            "expressions": [{"scalarFunction": {"functionReference": 1, "outputType": I64,
                                                "arguments": [{"value": plan_json.field(0)},
                                                              {"value": plan_json.field(1)}]}}],
            "input": plan_json.read(["soak_pairs"], [("a", "i64"), ("b", "i64")])}}}}]})


def _scaled_sum(m):
    """The Python UDF's function, made here so that it is pickled by value (the server's Python
    workers cannot import this module)."""
    def scaled_sum(a, b):
        return None if a is None or b is None else (a + b) * m
    return scaled_sum


def _invalid_plans(tpch):
    """(plan, error class, condition): the documented errors, each of another stage."""
    from spark_substrait import SubstraitInvalidPlanError, SubstraitUnsupportedError

    unknown = json.loads(tpch.duckdb_json[6])
    for ext in unknown["extensions"]:
        if ext.get("extensionFunction", {}).get("name", "").startswith("multiply"):
            ext["extensionFunction"]["name"] = "no_such_function"
    out_of_range = json.loads(tpch.duckdb_json[6])
    out_of_range["relations"][0]["root"]["input"]["project"]["expressions"][0]["selection"][
        "directReference"]["structField"]["field"] = 3
    return [
        (b"\x01\x02 not a plan \xff", SubstraitInvalidPlanError, "SUBSTRAIT_MALFORMED_PLAN"),
        ('{"relations": [', SubstraitInvalidPlanError, "SUBSTRAIT_MALFORMED_PLAN"),
        (json.dumps(unknown), SubstraitUnsupportedError, "SUBSTRAIT_UNKNOWN_FUNCTION"),
        (json.dumps(out_of_range), SubstraitInvalidPlanError, "SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE"),
        (_read_table("soak_no_such_table"), SubstraitInvalidPlanError, "SUBSTRAIT_TABLE_NOT_FOUND"),
    ]


def _server_jvm(server: subprocess.Popen) -> int:
    """The server's JVM among its process group (spark-submit's scripts exec it; its Python
    workers are in the group too)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getpgid(int(entry)) != server.pid:
                    continue
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    args = f.read().split(b"\0")
            except OSError:
                continue
            if b"org.apache.spark.deploy.SparkSubmit" in args and args[0].endswith(b"java"):
                return int(entry)
    raise AssertionError("no JVM in the server's process group")


def _heap_after_full_gc(pid: int) -> int:
    """Bytes of the heap in use after full collections (``jcmd GC.run`` twice: what one frees
    may only become collectable for the next), as ``jcmd GC.heap_info`` reports it."""
    import re

    for _ in range(2):
        subprocess.run(["jcmd", str(pid), "GC.run"], check=True, capture_output=True, timeout=120)
    info = subprocess.run(["jcmd", str(pid), "GC.heap_info"], check=True, capture_output=True, text=True,
                          timeout=120).stdout
    m = re.search(r"heap\s+total \d+K, used (\d+)K", info)
    assert m, info
    return int(m.group(1)) * 1024


def _live_bytes_by_class(pid: int) -> dict:
    """``jcmd GC.class_histogram`` (live objects, after a full GC): bytes by class, to name what
    grew when the heap did."""
    import re

    text = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], check=True, capture_output=True, text=True,
                          timeout=300).stdout
    return {m.group(2): int(m.group(1)) for m in re.finditer(r"^\s*\d+:\s+\d+\s+(\d+)\s+(\S+)", text, re.M)}


def _grown(before: dict, after: dict, n=8) -> str:
    deltas = sorted(((after.get(c, 0) - before.get(c, 0), c) for c in set(before) | set(after)), reverse=True)
    return ", ".join(f"{c} {d / 1024:+.0f} KiB" for d, c in deltas[:n])


@pytest.mark.ci
def test_a_connect_server_under_8_clients_of_mixed_plans_keeps_its_heap(tpch, tmp_path):
    import threading
    from collections import Counter

    from pyspark.sql.functions import udf
    from pyspark.sql.types import LongType

    from helpers import Q1_AVG_COLUMNS, Q1_COLUMNS, assert_rows_equal, remote_session, start_connect_server
    from spark_substrait import SubstraitPlanError, SubstraitUnsupportedError

    started = time.monotonic()
    retained = "50"
    server, url = start_connect_server(tmp_path / "server.log", {
        "spark.sql.warehouse.dir": str(tmp_path / "warehouse"),
        # Spark's own histories (jobs, stages, SQL executions, Connect statements) are bounded
        # by these; small bounds, soon reached (a plan makes a few of each), so that what the heap keeps after
        # it is what the plans leave behind, not Spark's history filling to its default 1000.
        "spark.ui.retainedJobs": retained, "spark.ui.retainedStages": retained, "spark.ui.retainedTasks": "500",
        "spark.sql.ui.retainedExecutions": retained, "spark.connect.ui.retainedStatements": retained,
        "spark.connect.ui.retainedSessions": retained,
    })
    counts, seconds, failures = Counter(), Counter(), []
    lock = threading.Lock()
    # The warm-up: every client has run every kind once (classes loaded, code compiled, caches
    # and Spark's bounded histories begun). Then the load goes on until SOAK_SECONDS have passed
    # and every client has run every kind at least once more, however slow the machine is.
    warm_up_seconds = None
    pause, resume = threading.Barrier(CLIENTS + 1), threading.Barrier(CLIENTS + 1)
    invalid = _invalid_plans(tpch)
    sessions = []
    try:
        jvm = _server_jvm(server)
        for _ in range(CLIENTS):
            session = remote_session(url)
            sessions.append(session)
            session.read.parquet(str(tpch.lineitem)).createOrReplaceTempView("lineitem")
            values = ", ".join(f"(CAST({'NULL' if a is None else a} AS BIGINT), CAST({'NULL' if b is None else b} "
                               f"AS BIGINT))" for a, b in PAIRS)
            session.sql(f"CREATE OR REPLACE TEMP VIEW soak_pairs AS SELECT * FROM VALUES {values} AS v(a, b)")
            session.conf.set("spark.substrait.allowWrites", "true")
        averages_duckdb = {c: 5.01e-7 for c in Q1_AVG_COLUMNS}
        averages_datafusion = {c: 1e-6 for c in Q1_AVG_COLUMNS}
        function_plan = _function_plan()

        def rows(df):
            return [tuple(r) for r in df.collect()]

        def one(kind, k, i, session):
            """One operation of ``kind`` by client ``k``, its ``i``-th: raises on a wrong answer."""
            query = (1, 6)[i % 2]
            columns = Q1_COLUMNS if query == 1 else ["revenue"]
            if kind == "duckdb":
                plan = (tpch.duckdb_bin, tpch.duckdb_json)[(i // 2) % 2][query]
                assert_rows_equal(rows(session.read.substrait(plan)), tpch.duckdb_rows[query], columns,
                                  tolerance=averages_duckdb)
            elif kind == "datafusion":
                assert_rows_equal(rows(session.read.substrait(tpch.datafusion_bin[query])),
                                  tpch.datafusion_rows[query], columns, tolerance=averages_datafusion)
            elif kind == "invalid":
                plan, cls, condition = invalid[(k + i) % len(invalid)]
                try:
                    session.read.substrait(plan)
                    raise AssertionError(f"no error for the plan expecting {condition}")
                except SubstraitPlanError as e:
                    assert type(e) is cls and e.condition == condition, (type(e).__name__, e.condition, str(e)[:300])
                assert rows(session.sql("SELECT 1")) == [(1,)]           # still usable
            elif kind == "function":
                # A multiplier of this client and iteration: another client's mapping, or this
                # client's previous one, would give other numbers.
                m = 1000 * (k + 1) + i
                expected = [(a, b, None if a is None or b is None else (a + b) * m) for a, b in PAIRS]
                if (i // len(KINDS)) % 2:
                    # LongType(), not "bigint": parsing a type's name needs a classic SparkContext.
                    spark_substrait.register_function(session, SOAK_URN, "soak_f",
                                                      spark_function=udf(_scaled_sum(m), LongType()))
                else:
                    spark_substrait.register_function(session, SOAK_URN, "soak_f", sql=f"($1 + $2) * {m}")
                got = rows(session.read.substrait(function_plan))
                assert Counter(got) == Counter(expected), (got, expected)
                assert spark_substrait.unregister_function(session, SOAK_URN, "soak_f") is True
                try:
                    session.read.substrait(function_plan)
                    raise AssertionError("an unregistered function was not refused")
                except SubstraitUnsupportedError as e:
                    assert e.condition == "SUBSTRAIT_UNKNOWN_FUNCTION", e
            elif kind == "write":
                table = f"soak_w{k}"
                first = [(i, f"c{k}-{i}"), (i + 1, None), (i + 1, None)]
                more = [(None, f"more-{i}")]
                # Over Connect a write runs when the DataFrame is executed (collect), not when
                # spark.read.substrait analyses it as a classic session's does; no rows.
                for plan in (_drop_table(table), _write("CTAS", table, first, "ERROR_IF_EXISTS"),
                             _write("INSERT", table, more)):
                    assert rows(session.read.substrait(plan)) == []
                got = rows(session.read.substrait(_read_table(table)))
                assert Counter(got) == Counter(first + more), (got, first + more)

        def client(k):
            session, i = sessions[k], 0
            while True:
                if i == len(KINDS):
                    pause.wait()          # the heap is measured while every client waits
                    resume.wait()
                if i >= 2 * len(KINDS) and time.monotonic() - started_load >= SOAK_SECONDS:
                    return
                kind = KINDS[(k + i) % len(KINDS)]
                began = time.monotonic()
                try:
                    one(kind, k, i, session)
                    outcome = kind
                except Exception as e:  # noqa: BLE001 - every failure is reported at the end
                    outcome = f"{kind} FAILED"
                    with lock:
                        failures.append(f"client {k} op {i} {kind}: {type(e).__name__}: {str(e)[:500]}")
                with lock:
                    counts[outcome] += 1
                    seconds[kind] += time.monotonic() - began
                i += 1

        started_load = time.monotonic()
        threads = [threading.Thread(target=client, args=(k,), daemon=True) for k in range(CLIENTS)]
        for t in threads:
            t.start()
        pause.wait(timeout=SOAK_SECONDS + 600)
        warm_up_seconds = time.monotonic() - started_load
        at_warm_up = dict(counts)
        heap_warm = _heap_after_full_gc(jvm)
        classes_warm = _live_bytes_by_class(jvm)
        resume.wait(timeout=60)
        for t in threads:
            t.join(timeout=SOAK_SECONDS + 300)
        assert not any(t.is_alive() for t in threads), "a client still waits for an answer"
        load_seconds = time.monotonic() - started_load
        heap_end = _heap_after_full_gc(jvm)      # the same state: 8 sessions open, idle
        grown = _grown(classes_warm, _live_bytes_by_class(jvm))
        alive = all(rows(s.sql("SELECT 1")) == [(1,)] for s in sessions)
    finally:
        for s in sessions:
            with contextlib.suppress(Exception):  # the server may be gone; it is stopped next
                s.stop()
        os.environ.pop("SPARK_CONNECT_MODE_ENABLED", None)
        stop_process_group(server)
    ops = sum(counts.values())
    print(f"\nconnect soak: {CLIENTS} clients, {load_seconds:.0f} s of load ({SOAK_SECONDS:.0f} s asked), "
          f"{ops} operations: {dict(sorted(counts.items()))}; mean seconds each: "
          f"{ {k: round(seconds[k] / max(1, counts[k] + counts[k + ' FAILED']), 2) for k in KINDS} }; at the warm-up's end ({warm_up_seconds:.0f} s): "
          f"{sum(at_warm_up.values())}; failures {len(failures)}; heap after full GC: warm-up "
          f"{heap_warm / 2**20:.1f} MiB, end {heap_end / 2**20:.1f} MiB ({(heap_end / heap_warm - 1) * 100:+.1f} %); "
          f"wall {time.monotonic() - started:.0f} s; grown most: {grown}")
    assert not failures, f"{len(failures)} of {ops} failed:\n" + "\n".join(failures[:10])
    assert alive
    assert all(counts[kind] >= 2 * CLIENTS for kind in KINDS), counts     # every kind, twice by every client
    assert heap_end <= heap_warm * 1.10, (heap_warm, heap_end, grown)
