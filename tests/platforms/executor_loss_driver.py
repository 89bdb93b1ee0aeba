"""The driver of test_faults.py's executor-loss test, run as its own Python process (a
SparkContext per process: the test's own interpreter may hold a local session).

argv: the standalone master's URL, the jar, the workers' process-group ids (comma-separated),
and the file to write the evidence to (JSON).

It connects to the master, waits for both executors, then runs one Substrait plan in a thread:
a read of ``fault_data`` (12 partitions), a projection calling ``modulus``, integer ``power``
(``io.sparksubstrait.runtime.ExactMath.power`` on the executors) and ``slow_triple`` of
``extension:org.example:faults`` — mapped with ``register_function`` to a Python UDF that
sleeps a little per row, so that each of the 12 tasks takes about two seconds — an aggregate
by ``g`` (a shuffle) and a sort (another). While that stage runs, with tasks running on both
executors and at least one already finished, it SIGKILLs one executor's JVM, found among the
workers' processes by its executor id and the application's id. Then it watches the
application's status (its REST API: the same store a SparkListener fills) until the executor
is removed and a new one registers, waits for the plan, and runs the same query in Spark SQL
on the same view. Everything it saw goes to the evidence file; the test judges it.
"""

import json
import os
import signal
import sys
import threading
import time
import urllib.request

from pyspark.sql import SparkSession
from pyspark.sql.functions import udf

import spark_substrait

master, jar, pgids_arg, evidence_path = sys.argv[1:5]
worker_pgids = {int(p) for p in pgids_arg.split(",")}

PARTITIONS = 12      # tasks of the stage that is hit: six waves on two one-core executors
ROWS = 2400          # 200 rows per task
DELAY = 0.01         # seconds per row in the Python UDF: ~2 s per task
URN = "extension:org.example:faults"
GROUP = "substrait-plan"
started = time.monotonic()


def now():
    return round(time.monotonic() - started, 2)


spark = spark_substrait.configure(
    SparkSession.builder.master(master).appName("spark-substrait executor loss")
    .config("spark.driver.host", "127.0.0.1")
    .config("spark.driver.memory", "768m")
    .config("spark.executor.memory", "512m")
    .config("spark.executor.cores", "1")
    .config("spark.cores.max", "2")
    .config("spark.ui.port", "0")               # the status REST API, on a free port
    .config("spark.ui.showConsoleProgress", "false")
    .config("spark.sql.shuffle.partitions", "4")).getOrCreate()
sc = spark.sparkContext
sc.setLogLevel("ERROR")
app = sc.applicationId
api = f"{sc.uiWebUrl}/api/v1/applications/{app}"


def rest(path, attempts=5):
    """GET of the status API; on a busy machine it may not answer at once: tried again."""
    for attempt in range(attempts):
        try:
            with urllib.request.urlopen(api + path, timeout=30) as response:
                return json.load(response)
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(1)


def wait_for(what, condition, timeout):
    """Polls ``condition`` (returning a truthy value when met) every 0.1 s; that value. Gives
    up early when the plan failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and "error" not in outcome:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise SystemExit(f"gave up waiting for {what}: {outcome.get('error', f'not within {timeout} s')}")


def live_executors():
    return {e["id"]: e for e in rest("/executors") if e["id"] != "driver"}


evidence = {"app": app, "events": {}}
outcome = {}
first = wait_for("two executors", lambda: (lambda ex: ex if len(ex) == 2 else None)(live_executors()), 120)
evidence["first_executors"] = sorted(first)
evidence["events"]["executors_up"] = now()


def slow_triple(v):
    time.sleep(DELAY)
    return None if v is None else v * 3 + 1


spark_substrait.register_function(spark, URN, "slow_triple", spark_function=udf(slow_triple, "bigint"))
spark.range(0, ROWS, 1, PARTITIONS).selectExpr("id", "(id * 7919) % 10007 AS v").createOrReplaceTempView("fault_data")


def i64(required=False):
    return {"i64": {"nullability": "NULLABILITY_REQUIRED" if required else "NULLABILITY_NULLABLE"}}


def field(i):
    return {"selection": {"directReference": {"structField": {"field": i}}, "rootReference": {}}}


def call(anchor, out, *args):
    return {"scalarFunction": {"functionReference": anchor, "outputType": out,
                               "arguments": [{"value": a} for a in args]}}


def measure(anchor, out, *args):
    return {"measure": {"functionReference": anchor, "outputType": out,
                        "phase": "AGGREGATION_PHASE_INITIAL_TO_RESULT", "invocation": "AGGREGATION_INVOCATION_ALL",
                        "arguments": [{"value": a} for a in args]}}


PLAN = json.dumps({
    "version": {"minorNumber": 108, "producer": "spark-substrait tests"},
    "extensionUrns": [{"extensionUrnAnchor": 1, "urn": "extension:io.substrait:functions_arithmetic"},
                      {"extensionUrnAnchor": 2, "urn": "extension:io.substrait:functions_aggregate_generic"},
                      {"extensionUrnAnchor": 3, "urn": URN}],
    "extensions": [
        {"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 1, "name": "modulus:i64_i64"}},
        {"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 2, "name": "power:i64_i64"}},
        {"extensionFunction": {"extensionUrnReference": 3, "functionAnchor": 3, "name": "slow_triple:i64"}},
        {"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 4, "name": "sum:i64"}},
        {"extensionFunction": {"extensionUrnReference": 2, "functionAnchor": 5, "name": "count:"}}],
    "relations": [{"root": {"names": ["g", "sum_sq", "sum_slow", "n"], "input": {"sort": {
        "sorts": [{"expr": field(0), "direction": "SORT_DIRECTION_ASC_NULLS_LAST"}],
        "input": {"aggregate": {
            "groupingExpressions": [field(0)],
            "groupings": [{"expressionReferences": [0]}],
            "measures": [measure(4, i64(), field(1)), measure(4, i64(), field(2)), measure(5, i64(True))],
            "input": {"project": {
                "common": {"emit": {"outputMapping": [2, 3, 4]}},
                "expressions": [call(1, i64(True), field(0), {"literal": {"i64": "16"}}),
                                call(2, i64(True), field(1), {"literal": {"i64": "2"}}),
                                call(3, i64(), field(1))],
                "input": {"read": {"common": {"direct": {}}, "namedTable": {"names": ["fault_data"]},
                                   "baseSchema": {"names": ["id", "v"], "struct": {
                                       "types": [i64(True), i64(True)],
                                       "nullability": "NULLABILITY_REQUIRED"}}}}}}}}}}}}]})

df = spark.read.substrait(PLAN)
# What runs on the executors: ExactMath (the jar reached them) and the Python UDF.
evidence["plan_physical"] = df._jdf.queryExecution().executedPlan().toString()


def run_plan():
    # A job group (thread-local in PySpark's pinned-thread mode): the stages of this plan.
    sc.setJobGroup(GROUP, "the Substrait plan under test")
    try:
        outcome["rows"] = [list(r) for r in df.collect()]
    except Exception as e:  # noqa: BLE001 - reported to the test, which fails on it
        outcome["error"] = f"{type(e).__name__}: {e}"
    outcome["finished"] = now()


evidence["events"]["plan_started"] = now()
runner = threading.Thread(target=run_plan, daemon=True)
runner.start()


def udf_stage():
    """The plan's stage of PARTITIONS tasks (the one calling the UDF), once tasks run on both
    executors and at least two have finished: mid-stage."""
    jobs = [j for j in rest("/jobs") if j.get("jobGroup") == GROUP]
    stage_ids = {s for j in jobs for s in j["stageIds"]}
    for stage in rest("/stages?status=active"):
        if stage["stageId"] in stage_ids and stage["numTasks"] == PARTITIONS and stage["numCompleteTasks"] >= 1:
            busy = {i for i, e in live_executors().items() if e["activeTasks"] > 0}
            if busy == set(first):
                return stage
    return None


stage = wait_for("the UDF stage running on both executors", udf_stage, 120)
evidence["stage"] = {"id": stage["stageId"], "attempt": stage["attemptId"],
                     "complete_at_kill": stage["numCompleteTasks"], "active_at_kill": stage["numActiveTasks"]}
victim = min(first, key=int)


def executor_pid(executor_id):
    """The executor's JVM: a process of one of our workers' process groups (the worker starts
    it) whose command line names this application and this executor id."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getpgid(int(entry)) not in worker_pgids:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                args = f.read().split(b"\0")
        except (OSError, ProcessLookupError):
            continue
        if (b"org.apache.spark.executor.CoarseGrainedExecutorBackend" in args and app.encode() in args
                and args[args.index(b"--executor-id") + 1] == executor_id.encode()):
            return int(entry)
    return None


pid = executor_pid(victim)
assert pid is not None, f"no process for executor {victim}"
os.kill(pid, signal.SIGKILL)
evidence["events"]["killed"] = now()
evidence["killed"] = {"executor": victim, "pid": pid}


def gone():
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1].startswith("Z")   # a zombie, not yet reaped by its worker
    except FileNotFoundError:
        return True


wait_for("the killed process to be gone", gone, 30)
evidence["events"]["process_gone"] = now()
wait_for("the driver to remove the executor", lambda: victim not in live_executors(), 120)
evidence["events"]["executor_removed"] = now()
new = wait_for("a new executor", lambda: sorted(set(live_executors()) - set(first)), 120)
evidence["events"]["new_executor"] = now()
evidence["new_executors"] = new
runner.join(300)
assert not runner.is_alive(), "the plan did not finish within 300 s of the kill"
evidence["events"]["plan_finished"] = outcome["finished"]
evidence["plan"] = outcome

evidence["removed"] = [{"id": e["id"], "isActive": e["isActive"], "removeReason": e.get("removeReason"),
                        "totalTasks": e["totalTasks"], "failedTasks": e["failedTasks"]}
                       for e in rest("/allexecutors") if e["id"] != "driver"]
attempts = []
for attempt in rest(f"/stages/{stage['stageId']}"):
    tasks = rest(f"/stages/{stage['stageId']}/{attempt['attemptId']}/taskList?length=1000")
    attempts.append({"attempt": attempt["attemptId"], "status": attempt["status"],
                     "tasks": [{"index": t["index"], "attempt": t["attempt"], "executor": t["executorId"],
                                "status": t["status"], "error": (t.get("errorMessage") or "")[:300]}
                               for t in tasks]})
evidence["stage_attempts"] = attempts

# The same query in Spark SQL, on the same view, by the same driver after the fault.
sql = ("SELECT id % 16 AS g, sum(v * v) AS sum_sq, sum(v * 3 + 1) AS sum_slow, count(*) AS n "
       "FROM fault_data GROUP BY id % 16 ORDER BY g")
evidence["sql_rows"] = [list(r) for r in spark.sql(sql).collect()]
evidence["events"]["sql_finished"] = now()
spark.stop()
with open(evidence_path, "w", encoding="utf-8") as f:
    json.dump(evidence, f, indent=1)
