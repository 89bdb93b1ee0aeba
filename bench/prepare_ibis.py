"""ibis-substrait's TPC-H plans for the benchmark, run in bench/.venv-ibis (bench/run makes it).

ibis-substrait compiles ibis expressions, not SQL, and ibis' own `parse_sql` builds only a
few of the 22 TPC-H queries (docs/producers.md). The queries as ibis users write them ship
with ibis itself: the TPC-H suite of ibis' backend tests (`ibis/backends/tests/tpc/h/
test_queries.py`, in the ibis-framework wheel), each a function of the tables returning the
query's expression. This script calls those functions on unbound tables with the schemas of
the benchmark's parquet files and compiles each expression with ibis-substrait:

  plans/ibis/qNN.bin         the plan
  plans/ibis/failures.tsv    query, why ibis or ibis-substrait made no plan

Arguments: DATA (the folder bench/prepare.py filled). Nothing is redone if failures.tsv exists.
"""

import importlib
import sys
from pathlib import Path

TABLES = ("part", "supplier", "partsupp", "customer", "orders", "lineitem", "nation", "region")


def first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0].replace("\t", " ")[:300]


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
    data = Path(sys.argv[1])
    out = data / "plans" / "ibis"
    done = out / "failures.tsv"
    if done.exists():
        print(f"bench/prepare_ibis: {out} is ready")
        return 0
    out.mkdir(parents=True, exist_ok=True)

    import ibis
    from ibis_substrait.compiler.core import SubstraitCompiler

    queries = importlib.import_module("ibis.backends.tests.tpc.h.test_queries")
    con = ibis.duckdb.connect()
    tables = {t: ibis.table(con.read_parquet(str(data / "parquet" / f"{t}.parquet")).schema(), name=t) for t in TABLES}
    failures = []
    for n in range(1, 23):
        try:
            f = query_function(queries, n)
            expr = f(**{arg: tables[arg] for arg in f.__code__.co_varnames[: f.__code__.co_argcount]})
            plan = SubstraitCompiler().compile(expr)
            (out / f"q{n:02d}.bin").write_bytes(plan.SerializeToString())
        except Exception as e:  # a producer failing on a query is a result, recorded
            failures.append((n, f"{type(e).__name__}: {first_line(e)}"))
    done.write_text("".join(f"{n}\t{why}\n" for n, why in failures), encoding="utf-8")
    print(f"bench/prepare_ibis: ibis-substrait made {22 - len(failures)} plans; failures in {done}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
