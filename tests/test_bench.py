"""A smoke check of bench/'s Python side (bench/run itself is not part of dev/test): the data
and plans preparation at a tiny scale, and the report's arithmetic on hand-made timings."""

import subprocess
import sys

from helpers import REPO

BENCH = REPO / "bench"


def run(*args):
    done = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_prepare_makes_tables_queries_and_plans(tmp_path):
    out = tmp_path / "sf"
    run(BENCH / "prepare.py", "--sf", "0.01", "--out", out)
    assert sorted(p.stem for p in (out / "parquet").iterdir()) == sorted(
        ["part", "supplier", "partsupp", "customer", "orders", "lineitem", "nation", "region"])
    assert len(list((out / "queries").iterdir())) == 22
    failures = (out / "plans" / "failures.tsv").read_text().splitlines()
    for producer in ("duckdb", "datafusion"):
        made = len(list((out / "plans" / producer).iterdir()))
        failed = sum(1 for f in failures if f.startswith(producer + "\t"))
        assert made + failed == 22 and made > 10, (producer, made, failed)
    assert "is ready" in run(BENCH / "prepare.py", "--sf", "0.01", "--out", out)


def test_report_medians_ratios_and_geometric_means(tmp_path):
    timings = ["side\tquery\tphase\trep\tnanos"]
    # Q1: SQL 10/20/30 ms analyze (median 20), isthmus 40 (ratio 2); exec 100 vs 50 (0.5).
    # Q2: ratios 0.5 and 2: geometric means 1.0 over both queries.
    for rep, (sql_c, sql_e) in enumerate([(10, 100), (20, 100), (30, 100)]):
        timings += [f"sql\t1\tconvert\t{rep}\t{sql_c * 10**6}", f"isthmus\t1\tconvert\t{rep}\t{40 * 10**6}",
                    f"sql\t1\texec\t{rep}\t{sql_e * 10**6}", f"isthmus\t1\texec\t{rep}\t{50 * 10**6}",
                    f"sql\t2\tconvert\t{rep}\t{20 * 10**6}", f"isthmus\t2\tconvert\t{rep}\t{10 * 10**6}",
                    f"sql\t2\texec\t{rep}\t{100 * 10**6}", f"isthmus\t2\texec\t{rep}\t{200 * 10**6}"]
    (tmp_path / "timings.tsv").write_text("\n".join(timings) + "\n")
    (tmp_path / "status.tsv").write_text("producer\tquery\tstatus\trows\tidentity\tdetail\n"
                                         "isthmus\t1\tok\tmatch\tdiffers\t\nisthmus\t2\tok\tmatch\tidentical\t\n"
                                         "duckdb\t1\tno plan\t\t\tNot implemented\n")
    text = run(BENCH / "report.py", "tpch", tmp_path, "--sf", "0.01", "--reps", "3")
    assert "| Q1 | 20.0 | 100.0 | 2.00 | 0.50 |" in text
    assert "| Q2 | 20.0 | 100.0 | 0.50 | 2.00 |" in text
    assert "| isthmus | 2 | 1.00 | 1.00 | 2.00 | 1 | 1 | 1.00 |" in text
    assert "— (no plan)" in text
    assert "anchor" not in text and "substrait-java" not in text
    assert "query by query" not in text
    # QueryBench's --settle-rounds: the header says the run went query by query, with how many rounds.
    settled = run(BENCH / "report.py", "tpch", tmp_path, "--sf", "0.01", "--reps", "3", "--warmup", "1",
                  "--settle-rounds", "6")
    assert ("after 1 unrecorded rounds, query by query: each query's own warm-up, then 6 more unrecorded "
            "rounds") in settled


def test_scaling_report_fits_the_slope(tmp_path):
    rows = ["shape\tsize\tmedian_ms\toutcome\tdecode_ms\tconvert_ms"]
    # The decoding and conversion part of the linear shape is a fifth of it, linear too.
    rows += [f"linear\t{n}\t{n * 0.5}\tok\t{n * 0.05}\t{n * 0.1}" for n in (10, 100, 1000)]
    rows += ["deep\t10\t1.0\tok\t0.1\t0.2", "deep\t100\t10.0\tok\t1.0\t2.0", "deep\t1000\tnan\tStackOverflowError\tnan\tnan"]
    # Flat, then quadratic from 100 to 1000: the last step's slope is 2; conversion stays linear (slope 1).
    rows += ["late\t10\t4.0\tok\t0.1\t1.0", "late\t100\t4.0\tok\t1.0\t10.0", "late\t1000\t400.0\tok\t10.0\t100.0"]
    (tmp_path / "scaling.tsv").write_text("\n".join(rows) + "\n")
    text = run(BENCH / "report.py", "scaling", tmp_path)
    assert "| linear | 10, 100, 1000 | 5.0, 50.0, 500.0 | 0.5000 | 1.00 | 1.00 | 1.0, 10.0, 100.0 | 1.00 | ok |" in text
    assert "| late | 10, 100, 1000 | 4.0, 4.0, 400.0 |" in text and "| 2.00 | 1.0, 10.0, 100.0 | 1.00 | ok |" in text
    assert "StackOverflowError at 1000" in text


def test_report_anchor_columns(tmp_path):
    # isthmus Q1 as above (2.00, 0.50); the anchor on isthmus' Q1: 80 ms convert (4.00), 100 ms exec (1.00):
    # ours/anchor 0.50 and 0.50. The anchor refuses isthmus' Q2 and has no DuckDB plan.
    timings = ["side\tquery\tphase\trep\tnanos"]
    for rep in range(3):
        timings += [f"sql\t1\tconvert\t{rep}\t{20 * 10**6}", f"isthmus\t1\tconvert\t{rep}\t{40 * 10**6}",
                    f"anchor-isthmus\t1\tconvert\t{rep}\t{80 * 10**6}",
                    f"sql\t1\texec\t{rep}\t{100 * 10**6}", f"isthmus\t1\texec\t{rep}\t{50 * 10**6}",
                    f"anchor-isthmus\t1\texec\t{rep}\t{100 * 10**6}",
                    f"sql\t2\tconvert\t{rep}\t{20 * 10**6}", f"sql\t2\texec\t{rep}\t{100 * 10**6}"]
    (tmp_path / "timings.tsv").write_text("\n".join(timings) + "\n")
    (tmp_path / "status.tsv").write_text(
        "producer\tquery\tstatus\trows\tidentity\tdetail\n"
        "isthmus\t1\tok\tmatch\tdiffers\t\n"
        "anchor-isthmus\t1\tok\tmatch\tdiffers\t\n"
        "anchor-isthmus\t2\tconversion failed\t\t\tUnsupportedOperationException: Unable to convert x|y\n"
        "anchor-duckdb\t1\tno plan\t\t\tNot implemented\n"
        "substrait-java\t1\tno plan\t\t\tUnsupportedOperationException: x\n")
    text = run(BENCH / "report.py", "tpch", tmp_path, "--sf", "0.01", "--reps", "3")
    assert "| Q1 | 4.00 | 1.00 | — (no plan) |  |" in text
    assert "| Q2 | — (refused: UnsupportedOperationException: Unable to convert x\\|y) |  | — (no plan) |  |" in text
    assert "| isthmus | 1 | 2.00 | 0.50 | 0.50 | 0 | 0 | 0.50 | 1 | 4.00 | 1.00 | 1.00 | 0.50 | 0.50 |" in text
    assert "| anchor-isthmus | Q2 | conversion failed |" in text
    # The anchor's own plans: one more producer, only in a run that has them.
    assert "| substrait-java convert/SQL | substrait-java exec/SQL |" in text
    assert "| substrait-java | 0 | — | — | — | 0 | 0 | — | — | | | | | |" in text


def one_query_report(tmp_path, side, query, convert_ms, exec_ms, status=""):
    """The TPC-DS report of one query timed 3 times: the SQL in 20 ms (analysis) and 100 ms
    (execution), `side` in `convert_ms` and `exec_ms`; status.tsv's lines after its header."""
    timings = ["side\tquery\tphase\trep\tnanos"]
    for rep in range(3):
        timings += [f"sql\t{query}\tconvert\t{rep}\t{20 * 10**6}", f"{side}\t{query}\tconvert\t{rep}\t{convert_ms * 10**6}",
                    f"sql\t{query}\texec\t{rep}\t{100 * 10**6}", f"{side}\t{query}\texec\t{rep}\t{exec_ms * 10**6}"]
    (tmp_path / "timings.tsv").write_text("\n".join(timings) + "\n")
    (tmp_path / "status.tsv").write_text("producer\tquery\tstatus\trows\tidentity\tdetail\n" + status)
    return run(BENCH / "report.py", "tpcds", tmp_path, "--sf", "0.01", "--reps", "3")


def test_tpcds_report_names_the_benchmark_and_our_written_plans(tmp_path):
    # Q3: our written plan converts in 10 ms against the SQL's 20 (0.50) and executes as fast (1.00).
    text = one_query_report(tmp_path, "written", 3, 10, 100,
                            "written\t3\tok\tmatch\tidentical\t\nisthmus\t3\tno plan\t\t\tSqlParseException: x\n")
    assert text.startswith("Run: TPC-DS SF 0.01")
    assert "| written convert/SQL | written exec/SQL |" in text
    assert "| written | 1 | 0.50 | 1.00 | 1.00 | 0 |" in text


def test_control_side_is_the_sql_against_itself(tmp_path):
    # bench/run --control: `sql-again` is timed like a producer; Q5's second SQL run took 115 ms
    # against 100 (1.15, above 1.10), its analysis as long (1.00). It has no status line.
    text = one_query_report(tmp_path, "sql-again", 5, 20, 115)
    assert "| sql-again convert/SQL | sql-again exec/SQL |" in text
    assert "| sql-again | 1 | 1.00 | 1.15 | 1.15 | 1 |" in text


def test_second_stage_pairs_are_named_and_their_medians_pool_every_execution(tmp_path):
    # Q1's isthmus plan ran 120 ms against the SQL's 100 in the 3 repetitions of the whole pass
    # (1.20), then both ran 80 in the 4 of the second stage (repetitions 3-6): over all 7
    # executions both medians are 80 (1.00), no longer above 1.10, and the report says so in both
    # columns. DataFusion's plan (105 ms, 1.05) had no second stage: its ratio stays the whole
    # pass' on both sides (105 / 100), not 105 over the SQL's median of all executions (80).
    timings = ["side\tquery\tphase\trep\tnanos"]
    for rep in range(7):
        if rep < 3:
            timings += [f"sql\t1\tconvert\t{rep}\t{20 * 10**6}", f"isthmus\t1\tconvert\t{rep}\t{10 * 10**6}",
                        f"datafusion\t1\tconvert\t{rep}\t{20 * 10**6}", f"datafusion\t1\texec\t{rep}\t{105 * 10**6}"]
        timings += [f"sql\t1\texec\t{rep}\t{(100 if rep < 3 else 80) * 10**6}",
                    f"isthmus\t1\texec\t{rep}\t{(120 if rep < 3 else 80) * 10**6}"]
    (tmp_path / "timings.tsv").write_text("\n".join(timings) + "\n")
    (tmp_path / "status.tsv").write_text("producer\tquery\tstatus\trows\tidentity\tdetail\n"
                                         "isthmus\t1\tok\tmatch\tdiffers\t\ndatafusion\t1\tok\tmatch\tdiffers\t\n")
    (tmp_path / "confirmed.tsv").write_text("side\tquery\tfirst_pass_ratio\tconfirm_reps\nisthmus\t1\t1.2000\t4\n")
    text = run(BENCH / "report.py", "tpch", tmp_path, "--sf", "0.01", "--reps", "3")
    assert "| isthmus | 1 | 0.50 | 1.00 | 1.00 | 0 | 1 | 1.20 |" in text
    assert "| datafusion | 1 | 1.00 | 1.05 | 1.05 | 0 | 0 | 1.05 |" in text
    assert "Second stage: the 1 pairs" in text and "executed 4 more repetitions" in text
    assert "| isthmus | Q1 | 1.20 | 1.00 |" in text
    # Executions per repetition count the whole pass alone: one each, no "rounds" remark.
    assert "execute up to 4 rounds" not in text


def test_a_run_for_the_docs_writes_a_dated_results_file_and_the_page_summary(tmp_path):
    # bench/run's default (--doc): the whole report into docs/results/<date>-tpch-sf0.01.md, on the page
    # only the geomeans, the named queries and a link, and the run on top of the page's list of runs.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "performance.md").write_text("# P\n\n<!-- tpch:begin -->\nold\n<!-- tpch:end -->\n\nprose\n\n"
                                         "<!-- runs:begin -->\n- [results/older.md](results/older.md): older\n"
                                         "<!-- runs:end -->\n")
    results = tmp_path / "results"
    results.mkdir()
    one_query_report(results, "isthmus", 1, 10, 120, "isthmus\t1\tok\tmatch\tdiffers\t\n")
    run(BENCH / "report.py", "tpch", results, "--sf", "0.01", "--reps", "3", "--doc", "--docs", docs,
        "--note", "nothing else ran")
    written = sorted((docs / "results").glob("*.md"))
    assert len(written) == 1 and written[0].name.endswith("-tpch-sf0.01.md")
    name = written[0].stem
    full = written[0].read_text()
    assert full.startswith(f"# TPC-H SF 0.01, {name[:10]}") and "- Conditions: nothing else ran" in full
    assert "| Q1 | 20.0 | 100.0 | 0.50 | 1.20 |" in full and "Check per plan" in full
    page = (docs / "performance.md").read_text()
    summary = page[page.index("<!-- tpch:begin -->"):page.index("<!-- tpch:end -->")]
    assert f"[results/{name}.md](results/{name}.md)" in summary
    assert "| isthmus | 1 | 0.50 | 1.20 | 1.20 | 1 | 1 | 1.20 |" in summary
    assert "- isthmus: exec/SQL above 1.10: Q1 1.20; below 0.75: none" in summary
    assert "| Q1 |" not in summary and "old" not in summary and "prose" in page
    assert page.index(f"- [results/{name}.md]") < page.index("- [results/older.md]")
    # A second run of the day gets a file of its own.
    run(BENCH / "report.py", "tpch", results, "--sf", "0.01", "--reps", "3", "--doc", "--docs", docs)
    assert (docs / "results" / f"{name}-2.md").exists()


def test_the_chart_is_read_again_from_a_results_file(tmp_path):
    # bench/report.py chart: the per-query table of a results file, the queries it names per producer.
    md = tmp_path / "run.md"
    md.write_text("Run: TPC-DS SF 1, 2 repetitions\n\n"
                  "| Query | SQL analyze ms | SQL exec ms | isthmus convert/SQL | isthmus exec/SQL | duckdb convert/SQL "
                  "| duckdb exec/SQL |\n|---|---|---|---|---|---|---|\n"
                  "| Q1 | 1.0 | 10.0 | 0.50 | 1.20 | — (no plan) |  |\n"
                  "| Q2 | 1.0 | 10.0 | 0.90 | 0.70 | 0.80 | 1.00 |\n\nafter\n")
    out = run(BENCH / "report.py", "chart", md)
    assert "- isthmus: exec/SQL above 1.10: Q1 1.20; below 0.75: Q2 0.70" in out
    assert "- duckdb: exec/SQL above 1.10: none; below 0.75: none" in out
