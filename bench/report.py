"""Turns a bench run's TSV files into tables and a PNG chart. With --doc (bench/run's default) the
whole report becomes a dated results file, docs/results/<date>-<kind>[-sf<SF>].md with its chart
beside it, and its summary (the geomeans per producer, or the scaling table, and the chart) goes
into docs/performance.md between the markers of its section (the rest of the page is prose).

  python bench/report.py tpch RESULTS_DIR --sf 1 --reps 5 [--doc] [--note "nothing else ran"]
  python bench/report.py tpcds RESULTS_DIR --sf 1 --reps 5
  python bench/report.py scaling RESULTS_DIR
  python bench/report.py chart docs/results/2026-12-02-tpcds-sf1.md   # the chart again, from its tables
"""

import argparse
import csv
import math
import os
import platform
import re
import statistics
import subprocess
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
# An exec/SQL ratio above this is one a reader should see named (the benchmarks' line, issue 34).
LINE = 1.10
# An exec/SQL ratio below this is named too: a plan that runs much faster than its SQL.
FAST = 0.75
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


def replace_section(doc: Path, name: str, body: str) -> None:
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    text = doc.read_text(encoding="utf-8")
    if begin not in text:
        raise SystemExit(f"{doc} has no {begin} marker")
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    doc.write_text(f"{head}{begin}\n{body.strip()}\n{end}{tail}", encoding="utf-8")


def add_run(doc: Path, line: str) -> None:
    """A new run's line on top of the page's list of runs (between <!-- runs:begin --> and its end)."""
    text = doc.read_text(encoding="utf-8")
    begin = "<!-- runs:begin -->"
    if begin not in text:
        raise SystemExit(f"{doc} has no {begin} marker")
    head, rest = text.split(begin, 1)
    doc.write_text(f"{head}{begin}\n{line}{rest}", encoding="utf-8")


def results_name(results_dir: Path, kind: str, sf: str, day: str) -> str:
    """The dated name of a run's results file (without .md): 2026-12-02-tpcds-sf1, a second run of the day -2."""
    base = f"{day}-{kind}" + ("" if kind == "scaling" else f"-sf{sf}")
    name, n = base, 1
    while (results_dir / f"{name}.md").exists():
        n += 1
        name = f"{base}-{n}"
    return name


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
                   round_ms: str = "600", settle_rounds: str = "0") -> tuple:
    """The per-query tables of a TPC-H or TPC-DS run (QueryBench) with its geomeans and its chart, written
    to `plot`: (the whole report, its summary: the geomeans per producer and the chart)."""
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
    lines += [""]
    summary_at = len(lines)
    lines += [head, "|" + "---|" * head[1:].count("|")]
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
    summary = lines[summary_at:]
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
    image = f"![exec/SQL and convert/SQL per producer, one dot per query]({plot.name})"
    lines += ["", image, "",
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

    per_query = {p: {phase: {q: ratio_of(p, "sql", q, phase) for q in queries if (p, q, phase) in med}
                     for phase in ("exec", "convert")} for p in producers}
    draw_ratios(plot, f"{TITLES[benchmark]} SF {sf}", per_query)
    return "\n".join(lines), "\n".join(summary + [""] + named_queries(per_query))


def named_queries(per_query: dict) -> list:
    """The queries the chart names, per producer, as lines under the summary table."""
    lines = []
    for p, phases in per_query.items():
        ex = phases["exec"]
        above = ", ".join(f"Q{q} {r:.2f}" for q, r in sorted(ex.items()) if r > LINE)
        below = ", ".join(f"Q{q} {r:.2f}" for q, r in sorted(ex.items()) if r < FAST)
        if ex:
            lines.append(f"- {p}: exec/SQL above {LINE:.2f}: {above or 'none'}; below {FAST:.2f}: {below or 'none'}")
    return lines


def log_fraction(x: float, lo: float, hi: float) -> float:
    """Where x sits on a log axis from lo to hi, as a fraction of its length."""
    return math.log(x / lo) / math.log(hi / lo)


def spread(positions: list, gap: float) -> list:
    """Label positions (axes fractions, ascending) moved apart to at least `gap`, kept within [0, 1]."""
    out = []
    for x in positions:
        out.append(max(x, out[-1] + gap) if out else x)
    over = out[-1] - 1 if out else 0
    if over > 0:  # pushed past the right edge: shift back, then apart again from the left
        out = [x - over for x in out]
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - gap)
    return out


def draw_ratios(plot: Path, title: str, per_query: dict) -> bool:
    """The chart of a TPC-H or TPC-DS run: per producer (a row), the distribution of its queries' exec/SQL
    ratios (left) and convert/SQL ratios (right), one dot per query on a log axis, a box of the middle half,
    the geomean as a bar; the lines at 1.0 and 1.10; the queries beyond them named (and below 0.5, shown
    at the axis' edge with their ratio). `per_query`: {producer: {"exec": {query: ratio}, "convert": {...}}}.
    False without matplotlib."""
    plt = pyplot()
    if plt is None:
        return False
    from matplotlib.ticker import FixedLocator, NullLocator
    from matplotlib.transforms import blended_transform_factory

    sides = [p for p in per_query if per_query[p]["exec"]]
    fig, axes = plt.subplots(1, 2, figsize=(13, 1.3 * len(sides) + 1.6), sharey=True,
                             gridspec_kw={"width_ratios": [3, 2]})
    for ax, phase, label in ((axes[0], "exec", "execution: exec / SQL's exec"),
                             (axes[1], "convert", "conversion: plan bytes → DataFrame / SQL's parse + analysis")):
        values = [r for p in sides for r in per_query[p][phase].values()]
        # Execution: below 0.5 a point sits at the axis' edge, its ratio written beside it (a few plans run in
        # a fraction of the SQL's time and would squeeze the rest); conversion: every point where it is.
        floor = 0.5 if phase == "exec" else min(values + [0.9])
        gap = 0.34 / (fig.get_figwidth() * ax.get_position().width)  # a label's width, as a fraction of the axis
        lo, hi = max(min(values + [0.9]) / 1.12, floor / 1.04), max(values + [1.2]) * 1.12
        ax.set_xscale("log")
        ax.set_xlim(lo, hi)
        for i, p in enumerate(sides):
            y = len(sides) - 1 - i
            points = per_query[p][phase]
            control = p == CONTROL
            ax.boxplot(list(points.values()), positions=[y], orientation="horizontal", widths=0.42,
                       whis=(0, 100), showcaps=False, patch_artist=True,
                       boxprops={"facecolor": "#e8e8e8", "edgecolor": "#999999"},
                       whiskerprops={"color": "#bbbbbb"}, medianprops={"color": "#999999"})
            # A fixed spread per query number, so that a query sits at the same height in every run.
            qs = sorted(points)
            height = {q: y + ((q * 0.618) % 1 - 0.5) * 0.4 for q in qs}
            shown = {q: max(points[q], floor) for q in qs}
            named = [q for q in qs if points[q] > LINE or (phase == "exec" and points[q] < FAST)]
            colors = ["#888888" if control else "#c0392b" if points[q] > LINE else "#2e86c1" if q in named
                      else "#1f4e79" for q in qs]
            ax.scatter([shown[q] for q in qs], [height[q] for q in qs], s=14, c=colors, zorder=3, linewidths=0,
                       marker="o")
            g = geomean(list(points.values()))
            ax.plot([g, g], [y - 0.3, y + 0.3], color="black", linewidth=2.2, zorder=4)
            ax.text(1.008, y, f"{g:.2f}", transform=blended_transform_factory(ax.transAxes, ax.transData),
                    va="center", fontsize=8)
            # The named queries in two tiers, above and below the row, each spread so that labels do not meet.
            ordered = sorted(named, key=lambda q: shown[q])
            for tier, sign in ((ordered[0::2], 1), (ordered[1::2], -1)):
                for q, f in zip(tier, spread([log_fraction(shown[q], lo, hi) for q in tier], gap), strict=True):
                    text = f"Q{q}" if points[q] >= floor else f"Q{q} {points[q]:.2f}"
                    ax.annotate(text, (shown[q], height[q]), xytext=(lo * (hi / lo) ** min(max(f, 0.02), 0.98), y + 0.45 * sign),
                                fontsize=7, ha="center", va="center",
                                color="#7b241c" if points[q] > LINE else "#1b4f72",
                                arrowprops={"arrowstyle": "-", "color": "#cccccc", "linewidth": 0.5})
        ax.text(1.008, len(sides) - 0.35, "geo-\nmean", transform=blended_transform_factory(ax.transAxes, ax.transData),
                va="center", fontsize=7, color="#555555")
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.axvline(LINE, color="#c0392b", linewidth=0.8, linestyle="--")
        ticks = [t for t in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 3.0) if lo <= t <= hi]
        ax.xaxis.set_major_locator(FixedLocator(ticks))
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xticklabels([f"{t:g}" for t in ticks])
        ax.set_title(label, fontsize=10)
        ax.set_xlabel("ratio, one dot per query (lower is faster); black bar: geomean (printed right)", fontsize=8)
        ax.grid(axis="x", color="#eeeeee", zorder=0)
    axes[0].set_yticks(range(len(sides)))
    axes[0].set_yticklabels([f"{p}\n{len(per_query[p]['exec'])} queries" for p in reversed(sides)], fontsize=9)
    axes[0].set_ylim(-0.8, len(sides) - 0.2)
    fig.suptitle(f"{title}: each producer's plans against Spark SQL's, query by query "
                 f"(named: above {LINE:.2f}; in execution also below {FAST:.2f})", fontsize=11)
    fig.tight_layout()
    fig.savefig(plot, dpi=100)
    plt.close(fig)
    return True


def scaling(results: Path, plot: Path) -> tuple:
    """The scaling run's table and chart: (the whole report, its summary: the table)."""
    rows = read_tsv(results / "scaling.tsv")
    by_shape = defaultdict(list)
    for r in rows:
        by_shape[r["shape"]].append(r)
    lines = [f"Machine: {machine()}.", "",
             "| Shape | sizes | median ms at each size | fitted ms per unit (least squares) | log-log slope | slope of the last step "
             "| of which decoding and conversion, ms | their slope of the last step | outcome |",
             "|---|---|---|---|---|---|---|---|---|"]
    series = {}  # shape -> (sizes, whole read ms, decoding and conversion ms)
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
        # Decoding and conversion without Spark's analysis (columns a run before them lacks).
        ours = [float(r["convert_ms"]) for r in ok if r.get("convert_ms") not in (None, "", "NaN", "nan")]
        ours_last = (math.log(max(ours[-1], 1e-6) / max(ours[-2], 1e-6)) / math.log(sizes[-1] / sizes[-2])
                     if len(ours) == len(sizes) >= 2 else float("nan"))
        lines.append(f"| {shape} | {', '.join(map(str, sizes))} | {', '.join(f'{m:.1f}' for m in ms)} | "
                     f"{per_unit:.4f} | {slope:.2f} | {last:.2f} | {', '.join(f'{m:.1f}' for m in ours) or '—'} | "
                     f"{ratio(ours_last)} | {'; '.join(fails) or 'ok'} |")
        series[shape] = (sizes, ms, ours)
    if not draw_scaling(plot, series):
        return "\n".join(lines), "\n".join(lines)
    return "\n".join(lines + ["", f"![conversion time vs plan size]({plot.name})"]), "\n".join(lines)


def draw_scaling(plot: Path, series: dict) -> bool:
    """Conversion time against plan size, log-log, one line per shape: the whole read (plan bytes → analyzed
    DataFrame) and its decoding and conversion alone, with a line of slope 1 (linear growth) to compare.
    `series`: {shape: (sizes, whole read ms, decoding and conversion ms)}. False without matplotlib."""
    plt = pyplot()
    if plt is None or not series:
        return False
    fig, axes = plt.subplots(1, 2, figsize=(13, 6.2), sharey=True)
    colors = plt.get_cmap("tab10").colors
    for ax, k, title in ((axes[0], 1, "whole read: plan bytes → analyzed DataFrame"),
                         (axes[1], 2, "of which decoding and conversion (without Spark's analysis)")):
        xs_all, ys_all = [], []
        for i, (shape, values) in enumerate(series.items()):
            sizes, ys = values[0], values[k]
            if len(ys) != len(sizes) or not ys:
                continue
            ax.loglog(sizes, ys, marker="o", markersize=4, color=colors[i % len(colors)], label=shape)
            xs_all += sizes
            ys_all += ys
        if xs_all:
            # Linear growth through the median point, for the eye.
            x0, x1 = min(xs_all), max(xs_all)
            y0 = statistics.median(ys_all) / statistics.median(xs_all) * x0
            ax.loglog([x0, x1], [y0, y0 * x1 / x0], color="#999999", linestyle=":", linewidth=1,
                      label="slope 1 (linear)")
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("plan size N (relations, expressions, columns, rows, options, arguments)", fontsize=8)
        ax.grid(color="#eeeeee")
    axes[0].set_ylabel("median ms")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=8, frameon=False)
    fig.suptitle("Conversion time against plan size (parallel to the dotted line: linear)", fontsize=11)
    fig.tight_layout(rect=(0, 0.16, 1, 1))
    fig.savefig(plot, dpi=100)
    plt.close(fig)
    return True


def cells(line: str) -> list:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def chart_from_results(md: Path) -> str:
    """Draws a results file's chart again from its tables (md's name with .png): the per-query table of a
    TPC-H or TPC-DS run, or the scaling table. Returns what it read: per producer the named queries."""
    lines = md.read_text(encoding="utf-8").splitlines()
    plot = md.with_suffix(".png")
    for i, line in enumerate(lines):
        if line.startswith("| Query | SQL analyze ms | SQL exec ms |"):
            head = cells(line)
            per_query = {}
            for name in head:
                if name.endswith(" exec/SQL"):
                    per_query[name[: -len(" exec/SQL")]] = {"exec": {}, "convert": {}}
            for row in lines[i + 2:]:
                if not row.startswith("| Q"):
                    break
                values = cells(row)
                q = int(values[0][1:])
                for col, name in enumerate(head):
                    side, _, phase = name.rpartition(" ")
                    if side in per_query and phase in ("exec/SQL", "convert/SQL") and re.fullmatch(r"[0-9.]+", values[col]):
                        per_query[side][phase.split("/")[0]][q] = float(values[col])
            title = re.search(r"Run: (TPC-\S+ SF [0-9.]+)", "\n".join(lines))
            draw_ratios(plot, title.group(1) if title else md.stem, per_query)
            return "\n".join(named_queries(per_query))
        if line.startswith("| Shape | sizes | median ms at each size |"):
            series = {}
            for row in lines[i + 2:]:
                if not row.startswith("| "):
                    break
                values = cells(row)
                numbers = [[float(x) for x in v.split(", ")] if re.fullmatch(r"[0-9., ]+", v) else [] for v in values]
                series[values[0]] = ([int(x) for x in numbers[1]], numbers[2], numbers[6])
            draw_scaling(plot, series)
            return "\n".join(f"- {shape}: {len(v[0])} sizes" for shape, v in series.items())
    raise SystemExit(f"{md} has no per-query or scaling table")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=("tpch", "tpcds", "scaling", "chart"))
    parser.add_argument("results", type=Path, help="the run's results folder; for chart, a results file (.md)")
    parser.add_argument("--sf", default="1")
    parser.add_argument("--reps", default="5")
    parser.add_argument("--warmup", default="2")
    parser.add_argument("--round-ms", default="600")
    parser.add_argument("--settle-rounds", default="0")
    parser.add_argument("--doc", action="store_true",
                        help="write docs/results/<date>-<kind>.md and the summary into docs/performance.md")
    parser.add_argument("--note", default="", help="the run's conditions (what else ran), for its results file")
    parser.add_argument("--docs", type=Path, default=DOCS, help=argparse.SUPPRESS)  # the tests' own docs/
    args = parser.parse_args()
    if args.kind == "chart":
        print(chart_from_results(args.results))
        return
    day = time.strftime("%Y-%m-%d", time.gmtime())
    if args.doc:
        out = args.docs / "results"
        out.mkdir(parents=True, exist_ok=True)
        name = results_name(out, args.kind, args.sf, day)
        plot = out / f"{name}.png"
    else:
        plot = args.results / f"performance-{args.kind}.png"
    if args.kind in TITLES:
        body, summary = queries_report(args.kind, args.results, args.sf, args.reps, plot,
                                       args.warmup, args.round_ms, args.settle_rounds)
        what = f"{TITLES[args.kind]} SF {args.sf}"
        run_of = f" ({what}, {args.reps} repetitions)"
    else:
        body, summary = scaling(args.results, plot)
        what, run_of = "Scaling", ""
    (args.results / f"{args.kind}.md").write_text(body + "\n", encoding="utf-8")
    if args.doc:
        conditions = args.note or "not stated (`bench/run --note TEXT` says what else ran on the machine)"
        (out / f"{name}.md").write_text(
            f"# {what}, {day}\n\nOne run of `bench/run {args.kind}`, every table of it, written by "
            f"`bench/report.py`; [performance.md](../performance.md) shows its summary while it is the latest "
            f"run.\n\n- Conditions: {conditions}\n\n{body}\n", encoding="utf-8")
        image = f"\n\n![{what}](results/{plot.name})" if plot.exists() else ""
        replace_section(args.docs / "performance.md", args.kind,
                        f"The run of {day}{run_of}, every table of it in [results/{name}.md](results/{name}.md):\n\n"
                        f"{summary}{image}")
        add_run(args.docs / "performance.md", f"- [results/{name}.md](results/{name}.md): {what}{run_of}, {conditions}")
    print(body)


if __name__ == "__main__":
    main()
