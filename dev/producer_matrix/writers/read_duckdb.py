"""DuckDB's own consumer (duckdb-extension-substrait's from_substrait), run in the
duckdb-1.1.3 release's virtualenv over every release's plans: the side-by-side column of
the matrix. A plan counts as read when DuckDB runs it and gives the reference rows (the
producer engine's, else DuckDB's SQL for the same query). argv: data folder, then the
releases' plan folders; writes <release>/duckdb-consumer.json."""

import json
import sys
from pathlib import Path

import duckdb

from common import tables
from write_duckdb import extension

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from compare import decoded_rows, difference, normal_rows  # noqa: E402


def connect(data: Path):
    con = duckdb.connect()
    con.execute(f"LOAD '{extension(data / 'x')}'")
    for t in tables():
        con.execute(f"CREATE TABLE {t} AS SELECT * FROM '{data / 'parquet' / f'{t}.parquet'}'")
    return con


def main():
    data = Path(sys.argv[1])
    con = connect(data)
    for folder in map(Path, sys.argv[2:]):
        results = {}
        for plan in sorted(folder.glob("*.bin")):
            qid = plan.stem
            try:
                got = normal_rows(con.from_substrait(plan.read_bytes()).fetchall())
            except Exception as e:  # noqa: BLE001 - DuckDB's refusal is the result
                results[qid] = {"reads": False, "why": (str(e).strip().splitlines() or [type(e).__name__])[0][:300]}
                con = connect(data)  # an internal error invalidates DuckDB's database
                continue
            expected = None
            rows_file = folder / f"{qid}.rows.json"
            if rows_file.exists():
                payload = json.loads(rows_file.read_text())
                if "rows" in payload:
                    expected = decoded_rows(payload["rows"])
            if expected is None:
                try:
                    expected = normal_rows(con.execute((folder / f"{qid}.sql").read_text()).fetchall())
                except Exception as e:  # noqa: BLE001
                    results[qid] = {"reads": False, "why": "no reference rows: " + str(e).splitlines()[0][:200]}
                    continue
            diff = difference(got, expected)
            results[qid] = {"reads": diff is None, **({"why": "other rows: " + diff} if diff else {})}
        (folder.parent / "duckdb-consumer.json").write_text(json.dumps(results, indent=1, sort_keys=True))
        print(f"  {folder.parent.name}: DuckDB reads {sum(r['reads'] for r in results.values())} of {len(results)}", flush=True)


if __name__ == "__main__":
    main()
