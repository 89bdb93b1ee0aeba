"""ibis-substrait's TPC-H or TPC-DS plans, run in bench/.venv-ibis (bench/run makes it).

ibis-substrait compiles ibis expressions, not SQL, and ibis' own `parse_sql` builds only a
few of the 22 TPC-H queries (docs/producers.md). The queries as ibis users write them ship
with ibis itself: the TPC-H and TPC-DS suites of ibis' backend tests (`ibis/backends/tests/
tpc/h/test_queries.py` and `tpc/ds/test_queries.py`, in the ibis-framework wheel), each a
function of the tables returning the query's expression. This script calls those functions on
unbound tables with the schemas of the benchmark's parquet files and compiles each expression
with ibis-substrait:

  plans/ibis/qNN.bin         the plan
  plans/ibis/failures.tsv    query, why ibis or ibis-substrait made no plan

Arguments: DATA (the folder bench/prepare.py filled) [--benchmark tpch|tpcds]. Nothing is
redone if failures.tsv exists.
"""

import argparse
import importlib
import re
import sys
from pathlib import Path

# Per benchmark: the module of ibis' test suite holding the query functions, and how many.
SUITES = {"tpch": ("ibis.backends.tests.tpc.h.test_queries", 22), "tpcds": ("ibis.backends.tests.tpc.ds.test_queries", 99)}


def first_line(e: BaseException) -> str:
    """The message's first line; an operation's repr without its address, the same every run."""
    line = (str(e).strip().splitlines() or [type(e).__name__])[0].replace("\t", " ")
    return re.sub(r"<([\w.]+) object at 0x[0-9a-f]+>", r"\1", line)[:300]


def query_function(module, n: int):
    """The undecorated function of query n: ibis' decorator keeps it as __wrapped__, or, where
    a query's decorator was applied without its argument (`@tpc_test`), in its closure."""
    f = getattr(module, f"test_{n:02d}")
    if hasattr(f, "__wrapped__"):
        return f.__wrapped__
    for cell in f.__closure__ or ():
        if callable(cell.cell_contents) and getattr(cell.cell_contents, "__name__", "") == f"test_{n:02d}":
            return cell.cell_contents
    raise LookupError(f"ibis' test_{n:02d} is not a query function")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data")
    parser.add_argument("--benchmark", choices=sorted(SUITES), default="tpch")
    args = parser.parse_args()
    data = Path(args.data)
    out = data / "plans" / "ibis"
    done = out / "failures.tsv"
    if done.exists():
        print(f"bench/prepare_ibis: {out} is ready")
        return 0
    out.mkdir(parents=True, exist_ok=True)

    import ibis
    from ibis_substrait.compiler.core import SubstraitCompiler

    module, count = SUITES[args.benchmark]
    queries = importlib.import_module(module)
    con = ibis.duckdb.connect()
    # Every table bench/prepare.py wrote, unbound (ibis-substrait names it in a NamedTable read).
    tables = {p.stem: ibis.table(con.read_parquet(str(p)).schema(), name=p.stem)
              for p in sorted((data / "parquet").glob("*.parquet"))}
    failures = []
    for n in range(1, count + 1):
        try:
            f = query_function(queries, n)
            expr = f(**{arg: tables[arg] for arg in f.__code__.co_varnames[: f.__code__.co_argcount]})
            plan = SubstraitCompiler().compile(expr)
            (out / f"q{n:02d}.bin").write_bytes(plan.SerializeToString())
        except Exception as e:  # a producer failing on a query is a result, recorded
            failures.append((n, f"{type(e).__name__}: {first_line(e)}"))
    done.write_text("".join(f"{n}\t{why}\n" for n, why in failures), encoding="utf-8")
    print(f"bench/prepare_ibis: ibis-substrait made {count - len(failures)} plans; failures in {done}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
