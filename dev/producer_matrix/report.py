"""The matrix table at the top of docs/producers.md (between the matrix markers), and
build/producers/matrix.md with every refused, wrong or failed plan and why."""

import json
import re
from collections import Counter
from pathlib import Path

from queries import is_tpch
from releases import RELEASES

BEGIN, END = "<!-- matrix:begin (dev/producer-matrix report) -->", "<!-- matrix:end -->"
MACHINE_PATH = re.compile(r"(/[\w.+-]+)*/(venv|site-packages|producers)/[^\s'\")]*")


def clean(text: str) -> str:
    """An error without this machine's paths (they must not reach the docs)."""
    text = re.sub(r" in (central \()?https?://\S+.*", " on Maven Central", text)  # no registry hosts in the docs
    return MACHINE_PATH.sub("…", text).replace("|", "\\|").strip()


def _load(path: Path):
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def _counts(results: dict, keep) -> Counter:
    return Counter(e["outcome"] for q, e in results.items() if keep(q))


def rows(cache: Path) -> list[str]:
    out = ["| Producer | Release | TPC-H: equal / refused / wrong / no plan | Features: equal / refused / wrong / no plan | "
           "Features read by DuckDB 1.1.3's consumer | by spark-substrait |",
           "|---|---|---|---|---|---|"]
    for r in RELEASES:
        home = cache / r.id
        failed = home / "install-failed.txt"
        writer_failed = home / "plans" / "writer-failed.txt"
        if failed.exists():
            why = clean(failed.read_text(encoding="utf-8").strip().splitlines()[-1])
            out.append(f"| {r.producer} | {r.version} | does not install: {why} | | | |")
            continue
        if writer_failed.exists():
            why = clean(writer_failed.read_text(encoding="utf-8").splitlines()[0])
            out.append(f"| {r.producer} | {r.version} | writes no plan: {why} | | | |")
            continue
        doc = _load(home / "results.json")
        if doc is None:
            out.append(f"| {r.producer} | {r.version} | not run yet | | | |")
            continue
        res = doc["results"]

        def cell(keep, res=res):
            c = _counts(res, keep)
            if not sum(c.values()):
                return "–"
            extra = "".join(f", {c[k]} {k}" for k in ("as-written", "error", "no-reference") if c[k])
            return f"{c['equal']} / {c['refused']} / {c['wrong']} / {c['producer-failed']}{extra}"

        duck = _load(home / "duckdb-consumer.json")
        feature_plans = [q for q, e in res.items() if not is_tpch(q) and e["outcome"] != "producer-failed"]
        duck_reads = "not run" if duck is None else \
            f"{sum(1 for q in feature_plans if duck.get(q, {}).get('reads'))} of {len(feature_plans)}"
        ours = sum(1 for q in feature_plans if res[q]["outcome"] in ("equal", "as-written"))
        out.append(f"| {r.producer} | {r.version} | {cell(is_tpch)} | {cell(lambda q: not is_tpch(q))} | "
                   f"{duck_reads} | {ours} of {len(feature_plans)} |")
    return out


def details(cache: Path) -> list[str]:
    out = ["# Producer matrix: every plan that did not give the producer's rows", ""]
    for r in RELEASES:
        doc = _load(cache / r.id / "results.json")
        if not doc:
            continue
        for q, e in sorted(doc["results"].items()):
            if e["outcome"] in ("refused", "error"):
                out.append(f"- {r.id} {q}: {e['outcome']} [{e['condition']}] {clean(e['message'])}")
            elif e["outcome"] == "as-written":
                out.append(f"- {r.id} {q}: as written ({e['known_bug']}): {clean(e.get('difference') or '')}")
            elif e["outcome"] in ("wrong", "no-reference"):
                out.append(f"- {r.id} {q}: {e['outcome']}: {clean(e.get('difference') or e.get('why'))}")
            elif e["outcome"] == "producer-failed":
                out.append(f"- {r.id} {q}: no plan: {clean(e['why'])[:200]}")
    return out


def write_report(cache: Path, doc: Path) -> None:
    table = "\n".join(rows(cache))
    text = doc.read_text(encoding="utf-8")
    block = f"{BEGIN}\n{table}\n{END}"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + ".*?" + re.escape(END), lambda _: block, text, flags=re.S)
    else:
        head, _, rest = text.partition("\n\n")
        text = f"{head}\n\n{block}\n\n{rest}"
    doc.write_text(text, encoding="utf-8")
    (cache / "matrix.md").write_text("\n".join(details(cache)) + "\n", encoding="utf-8")
    print(f"  wrote the matrix into {doc.name}; details in {cache / 'matrix.md'}")
