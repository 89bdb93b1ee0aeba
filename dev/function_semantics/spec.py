"""What the differential run knows of one function: its model (the YAML's words worked out in
Python), the same computation in DuckDB's and DataFusion's SQL where those engines can write
it, and the documented disagreements.

Families register their specs with :func:`register`; ``families/`` holds one module per
extension YAML (or a few related ones).
"""

import dataclasses
from collections.abc import Callable, Sequence

from outcomes import NULL, Error, Outcome, Undefined, Value
from plans import Call
from stypes import SType

Model = Callable[[Call, tuple], Outcome]


@dataclasses.dataclass
class Reading:
    """Another reading of the spec's words (spec open): ours may give this one's answers."""

    name: str
    model: Model
    why: str


@dataclasses.dataclass
class EngineNote:
    """A documented difference of another engine from the YAML: ``when`` picks the calls and rows
    it explains; ``sentence`` is the YAML's words the engine departs from."""

    engine: str
    when: Callable[[Call, tuple, Outcome, Outcome], bool]
    sentence: str


@dataclasses.dataclass
class Spec:
    ext: str
    name: str
    model: Callable
    kind: str = "scalar"
    duckdb: Callable[[Call], str | None] | None = None
    datafusion: Callable[[Call], str | None] | None = None
    any_types: Sequence[SType] = ()
    decimals: Sequence[tuple[int, int]] = ((10, 2), (38, 10), (5, 0), (38, 0))
    edges: Callable[[Call, int, list], list] | None = None
    rows: Callable[[Call, object, int], list[tuple]] | None = None
    tolerance: Callable[[Call], float] = lambda call: 0
    # ulps allowed to DuckDB's and DataFusion's answers (their libm is within an ulp); default: tolerance
    engine_tolerance: Callable[[Call], float] | None = None
    # agreement beyond equality (an approximate function within its error bound): (call, row, expected, got)
    accept: Callable[[Call, tuple, Outcome, Outcome], bool] | None = None
    nulls: str = "mirror"                    # mirror: any NULL value argument gives NULL
    alternatives: list[Reading] = dataclasses.field(default_factory=list)
    engine_notes: list[EngineNote] = dataclasses.field(default_factory=list)
    skip_call: Callable[[Call], str | None] | None = None   # a reason not to run a call
    frames: Sequence[tuple[str, str]] = (("unbounded", "current"),)
    variadic_counts: Sequence[int] = (1, 2, 3)
    # replaces each call by calls with some value arguments literal (Arg.literal): (call, full) -> calls
    variants: Callable[[Call, bool], list[Call]] | None = None
    # windows: the sort key of each row of a partition, (call, partition rows) -> keys (ties are
    # peers); None: the rows' own order. Window readings and accept get aggregates.WindowRow rows.
    order_keys: Callable[[Call, list[tuple]], list[int]] | None = None
    # aggregates and windows: hand-picked groups (partitions), each a list of rows, run after the others
    extra_groups: Callable[[Call], list[list[tuple]]] | None = None

    @property
    def key(self) -> tuple[str, str, str]:
        return self.ext, self.name, self.kind

    def expected(self, call: Call, row: tuple) -> Outcome:
        if self.nulls == "mirror" and self.kind == "scalar" and any(v is None for v in row):
            return NULL
        return self.model(call, row)


SPECS: dict[tuple[str, str, str], Spec] = {}


def register(*specs: Spec) -> None:
    for s in specs:
        if s.key in SPECS:
            raise ValueError(f"two specs for {s.key}")
        SPECS[s.key] = s


def opt(call: Call, name: str, default: str | None = None) -> str | None:
    """The option value the call asks for (its first preference), or ``default``."""
    prefs = call.options.get(name)
    return prefs[0].upper() if prefs else default


def value(v) -> Outcome:
    return NULL if v is None else Value(v)


def undefined(why: str = "") -> Outcome:
    return Undefined(why)


def error(kind: str, detail: str = "") -> Outcome:
    return Error(kind, detail)
