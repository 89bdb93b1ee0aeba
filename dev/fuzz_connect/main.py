"""Mutated plans over Spark Connect, from several clients at once (``dev/fuzz --connect``).

Starts a Spark Connect server with the plugin (as tests/test_connect.py does), opens CLIENTS
sessions on it, registers the producer fixtures' tables in each, and sends the plans of a
folder (the fuzzer's dump: ``SUBSTRAIT_FUZZ_DUMP``) round-robin from one thread per client,
each read collected (at most 50 rows). Every outcome is classified: rows, the project's
error (by condition), a Spark data error (SQLSTATE class 22 or 21, as the same SQL gives),
FOREIGN (any other error: a bug), HANG (no answer within the timeout: a bug). At the end the
server must still answer every client. Prints the counts; exits 1 on a foreign error, a hang
or a dead server.
"""

import argparse
import json
import re
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_TABLES = ROOT / "tests" / "fixtures" / "producers" / "tables.json"
sys.path.insert(0, str(ROOT / "tests"))
from helpers import start_connect_server, stop_process_group  # noqa: E402  (the Connect tests' server helpers)


def start_server(log: Path):
    """The Connect tests' server (tests/helpers.py), with a 2 GB driver for the fuzzer's plans."""
    try:
        return start_connect_server(log, {"spark.driver.memory": "2g"}, timeout=240)
    except RuntimeError:
        sys.exit(f"the Spark Connect server did not start; its log: {log}")


def register_tables(session) -> None:
    """tables.json's tables (NULLs, duplicates, an empty table) as the session's temporary views."""
    tables = json.loads(FIXTURE_TABLES.read_text(encoding="utf-8"))
    for name, spec in tables.items():
        columns = [(c, "STRING" if t == "VARCHAR" else t) for c, t in spec["columns"]]

        def lit(v):
            return "NULL" if v is None else ("'" + v.replace("'", "''") + "'" if isinstance(v, str) else
                                           ("true" if v is True else "false" if v is False else repr(v)))
        if spec["rows"]:
            # One VALUES relation (as ProducerFixtures.registerTables, which says why not UNION ALL).
            casts = ", ".join(f"CAST(c{i} AS {t}) AS {c}" for i, (c, t) in enumerate(columns))
            values = ", ".join("(" + ", ".join(lit(v) for v in row) + ")" for row in spec["rows"])
            names = ", ".join(f"c{i}" for i in range(len(columns)))
            body = f"SELECT {casts} FROM VALUES {values} AS v({names})"
        else:
            body = "SELECT " + ", ".join(f"CAST(NULL AS {t}) AS {c}" for c, t in columns) + " WHERE false"
        session.sql(f"CREATE OR REPLACE TEMP VIEW {name} AS {body}")


CONDITION = re.compile(r"\[(SUBSTRAIT_[A-Z_]+)\]")


def classify(error: BaseException) -> str:
    text = str(error)
    m = CONDITION.search(text)
    if m:
        return f"project error {m.group(1)}"
    # PySpark's Connect client cannot turn some Arrow types into Python values (interval_compound,
    # Spark's CalendarIntervalType): the client's limitation, met by the same SQL's rows too.
    # (and collect no year-month interval: NOT_IMPLEMENTED "... in Spark Connect is not implemented").
    error_class = getattr(error, "getErrorClass", lambda: None)()
    if error_class == "UNSUPPORTED_DATA_TYPE_FOR_ARROW_CONVERSION" or \
            (error_class == "NOT_IMPLEMENTED" and "in Spark Connect is not implemented" in text):
        return f"PySpark Connect client limitation {error_class}"
    state = getattr(error, "getSqlState", lambda: None)()
    if state and (state.startswith("22") or state.startswith("21")):
        return f"Spark data error {getattr(error, 'getErrorClass', lambda: state)()}"
    first = text.strip().splitlines()[0][:160] if text.strip() else ""
    return f"FOREIGN {type(error).__name__}: {first}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", help="a folder of binary plans (the fuzzer's dump)")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per plan before it counts as a hang")
    parser.add_argument("--log", default=str(ROOT / "jvm" / "target" / "fuzz-connect-server.log"))
    args = parser.parse_args()

    from pyspark.sql import SparkSession

    import spark_substrait  # noqa: F401  (spark.read.substrait on Connect sessions)

    plans = sorted(Path(args.folder).glob("*.bin"))
    if not plans:
        sys.exit(f"no .bin plans in {args.folder}")
    Path(args.log).parent.mkdir(parents=True, exist_ok=True)
    server, url = start_server(Path(args.log))
    counts: Counter = Counter()
    examples = {}
    lock = threading.Lock()
    started = time.monotonic()
    try:
        sessions = [SparkSession.builder.remote(url).create() for _ in range(args.clients)]
        for s in sessions:
            register_tables(s)

        def client(k: int) -> None:
            session = sessions[k]
            pool = ThreadPoolExecutor(max_workers=1)
            for path in plans[k::args.clients]:
                future = pool.submit(lambda p=path: session.read.substrait(p.read_bytes()).limit(50).collect())
                try:
                    future.result(timeout=args.timeout)
                    outcome = "ran"
                except FutureTimeout:
                    outcome = "HANG"
                    session.interruptAll()
                    pool = ThreadPoolExecutor(max_workers=1)
                except Exception as e:  # noqa: BLE001 -- every error is classified
                    outcome = classify(e)
                with lock:
                    counts[outcome] += 1
                    if outcome.startswith("FOREIGN") or outcome == "HANG":
                        examples.setdefault(outcome, path.name)

        threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        alive = all(s.sql("SELECT 1").collect()[0][0] == 1 for s in sessions)
    finally:
        stop_process_group(server)
    seconds = time.monotonic() - started
    print(f"FUZZ CONNECT: {sum(counts.values())} plans from {args.clients} concurrent clients in {seconds:.0f} s")
    for outcome, n in counts.most_common():
        print(f"{n:8d}  {outcome}")
    for outcome, name in examples.items():
        print(f"  example {name} -> {outcome}")
    bad = [k for k in counts if k.startswith("FOREIGN") or k == "HANG"]
    print(f"server alive for every client at the end: {alive}")
    return 1 if bad or not alive else 0


if __name__ == "__main__":
    sys.exit(main())
