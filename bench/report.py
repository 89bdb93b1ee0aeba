"""Turns a bench run's TSV files into tables and a PNG plot, and puts them into
docs/performance.md between the markers of their section (the rest of the page is prose).

  python bench/report.py tpch RESULTS_DIR --sf 1 --reps 5
  python bench/report.py tpcds RESULTS_DIR --sf 1 --reps 5
  python bench/report.py scaling RESULTS_DIR
"""

import argparse
import csv
import math
import os
import platform
import re
import statistics
import subprocess
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "performance.md"
PRODUCERS = ("isthmus", "duckdb", "datafusion", "ibis")
# TPC-DS has one producer more: our own writer's plan of the SQL's DataFrame (QueryBench.Written).
WRITTEN = "written"
TITLES = {"tpch": "TPC-H", "tpcds": "TPC-DS"}
# bench/run tpch --anchor: substrait-java's Spark module converting the same plans, side "anchor-<producer>",
# and its own plans as one more producer (shown only when the run has them).
ANCHOR = "anchor-"
CONTROL = "sql-again"  # bench/run --control: an A/A side, the SQL against itself
ANCHOR_PRODUCER = "substrait-java"
ANCHOR_SOURCE = REPO / "bench" / "anchor" / "cache" / "substrait-java" / "SOURCE"


def read_tsv(path: Path):
    with open(path, encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        mem = f", {kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, AttributeError):
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()
    versions = {}
    for line in (REPO / "requirements-test.txt").read_text().splitlines():
        if "==" in line:
            k, v = line.split("==", 1)
            versions[k.strip()] = v.strip()
    sbt = (REPO / "build.sbt").read_text()
    substrait_java = re.search(r'isthmusVersion = "([^"]+)"', sbt).group(1)
    # bench/run runs on $SPARK_VERSION when set (--anchor: a Spark 4.0), else on the pinned pyspark.
    spark = os.environ.get("SPARK_VERSION") or versions.get("pyspark")
    return (f"{cpu}, {os.cpu_count()} cores{mem}; {platform.system()} {platform.release()}; "
            f"{java[0] if java else 'java ?'}; Spark {spark} (local[2]), "
            f"isthmus {substrait_java}, DuckDB {versions.get('duckdb')}, DataFusion {versions.get('datafusion')}, "
            f"ibis-substrait {ibis_substrait_version()}")


def ibis_substrait_version() -> str:
    """The ibis-substrait bench/run installs (bench/.venv-ibis)."""
    run = (REPO / "bench" / "run").read_text()
    substrait = re.search(r"ibis-substrait==([0-9.]+)", run)
    ibis = re.search(r"ibis-framework\[duckdb\]==([0-9.]+)", run)
    return f"{substrait.group(1)} (ibis {ibis.group(1)})" if substrait and ibis else "?"


def replace_section(name: str, body: str) -> None:
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    text = DOC.read_text(encoding="utf-8")
    if begin not in text:
        raise SystemExit(f"docs/performance.md has no {begin} marker")
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    DOC.write_text(f"{head}{begin}\n{body.strip()}\n{end}{tail}", encoding="utf-8")


def pyplot():
    """matplotlib's pyplot, or None without matplotlib (bench/run installs it; the smoke test does not)."""
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def fmt_ms(ns: float) -> str:
    return f"{ns / 1e6:.1f}" if ns >= 1e7 else f"{ns / 1e6:.2f}"


def anchor_source() -> str:
    """The substrait-java release bench/anchor/build extracted, e.g. v0.89.1 (8d655ba6ce)."""
    try:
        kv = dict(line.split("=", 1) for line in ANCHOR_SOURCE.read_text().splitlines() if "=" in line)
        return f"{kv['ref']} ({kv['commit'][:10]})"
    except (OSError, KeyError):
        return "?"


def not_timed(r: dict) -> str:
    """Why a plan was not timed, for a table cell: the status; the anchor's refusal with its first line."""
    if not r:
        return "— (no plan)"
    if r["producer"].startswith(ANCHOR) and r["status"] in ("conversion failed", "execution failed"):
        why = "refused" if r["status"] == "conversion failed" else "execution failed"
        detail = r["detail"] if len(r["detail"]) <= 100 else r["detail"][:99] + "…"
        return f"— ({why}: {detail})".replace("|", "\\|")
    return f"— ({r['status']})"


def ratio(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.2f}"


def record(into: dict, ratio_of, side: str, base: str, q: int) -> list:
    """`side`'s convert and exec medians of query `q` over `base`'s, added to `into`; as table cells."""
    cells = []
    for phase in ("convert", "exec"):
        r = ratio_of(side, base, q, phase)
        into[phase].append(r)
        cells.append(f"{r:.2f}")
    return cells


def settled(settle_rounds: str) -> str:
    """How QueryBench's --settle-rounds ran the queries, for the run's header ("" without it)."""
    if int(settle_rounds) <= 0:
        return ""
    return (f", query by query: each query's own warm-up, then {settle_rounds} more unrecorded rounds, "
            "its repetitions and its second stage before the next query")


def queries_report(benchmark: str, results: Path, sf: str, reps: str, plot: Path, warmup: str = "2",
                   round_ms: str = "600", settle_rounds: str = "0") -> str:
    """The per-query tables of a TPC-H or TPC-DS run (QueryBench), its geomeans and its plot."""
    times = defaultdict(list)  # (side, query, phase) -> nanos
    first = defaultdict(list)  # the same, the whole pass alone (QueryBench's second stage records reps >= --reps)
    for r in read_tsv(results / "timings.tsv"):
        key = (r["side"], int(r["query"]), r["phase"])
        times[key].append(int(r["nanos"]))
        if int(r["rep"]) < int(reps):
            first[key].append(int(r["nanos"]))
    med = {k: statistics.median(v) for k, v in times.items()}
    first_med = {k: statistics.median(v) for k, v in first.items()}
    confirmed = read_tsv(results / "confirmed.tsv") if (results / "confirmed.tsv").exists() else []
    chosen = {(c["side"], int(c["query"])) for c in confirmed}

    def ratio_of(side, base, q, phase):
        # A pair with the second stage: over all of its and the SQL's executions; any other pair over
        # the whole pass alone on both sides (the SQL's later executions ran beside other sides).
        m = med if (side, q) in chosen else first_med
        return m[(side, q, phase)] / m[(base, q, phase)]
    status = {(r["producer"], int(r["query"])): r for r in read_tsv(results / "status.tsv")}
    queries = sorted({q for (_, q, _) in med})
    producers = list(PRODUCERS) + [p for p in (WRITTEN, ANCHOR_PRODUCER) if any(k[0] == p for k in status)]
    # bench/run --control: the SQL timed again as a side of its own (no status: it is the SQL).
    producers += [CONTROL] if any(k[0] == CONTROL for k in med) else []
    anchored = [p for p in producers if any(k[0] == ANCHOR + p for k in status)]

    # Short queries execute several rounds per repetition (QueryBench's --round-ms).
    executions = {q: len(first[("sql", q, "exec")]) for q in queries if first[("sql", q, "exec")]}
    several = ", ".join(f"Q{q} {k}" for q, k in executions.items() if k > int(reps))
    lines = [f"Run: {TITLES[benchmark]} SF {sf}, {reps} repetitions (conversion: each repetition times it "
             f"{len(times[next(iter(times))]) // int(reps) if times else 0} times"
             f"{'; executions in all of the queries whose SQL ran under ' + round_ms + ' ms, which execute up to 4 rounds per repetition: ' + several if several else ''}"
             f") after {warmup} unrecorded rounds"
             f"{settled(settle_rounds)}, sides interleaved "
             f"in an order rotating by repetition; "
             f"{machine()}.", ""]
    # Per query: SQL medians, then per producer the two ratios.
    head = "| Query | SQL analyze ms | SQL exec ms | " + " | ".join(
        f"{p} convert/SQL | {p} exec/SQL" for p in producers) + " |"
    lines += [head, "|" + "---|" * (3 + 2 * len(producers))]
    ratios = {p: {"convert": [], "exec": []} for p in producers}
    for q in queries:
        row = [f"Q{q}", fmt_ms(med[("sql", q, "convert")]), fmt_ms(med[("sql", q, "exec")])]
        for p in producers:
            if (p, q, "convert") in med:
                row += record(ratios[p], ratio_of, p, "sql", q)
            else:
                why = status.get((p, q), {}).get("status", "no plan")
                row += [f"— ({why})", ""]
        lines.append("| " + " | ".join(row) + " |")
    # The anchor: substrait-java's Spark module on the same plans, the same ratios to the SQL.
    anchor = {p: {"convert": [], "exec": []} for p in anchored}
    versus = {p: {"convert": [], "exec": []} for p in anchored}  # ours/anchor where both are timed
    if anchored:
        lines += ["", f"Anchor: substrait-java's Spark module (`ToLogicalPlan`, {anchor_source()}) converting the "
                  "same plans (plan bytes → analyzed DataFrame), checked and timed in the same process:", "",
                  "| Query | " + " | ".join(f"{p} anchor convert/SQL | {p} anchor exec/SQL" for p in anchored) + " |",
                  "|" + "---|" * (1 + 2 * len(anchored))]
        for q in queries:
            row = [f"Q{q}"]
            for p in anchored:
                a = ANCHOR + p
                if (a, q, "convert") in med:
                    row += record(anchor[p], ratio_of, a, "sql", q)
                    if (p, q, "convert") in med:
                        record(versus[p], ratio_of, p, a, q)
                else:
                    row += [not_timed(status.get((a, q), {})), ""]
            lines.append("| " + " | ".join(row) + " |")

    head = ("| Producer | queries timed | convert/SQL geomean | exec/SQL geomean | exec/SQL max | exec/SQL above 1.10 |"
            " above 1.10 after the whole pass | exec/SQL geomean of the whole pass |")
    if anchored:
        head += (" anchor queries timed | anchor convert/SQL geomean | anchor exec/SQL geomean | anchor exec/SQL max |"
                 " ours/anchor convert geomean | ours/anchor exec geomean |")
    lines += ["", head, "|" + "---|" * head[1:].count("|")]
    for p in producers:
        r = ratios[p]
        mx = max(r["exec"]) if r["exec"] else float("nan")
        above = sum(1 for x in r["exec"] if x > 1.10)
        # The whole pass alone: the geometric mean the second stage cannot bias (it only gives
        # the pairs above its threshold more executions, and so a chance to come down, not up).
        first_pass = [first_med[(p, q, "exec")] / first_med[("sql", q, "exec")] for q in queries
                      if (p, q, "exec") in first_med and ("sql", q, "exec") in first_med]
        above_first = sum(1 for x in first_pass if x > 1.10)
        line = (f"| {p} | {len(r['exec'])} | {ratio(geomean(r['convert']))} | {ratio(geomean(r['exec']))} | {ratio(mx)} |"
                f" {above} | {above_first} | {ratio(geomean(first_pass))} |")
        if anchored:
            a, v = anchor.get(p), versus.get(p)
            if a is None:
                line += " — | | | | | |"
            else:
                amx = max(a["exec"]) if a["exec"] else float("nan")
                line += (f" {len(a['exec'])} | {ratio(geomean(a['convert']))} | {ratio(geomean(a['exec']))} | {ratio(amx)} |"
                         f" {ratio(geomean(v['convert']))} | {ratio(geomean(v['exec']))} |")
        lines.append(line)
    if confirmed:
        lines += ["", f"Second stage: the {len(confirmed)} pairs whose exec/SQL after the whole pass was above "
                  "the threshold fixed before the run executed "
                  f"{confirmed[0]['confirm_reps']} more repetitions, alternating with the SQL in the same rounds "
                  "(the SQL against itself chosen by the same rule); their ratio above is over all executions:", "",
                  "| Side | Query | exec/SQL after the whole pass | exec/SQL over all executions |", "|---|---|---|---|"]
        for c in confirmed:
            q = int(c["query"])
            lines.append(f"| {c['side']} | Q{q} | {float(c['first_pass_ratio']):.2f} | "
                         f"{ratio_of(c['side'], 'sql', q, 'exec'):.2f} |")
    lines += ["", f"![convert/SQL and exec/SQL per query]({plot.name})", "",
              "Check per plan (rows against the SQL's, optimized plan against the SQL's; "
              "PlanIdentity normalises expression ids, alias names and the final rename):", "",
              "| Producer | Query | status | rows | optimized plan | detail |", "|---|---|---|---|---|---|"]
    def order(p):  # the producers, then the anchor on each producer's plans
        return (1, producers.index(p[len(ANCHOR):])) if p.startswith(ANCHOR) else (0, producers.index(p))
    for (p, q), r in sorted(status.items(), key=lambda kv: (order(kv[0][0]), kv[0][1])):
        # The error's "found ..." part says what is missing; its location is long. The anchor's: its first line.
        found = None if p.startswith(ANCHOR) else re.search(r"found (.*?)(\. Expected|$)", r["detail"])
        detail = (found.group(1) if found else r["detail"]).replace("|", "\\|")[:160]
        lines.append(f"| {p} | Q{q} | {r['status']} | {r['rows']} | {r['identity']} | {detail} |")

    plt = pyplot()
    if plt is None:
        return "\n".join(lines)
    # TPC-DS' 99 queries need a wider figure than TPC-H's 22.
    fig, axes = plt.subplots(1, 2, figsize=(max(12, len(queries) * 0.3), 4.5), sharey=False)
    width = 0.8 / len(producers)
    for ax, phase, title in ((axes[0], "convert", "conversion / SQL parse+analyze"),
                             (axes[1], "exec", "execution (collect) / SQL's")):
        for i, p in enumerate(producers):
            xs = [k + i * width for k, q in enumerate(queries) if (p, q, phase) in med]
            ys = [ratio_of(p, "sql", q, phase) for q in queries if (p, q, phase) in med]
            ax.bar(xs, ys, width, label=p)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xticks([k + 0.4 - width / 2 for k in range(len(queries))])
        ax.set_xticklabels([f"Q{q}" for q in queries], rotation=90, fontsize=7)
        ax.set_title(f"{title}, SF {sf}")
        ax.set_ylabel("median ratio (lower is faster)")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(plot, dpi=90)
    return "\n".join(lines)


def scaling(results: Path, plot: Path) -> str:
    rows = read_tsv(results / "scaling.tsv")
    by_shape = defaultdict(list)
    for r in rows:
        by_shape[r["shape"]].append(r)
    lines = [f"Machine: {machine()}.", "",
             "| Shape | sizes | median ms at each size | fitted ms per unit (least squares) | log-log slope | slope of the last step "
             "| of which decoding and conversion, ms | their slope of the last step | outcome |",
             "|---|---|---|---|---|---|---|---|---|"]
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5)) if plt else (None, None)
    for shape, rs in by_shape.items():
        ok = [r for r in rs if r["outcome"] == "ok"]
        sizes = [int(r["size"]) for r in ok]
        ms = [float(r["median_ms"]) for r in ok]
        fails = [f"{r['outcome']} at {r['size']}" for r in rs if r["outcome"] != "ok"]
        per_unit = slope = last = float("nan")
        if len(ok) >= 2:
            n = len(sizes)
            mx, my = sum(sizes) / n, sum(ms) / n
            per_unit = (sum((x - mx) * (y - my) for x, y in zip(sizes, ms, strict=True))
                        / sum((x - mx) ** 2 for x in sizes))
            lx, ly = [math.log(x) for x in sizes], [math.log(max(y, 1e-6)) for y in ms]
            mlx, mly = sum(lx) / n, sum(ly) / n
            slope = sum((x - mlx) * (y - mly) for x, y in zip(lx, ly, strict=True)) / sum((x - mlx) ** 2 for x in lx)
            # Over the whole range a fixed cost flattens the slope; the last step shows the growth at the top (1: linear).
            last = math.log(max(ms[-1], 1e-6) / max(ms[-2], 1e-6)) / math.log(sizes[-1] / sizes[-2])
            if ax:
                ax.loglog(sizes, ms, marker="o", label=shape)
        # Decoding and conversion without Spark's analysis (columns a run before them lacks).
        ours = [float(r["convert_ms"]) for r in ok if r.get("convert_ms") not in (None, "", "NaN", "nan")]
        ours_last = (math.log(max(ours[-1], 1e-6) / max(ours[-2], 1e-6)) / math.log(sizes[-1] / sizes[-2])
                     if len(ours) == len(sizes) >= 2 else float("nan"))
        lines.append(f"| {shape} | {', '.join(map(str, sizes))} | {', '.join(f'{m:.1f}' for m in ms)} | "
                     f"{per_unit:.4f} | {slope:.2f} | {last:.2f} | {', '.join(f'{m:.1f}' for m in ours) or '—'} | "
                     f"{ratio(ours_last)} | {'; '.join(fails) or 'ok'} |")
    if plt is None:
        return "\n".join(lines)
    ax.set_xlabel("plan size (N)")
    ax.set_ylabel("median conversion ms")
    ax.set_title("conversion time vs plan size")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(plot, dpi=90)
    lines += ["", f"![conversion time vs plan size]({plot.name})"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=("tpch", "tpcds", "scaling"))
    parser.add_argument("results", type=Path)
    parser.add_argument("--sf", default="1")
    parser.add_argument("--reps", default="5")
    parser.add_argument("--warmup", default="2")
    parser.add_argument("--round-ms", default="600")
    parser.add_argument("--settle-rounds", default="0")
    parser.add_argument("--doc", action="store_true", help="write into docs/performance.md")
    args = parser.parse_args()
    plot_dir = REPO / "docs" if args.doc else args.results
    if args.kind in TITLES:
        body = queries_report(args.kind, args.results, args.sf, args.reps, plot_dir / f"performance-{args.kind}.png",
                              args.warmup, args.round_ms, args.settle_rounds)
    else:
        body = scaling(args.results, plot_dir / "performance-scaling.png")
    (args.results / f"{args.kind}.md").write_text(body + "\n", encoding="utf-8")
    if args.doc:
        replace_section(args.kind, body)
    print(body)


if __name__ == "__main__":
    main()
