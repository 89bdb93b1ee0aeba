"""dev/function-semantics: the differential run of every mapped function (see README.md beside this file).

    dev/function-semantics                      every function, every option combination (docs/function-semantics.md)
    dev/function-semantics --ci                 the pinned subset CI runs (each option value once, fewer rows)
    dev/function-semantics --only divide,add    some functions
    dev/function-semantics --seed 7             another seed (printed, so a failure reproduces)
    dev/function-semantics --doc --resume       go on with a stopped run (each spec's result is checkpointed)
"""

import argparse
import json
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import catalog  # noqa: E402
from families import load_all  # noqa: E402
from run import Config, Runner  # noqa: E402
from spec import SPECS  # noqa: E402

FAILING = ("wrong", "foreign")


def spark_session(codegen: bool = True):
    from pyspark.sql import SparkSession

    import spark_substrait

    builder = (SparkSession.builder.master("local[2]").appName("function-semantics")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2").config("spark.sql.session.timeZone", "UTC")
               .config("spark.driver.memory", "2g")
               # Spark's TIME (precision_time) is off by default on Spark 4.1+: on, to run its mappings
               .config("spark.sql.timeType.enabled", "true"))
    if codegen:
        # A projection of a virtual table would be folded into a local relation by the
        # optimizer (interpreted); without that rule each call runs in generated code.
        builder = builder.config("spark.sql.optimizer.excludedRules",
                                 "org.apache.spark.sql.catalyst.optimizer.ConvertToLocalRelation")
    session = spark_substrait.configure(builder).getOrCreate()
    session.sparkContext.setLogLevel("OFF")
    # PySpark logs every failed query's stack trace; the run reports failures itself.
    import logging
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    logging.getLogger("py4j").setLevel(logging.CRITICAL)
    return session


def run(cfg: Config, out_json: str = None, log=lambda *a: print(*a, flush=True), resume: bool = False):
    """Runs the specs; returns each one's result as JSON-ready dicts, and the seconds taken.

    With `out_json`, each spec's result is also appended to `out_json`.partial.jsonl as soon as
    it is known, so a full run (hours on two cores) that is stopped can go on with `resume`:
    the specs already in the checkpoint are taken from it. Every spec draws its seed from the
    run's seed in the same order either way, so a resumed run gives each the same inputs.
    """
    load_all()
    functions = catalog.load()
    spark = spark_session()
    runner = Runner(spark, cfg)
    rng = random.Random(cfg.seed)
    log(f"function-semantics: seed {cfg.seed}, {'full' if cfg.full else 'ci'} run, "
        f"{len(SPECS)} function specs")
    checkpoint = out_json + ".partial.jsonl" if out_json else None
    header = {"seed": cfg.seed, "full": cfg.full, "only": sorted(cfg.only or [])}
    done = _checkpointed(checkpoint, header, log) if resume else {}
    if checkpoint and not done:
        with open(checkpoint, "w", encoding="utf-8") as f:
            f.write(json.dumps(header) + "\n")
    results = []
    start = time.time()
    for key, spec in sorted(SPECS.items()):
        # Drawn for every spec, run or not: a run of some functions (--only) gives each the
        # inputs the whole run gives it.
        spec_seed = rng.random()
        if cfg.only and spec.name not in cfg.only:
            continue
        if repr(key) in done:
            results.append(done[repr(key)])
            continue
        fn = functions.get(key)
        if fn is None:
            raise SystemExit(f"spec {key} names no function of the pinned YAMLs")
        plans_before = runner.spark.plans_run
        res = runner.run_function(spec, fn, random.Random(spec_seed))
        result = dict(_jsonable(res), key=repr(key), plans=runner.spark.plans_run - plans_before)
        results.append(json.loads(json.dumps(result, default=str)))  # as the checkpoint and out_json hold it
        if checkpoint:
            with open(checkpoint, "a", encoding="utf-8") as f:
                f.write(json.dumps(result, default=str) + "\n")
        unexplained = sum(c["unexplained"] for c in res.engines.values())
        log(f"  {fn.ext}:{fn.name:<24} {res.calls:4} calls {res.cases:7} cases  exact {res.verdicts['exact']:7}"
            f"  open {res.verdicts['spec_open']:5}  refused {res.verdicts['refused']:5}  wrong {res.verdicts['wrong']:4}"
            f"  foreign {res.verdicts['foreign']:4}  engines unexplained {unexplained:4}  {res.seconds:6.1f}s")
        for k, ex in res.examples.items():
            for e in ex[:3]:
                log(f"      {k}: {e}")
    if done:
        log(f"  {len(done)} specs taken from the checkpoint {checkpoint}")
    elapsed = time.time() - start + sum(d["seconds"] for d in done.values())
    if out_json:
        with open(out_json, "w", encoding="utf-8") as f:
            json.dump({"seed": cfg.seed, "full": cfg.full, "seconds": elapsed,
                       "plans": sum(r["plans"] for r in results), "results": results}, f, indent=1, default=str)
    spark.stop()
    return results, elapsed


def _checkpointed(checkpoint, header, log) -> dict:
    """The results of an earlier run of the same seed, mode and functions, by spec key."""
    if not checkpoint or not os.path.exists(checkpoint):
        return {}
    with open(checkpoint, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or json.loads(lines[0]) != header:
        log(f"  the checkpoint {checkpoint} is of another run: starting afresh")
        return {}
    done = {}
    for line in lines[1:]:
        try:
            result = json.loads(line)
        except json.JSONDecodeError:  # the line a stopped run was writing
            break
        done[result["key"]] = result
    return done


def _jsonable(r):
    d = dict(r.__dict__)
    d["pairs"] = [[k[0], k[1], dict(v)] for k, v in r.pairs.items()]
    d["notes"] = {k: dict(v) for k, v in r.notes.items()}
    d["engines"] = {k: dict(v) for k, v in r.engines.items()}
    d["verdicts"] = dict(r.verdicts)
    d["examples"] = dict(r.examples)
    return d


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ci", action="store_true", help="the pinned subset: each option value once, fewer rows")
    p.add_argument("--only", help="comma-separated function names")
    p.add_argument("--seed", type=int, default=20261126)
    p.add_argument("--json", help="write the results here")
    p.add_argument("--no-engines", action="store_true", help="compare with the model only")
    p.add_argument("--doc", action="store_true", help="write docs/function-semantics.md from this run")
    p.add_argument("--doc-from", help="write docs/function-semantics.md from a run's JSON (no run)")
    p.add_argument("--resume", action="store_true",
                   help="go on with a stopped run of the same seed and mode: specs in its checkpoint "
                        "(the JSON's .partial.jsonl) are not run again")
    args = p.parse_args(argv)
    if args.doc_from:
        import report
        with open(args.doc_from, encoding="utf-8") as f:
            data = json.load(f)
        report.write(data["results"], data, os.path.join(catalog.ROOT, "docs", "function-semantics.md"))
        return 0
    cfg = Config(full=not args.ci, seed=args.seed, random_rows=8 if args.ci else 48, error_rows=3 if args.ci else 24,
                 max_rows=60 if args.ci else None,
                 literal_rows=12 if args.ci else 40, only=set(args.only.split(",")) if args.only else None,
                 engines=() if args.no_engines else ("duckdb", "datafusion"))
    out_json = args.json or os.path.join(catalog.ROOT, "build", "function-semantics.json")
    results, elapsed = run(cfg, out_json, resume=args.resume)
    with open(out_json, encoding="utf-8") as f:
        data = json.load(f)
    bad = sum(r["verdicts"].get(v, 0) for r in results for v in FAILING)
    unexplained = sum(c.get("unexplained", 0) for r in results for c in r["engines"].values())
    import report
    refused = report.unexplained_refusals(data["results"])
    for (ext, name, option, value), detail in sorted(refused.items()):
        print(f"  refusal not explained in refusals.py: {ext}:{name} {option} = {value}: {detail[:200]}")
    if args.doc:
        report.write(data["results"], data, os.path.join(catalog.ROOT, "docs", "function-semantics.md"))
    known = sum(r["verdicts"].get("open_defect", 0) for r in results)
    print(f"function-semantics: {sum(r['cases'] for r in results)} cases, {bad} wrong or foreign, {known} open defects "
          f"(open_defects.py), "
          f"{unexplained} unexplained engine differences, {len(refused)} unexplained refusals, {elapsed:.0f} s "
          f"(seed {cfg.seed})")
    return 1 if bad or unexplained or refused else 0


if __name__ == "__main__":
    sys.exit(main())
