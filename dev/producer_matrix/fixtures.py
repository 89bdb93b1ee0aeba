"""Copies a few plans per release that writes differently into tests/fixtures/producers/
<producer>/<version>/, with manifest.json naming for each: the release that wrote it, the
query, the tables it reads (tables.json holds their rows), the producer engine's rows, the
readings Spark read it with and the matrix's outcome. tests/test_producer_fixtures.py runs
them all in CI against DuckDB's SQL on the same data (an independent answer)."""

import json
import shutil
from pathlib import Path

from queries import FEATURE_ROWS, FEATURE_TABLES
from releases import RELEASES

# One old and one new release per producer, and each release whose plans a reading is keyed on.
FIXTURE_RELEASES = ("datafusion-31.0.0", "datafusion-39.0.0", "datafusion-42.0.0", "datafusion-43.1.0",
                    "datafusion-55.0.0", "duckdb-1.0.3", "duckdb-1.1.3", "ibis-2.24.0", "ibis-3.2.1", "ibis-4.0.1",
                    "isthmus-0.52.0", "isthmus-0.65.0", "isthmus-0.89.1", "substrait-builders-0.30.0", "substrait-builders-0.37.1",
                    "substrait-java-spark-0.36.0")
# The features each fixture release keeps (when it wrote and Spark ran them): every join
# type, set operations, grouping sets, windows, subqueries, casts, strings, dates, decimals, NULLs.
FIXTURE_QUERIES = ("f01_filter", "f03_coalesce", "f06_null_arith", "f11_order_limit", "f20_inner_join",
                   "f21_left_join", "f23_full_join", "f25_semi_exists", "f26_anti_not_exists", "f40_union",
                   "f43_except", "f50_group_by", "f53_global_empty", "f55_grouping_sets", "f56_rollup",
                   "f60_row_number", "f71_correlated_scalar", "f80_cast_to_string", "f05_nullif", "f81_cast_numbers",
                   "f92_concat", "f94_length_trim", "f96_not_like_pattern", "f102_date_interval", "f112_round", "f123_integer_division",
                   "f100_date_literal", "f110_decimal_arith", "f120_median", "f121_string_agg", "i01_date_vs_string", "i02_not", "i03_group_by",
                   "i06_order_limit", "i07_strings", "i17_correlated_exists", "i18_float_fraction",
                   "i19_select_under_filter",
                   "i12_integer_division", "b01_project", "b03_aggregate", "b04_sort_fetch",
                   "f130_simple_case", "f131_date_plus_days", "f132_folded_between", "f133_grouping",
                   "f134_grouping_sets_at_root", "f135_rollup_joined", "f136_select_constants",
                   # substrait-java's Spark dialect (year:date, unscaled:dec in 0.36.0).
                   "s01_year", "s03_small_decimal_avg",
                   # issue 62: typeless NULLs, ordered COUNT, decimal MEDIAN, struct outputs, mixed branches, nesting
                   "f124_count_ordered", "f125_median_decimal", "f126_struct_output", "f140_union_null_column",
                   "f141_not_distinct_null", "f142_not_distinct_join", "f143_union_int_bigint", "f144_nested_correlation",
                   # DataFusion's joins without expression (31-32: non-equi; 43 on: cross)
                   "f24_cross_join", "f29_non_equi_join")
# The fixture test's independent answer is DuckDB's SQL; isthmus' is Spark SQL's (the matrix),
# and Calcite reads these otherwise than DuckDB: CAST(1.5 AS BIGINT) truncates (DuckDB rounds),
# and DuckDB has no CHAR_LENGTH.
# substrait-java's Spark module: Spark's CAST(1.5 AS BIGINT) truncates too.
NOT_FOR = {"isthmus": ("f81_cast_numbers", "f94_length_trim"), "substrait-java-spark": ("f81_cast_numbers",)}
# Plans kept for the JVM suites only, not in the manifest: their answer is Spark SQL's, not
# DuckDB's (SubstraitJavaSparkSuite holds them to it; DuckDB's AVG of a decimal is a double).
JVM_ONLY = {"substrait-java-spark": ("s03_small_decimal_avg",)}
KEEP = ("equal", "as-written")


def export(cache: Path, target: Path, only: list[str] | None = None) -> None:
    """All fixture releases anew, or (`only`: release ids) those releases' fixtures replaced
    and every other release's kept as they are."""
    manifest = []
    if only:
        manifest = [m for m in json.loads((target / "manifest.json").read_text()) if m["release"] not in only]
        for release in RELEASES:
            if release.id in only and (target / release.producer / release.version).exists():
                shutil.rmtree(target / release.producer / release.version)
    else:
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
    for release in RELEASES:
        if release.id not in FIXTURE_RELEASES or (only and release.id not in only):
            continue
        results_file = cache / release.id / "results.json"
        if not results_file.exists():
            print(f"  {release.id}: no results (run the matrix first)")
            continue
        results = json.loads(results_file.read_text())["results"]
        folder = target / release.producer / release.version
        kept = 0
        for qid in FIXTURE_QUERIES:
            entry = results.get(qid)
            if not entry or entry["outcome"] not in KEEP or qid in NOT_FOR.get(release.producer, ()):
                continue
            plans = cache / release.id / "plans"
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(plans / f"{qid}.bin", folder / f"{qid}.bin")
            if qid in JVM_ONLY.get(release.producer, ()):
                continue
            rows_file = plans / f"{qid}.rows.json"
            engine = json.loads(rows_file.read_text()) if rows_file.exists() else {}
            manifest.append({
                "release": release.id, "producer": release.producer, "version": release.version,
                "query": qid, "plan": f"{release.producer}/{release.version}/{qid}.bin",
                "sql": (plans / f"{qid}.sql").read_text().strip(),
                "tables": [t for t in FEATURE_TABLES if t in (plans / f"{qid}.sql").read_text().lower()] or ["emp"],
                "readings": entry.get("readings", []), "outcome": entry["outcome"],
                "known_bug": entry.get("known_bug"), "engine_rows": engine.get("rows")})
            kept += 1
        print(f"  {release.id}: {kept} fixtures")
    (target / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    tables = {t: {"columns": cols, "rows": FEATURE_ROWS[t]} for t, cols in FEATURE_TABLES.items()}
    (target / "tables.json").write_text(json.dumps(tables, indent=1) + "\n")
    print(f"  {len(manifest)} fixtures in {target}")
