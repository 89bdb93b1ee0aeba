"""One Spark driver running a list of steps (SQL statements, Substrait plans, settings) and
printing each step's rows or error as a JSON line, so one process does many checks; the
test compares the lines. Run by a Spark line's own Python (tests/platforms/sparklines.py):

    python tables_driver.py JOB.json

JOB: {"conf": {...}, "hive": bool, "steps": [{"id": ..., "sql" | "plan" | "set" | "wait_table": ...,
"setup": bool}]} (``wait_table``: until the catalog has that table, ``seconds`` at most). A setup step that fails stops the driver (exit 2): what follows would
check nothing."""

import datetime
import decimal
import json
import sys
import time

from pyspark.sql import SparkSession


def value(v):
    if isinstance(v, (decimal.Decimal, datetime.date, datetime.datetime)):
        return str(v)
    if isinstance(v, (bytes, bytearray)):
        return v.hex()
    if isinstance(v, list):
        return [value(x) for x in v]
    if hasattr(v, "asDict"):
        return {k: value(x) for k, x in v.asDict().items()}
    return v


def error(e: BaseException) -> dict:
    getter = getattr(e, "getCondition", None) or getattr(e, "getErrorClass", None)
    try:
        condition = getter() if getter else None
    except Exception:  # noqa: BLE001 - an error without a condition
        condition = None
    return {"type": type(e).__name__, "condition": condition, "message": str(e)[:4000]}


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        job = json.load(f)
    builder = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
    for k, v in job.get("conf", {}).items():
        builder = builder.config(k, v)
    if job.get("hive"):
        builder = builder.enableHiveSupport()
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    import spark_substrait  # noqa: F401 - adds spark.read.substrait

    for step in job["steps"]:
        out = {"id": step.get("id")}
        try:
            if "set" in step:
                for k, v in step["set"].items():
                    spark.conf.set(k, v)
                rows = []
            elif "wait_table" in step:  # another driver's table, through a shared metastore
                deadline = time.monotonic() + step.get("seconds", 300)
                while not spark.catalog.tableExists(step["wait_table"]):
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"no table {step['wait_table']} after {step.get('seconds', 300)} s")
                    time.sleep(1)
                rows = []
            elif "sql" in step:
                rows = spark.sql(step["sql"]).collect()
            else:
                rows = spark.read.substrait(step["plan"]).collect()
            out["rows"] = [[value(v) for v in r] for r in rows]
        except Exception as e:  # noqa: BLE001 - every error is a result to compare
            out["error"] = error(e)
            if step.get("setup"):
                print(json.dumps(out), flush=True)
                spark.stop()
                return 2
        if out["id"] is not None:
            print(json.dumps(out, default=str), flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
