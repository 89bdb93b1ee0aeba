"""The producer releases of the matrix: what each installs and which writer makes its plans.

A release is one virtualenv (Python producers) or one Maven resolution (isthmus) under
build/producers/<id>/. The pins are the release's own: DuckDB's extension with the
duckdb it was built for; ibis-substrait with an ibis of its own time where it pins none
(2.x asks only for ibis-framework>=3, which today resolves to an ibis it cannot compile);
DataFusion with whatever pyarrow pip picks for it.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Release:
    producer: str          # datafusion | duckdb | ibis | isthmus | substrait-java-spark | substrait-builders
    version: str           # the producer's release, as users name it
    requirements: list[str] = field(default_factory=list)  # pip lines (Python producers)
    # CI's pinned subset: one old and one new release per producer.
    pinned: bool = False

    @property
    def id(self) -> str:
        return f"{self.producer}-{self.version}"

    @property
    def writer(self) -> str:
        return self.producer.replace("-", "_")


def _datafusion(v: str, pinned: bool = False) -> Release:
    return Release("datafusion", v, [f"datafusion=={v}"], pinned)


def _duckdb(v: str, duckdb: str, pinned: bool = False) -> Release:
    return Release("duckdb", v, [f"duckdb-extension-substrait=={v}", f"duckdb=={duckdb}", "pyarrow"], pinned)


def _ibis(v: str, ibis: str, extra: list[str], pinned: bool = False) -> Release:
    return Release("ibis", v, [f"ibis-substrait=={v}", f"ibis-framework[duckdb]=={ibis}", *extra], pinned)


RELEASES: list[Release] = [
    # DataFusion Python: every release its plans changed in, from the oldest that installs.
    *[_datafusion(v, pinned=v in ("31.0.0", "55.0.0")) for v in (
        "31.0.0", "32.0.0", "33.0.0", "34.0.0", "35.0.0", "36.0.0", "37.1.0", "38.0.1", "39.0.0",
        "40.1.0", "41.0.0", "42.0.0", "43.1.0", "44.0.0", "45.2.0", "46.0.0", "47.0.0", "48.0.0",
        "49.0.0", "50.1.0", "51.0.0", "52.3.0", "53.0.0", "54.1.0", "55.0.0")],
    # duckdb-extension-substrait, each with the duckdb its extension binary was built for.
    _duckdb("1.0.3", "1.0.0", pinned=True), _duckdb("1.1.0", "1.1.0"), _duckdb("1.1.1", "1.1.1"),
    _duckdb("1.1.2", "1.1.2"), _duckdb("1.1.3", "1.1.3", pinned=True),
    # ibis-substrait with the ibis it pins (4.x: ibis 9; 3.x: ibis 4 to 8) or, for 2.x, the
    # ibis released with it; sqlglot, which ibis' parse_sql uses, as that ibis asked.
    # ibis' DuckDB backend with the duckdb, duckdb-engine, SQLAlchemy and pandas of that
    # ibis' time: today's versions of those break ibis 4 to 8's backend.
    _ibis("2.14.1", "3.2.0", ["sqlalchemy<2"]),
    _ibis("2.20.0", "4.1.0", ["duckdb==0.7.0", "duckdb-engine==0.6.8", "sqlalchemy==1.4.46", "pandas==1.5.3", "numpy==1.24.4"]),
    _ibis("2.24.0", "5.1.0", ["duckdb==0.7.1", "duckdb-engine==0.7.0", "sqlalchemy==1.4.47", "pandas==1.5.3", "numpy==1.24.4"],
          pinned=True),
    _ibis("2.29.1", "6.2.0", ["duckdb==0.8.1", "duckdb-engine==0.9.2", "sqlalchemy==2.0.19", "pandas==2.0.3", "numpy==1.25.2"]),
    # 3.x and 4.x read substrait.__substrait_version__ and substrait.gen.proto, which the
    # substrait package dropped later: the substrait of their time (3.0.0 fails on any
    # bundled functions_geometry.yaml, which has no impls: the substrait before it).
    # 3.0.0 imports ibis.common.graph.toposort, which ibis 6 has (7 to 9 do not; its pin, ibis>=4, is loose).
    _ibis("3.0.0", "6.2.0", ["substrait==0.4.0", "duckdb==0.8.1", "duckdb-engine==0.9.2", "sqlalchemy==2.0.19", "pandas==2.0.3", "numpy==1.25.2"]),
    _ibis("3.2.1", "8.0.0", ["substrait==0.16.0", "sqlalchemy==2.0.27", "duckdb==0.10.0", "pandas==2.2.0", "numpy==1.26.4"]),
    _ibis("4.0.0", "9.5.0", ["substrait==0.21.0", "duckdb==1.1.3"]),
    _ibis("4.0.1", "9.5.0", ["substrait==0.21.0", "duckdb==1.1.3"], pinned=True),
    # isthmus (Calcite) from Maven Central: one per few minor versions.
    # Maven Central's metadata lists 0.25.0, 0.26.0, 0.52.0, 0.65.0, 0.66.0, 0.73.0, 0.89.1.
    # 0.66.0: the last that writes grouping sets without their index (isthmus-grouping-sets-without-index), stamping
    # spec 0.77 as 0.73 does.
    *[Release("isthmus", v, pinned=v in ("0.25.0", "0.89.1")) for v in (
        "0.25.0", "0.52.0", "0.65.0", "0.66.0", "0.73.0", "0.89.1")],
    # substrait-java's Spark module (ToSubstraitRel over Spark SQL's optimized plan), from Maven
    # Central: only io.substrait:spark 0.36.0 (Spark 3.4.2, Scala 2.12) is served; the later
    # per-Spark artifacts (spark34_2.12, spark35_2.12, spark40_2.13) are not (404).
    Release("substrait-java-spark", "0.36.0", pinned=True),
    # The Python substrait package's own builders.
    *[Release("substrait-builders", v, [f"substrait[extensions]=={v}", "duckdb==1.1.3"], pinned=v == "0.37.1")
      for v in ("0.23.0", "0.30.0", "0.37.1")],
]


def select(names: list[str], pinned_only: bool = False) -> list[Release]:
    """Releases whose id or producer is in `names` (all when empty)."""
    chosen = [r for r in RELEASES if not names or r.id in names or r.producer in names]
    return [r for r in chosen if r.pinned or not pinned_only]
