"""The window functions of functions_arithmetic: row_number, rank, dense_rank, percent_rank,
cume_dist, ntile, first_value, last_value, nth_value, lead and lag.

A model gets the rows of one partition in the window's order and the index of the current row;
``call.frame`` is the ROWS frame (``aggregates.FRAMES_SQL``). The ranking functions run with a sort
key that has ties (``order_keys``): rows of equal keys are peers, which share a rank. Arguments
Spark takes only as constants (ntile's bucket count, nth_value's position, lead/lag's offset)
are literals in the plans (``variants``), each value a call of its own.
"""

import dataclasses
import math
from fractions import Fraction

from floats import round_fraction
from outcomes import NULL, Error, Undefined, Value
from plans import Arg
from spec import Reading, Spec, opt, register
from stypes import SType

W = "functions_arithmetic"
FRAMES = (("unbounded", "current"), ("preceding:2", "following:1"), ("unbounded", "unbounded"),
          ("following:1", "following:3"), ("preceding:3", "preceding:1"))
WHOLE = (("unbounded", "current"), ("unbounded", "unbounded"))
ANY = (SType("i32"), SType("i64"), SType("fp64"), SType("string"), SType("date"), SType("decimal", 10, 2),
       SType("boolean"), SType("fp32"))


def frame_rows(call, n: int, i: int):
    """The indices of the rows in row i's ROWS frame (empty when the frame is)."""
    def pos(b, upper):
        if b == "unbounded":
            return n - 1 if upper else 0
        if b == "current":
            return i
        kind, k = b.split(":")
        return i - int(k) if kind == "preceding" else i + int(k)
    a, b = max(pos(call.frame[0], False), 0), min(pos(call.frame[1], True), n - 1)
    return list(range(a, b + 1)) if a <= b else []


def literal(call, index: int):
    return call.args[index].value


def literal_variants(index: int, full_values, ci_values):
    """Calls with argument ``index`` a literal, one per value."""
    def variants(call, full):
        out = []
        for v in (full_values if full else ci_values)(call):
            args = list(call.args)
            args[index] = Arg(type=args[index].type, literal=True, value=v)
            out.append(dataclasses.replace(call, args=args))
        return out
    return variants


def window_reading(model):
    """A reading's model as the run calls it: with an aggregates.WindowRow (partition, index)."""
    return lambda call, row: model(call, row.part, row.i)


# ---- ranking ------------------------------------------------------------------------------------------------------
def peer_keys(call, part):
    """Sort keys with ties and out of row order: rows of one key are peers."""
    n = len(part)
    m = max(1, n // 2 + 1)
    return [(i * 7 + n) % m for i in range(n)]


def _rank(part, i, call, dense=False):
    keys = peer_keys(call, part)
    below = {k for k in keys if k < keys[i]} if dense else [k for k in keys if k < keys[i]]
    return 1 + len(below)


def rank_model(call, part, i):
    return Value(_rank(part, i, call))


def dense_rank_model(call, part, i):
    return Value(_rank(part, i, call, dense=True))


def percent_rank_model(call, part, i):
    """(rank - 1) / (rows - 1), 0 for a partition of one row: the SQL definition (the YAML says only
    'the relative rank of the current row'), rounded to nearest."""
    n = len(part)
    return Value(0.0 if n == 1 else round_fraction(Fraction(_rank(part, i, call) - 1, n - 1), None, False))


def cume_dist_model(call, part, i):
    """The share of the partition's rows up to the current row's last peer."""
    keys = peer_keys(call, part)
    return Value(round_fraction(Fraction(sum(1 for k in keys if k <= keys[i]), len(part)), None, False))


def _sql(text):
    return lambda call: text


def _blank_rows(call, rng, n_random):
    """Functions of no argument: rows of nothing, half in the first partition, the rest in random ones."""
    return [()] * (2 * n_random + 30)


register(
    Spec(W, "row_number", lambda call, part, i: Value(i + 1), kind="window", nulls="none", frames=WHOLE,
         rows=_blank_rows,
         duckdb=_sql("row_number() OVER w"), datafusion=_sql("row_number() OVER w")),
    Spec(W, "rank", rank_model, kind="window", nulls="none", frames=WHOLE, order_keys=peer_keys, rows=_blank_rows,
         duckdb=_sql("rank() OVER w"), datafusion=_sql("rank() OVER w")),
    Spec(W, "dense_rank", dense_rank_model, kind="window", nulls="none", frames=WHOLE, order_keys=peer_keys, rows=_blank_rows,
         duckdb=_sql("dense_rank() OVER w"), datafusion=_sql("dense_rank() OVER w")),
    Spec(W, "percent_rank", percent_rank_model, kind="window", nulls="none", frames=WHOLE, order_keys=peer_keys, rows=_blank_rows,
         duckdb=_sql("percent_rank() OVER w"), datafusion=_sql("percent_rank() OVER w")),
    Spec(W, "cume_dist", cume_dist_model, kind="window", nulls="none", frames=WHOLE, order_keys=peer_keys, rows=_blank_rows,
         duckdb=_sql("cume_dist() OVER w"), datafusion=_sql("cume_dist() OVER w")),
)


# ---- ntile ----------------------------------------------------------------------------------------------------------------
def ntile_model(call, part, i):
    """Buckets 1..n over the partition's m rows, as equal as possible: the first m mod n buckets one
    row larger (SQL's ntile). A NULL count gives NULL; a count below one has no bucket from 1 to it:
    an error (the YAML defines none)."""
    n = literal(call, 0)
    if n is None:
        return NULL
    if n < 1:
        return Error(None, "no bucket from 1 to a count below one")
    m = len(part)
    if n >= m:
        return Value(i + 1)
    q, r = divmod(m, n)
    big = r * (q + 1)
    return Value(i // (q + 1) + 1 if i < big else r + (i - big) // q + 1)


def _ntile_values(full):
    def values(call):
        base = (1, 2, 3, 4, 7, 100, None, 0, -1) if full else (1, 3, 100, None, 0)
        extra = (2 ** 31, 2 ** 40) if full else (2 ** 31,)
        return base + (extra if call.args[0].type.kind == "i64" else ())
    return values


def _ntile_sql(call):
    n = literal(call, 0)
    return None if n is None or n < 1 else f"ntile({n}) OVER w"


register(Spec(W, "ntile", ntile_model, kind="window", nulls="none", frames=WHOLE, rows=_blank_rows,
              variants=literal_variants(0, _ntile_values(True), _ntile_values(False)),
              duckdb=_ntile_sql, datafusion=_ntile_sql))


# ---- first_value, last_value, nth_value -------------------------------------------------------------------------------------
def first_value_model(call, part, i):
    rows = frame_rows(call, len(part), i)
    return Value(part[rows[0]][0]) if rows and part[rows[0]][0] is not None else NULL


def last_value_model(call, part, i):
    rows = frame_rows(call, len(part), i)
    return Value(part[rows[-1]][0]) if rows and part[rows[-1]][0] is not None else NULL


def _domain(call):
    """nth_value's position outside the positive integers: what on_domain_error asks for (NAN a NaN
    for floating values; for any other type the YAML names no value: any); unset: an error."""
    mode = opt(call, "on_domain_error")
    if mode == "NAN":
        return Value(math.nan) if call.out.is_float else Undefined("NAN for a value that cannot be NaN")
    return Error("domain" if mode == "ERROR" else None)


def nth_value_model(call, part, i, null_position_is_null=False):
    """The value of the n-th row of the frame; NULL beyond it ("outside the range of the window").
    A position that is not a positive integer "or null": on_domain_error."""
    n = literal(call, 1)
    if n is None and null_position_is_null:
        return NULL
    if n is None or n < 1:
        return _domain(call)
    rows = frame_rows(call, len(part), i)
    if n > len(rows):
        return NULL
    v = part[rows[n - 1]][0]
    return NULL if v is None else Value(v)


def _nth_values(full):
    return lambda call: (1, 2, 3, 5, 0, -1, None) if full else (1, 3, 0, None)


def _nth_sql(call):
    n = literal(call, 1)
    return None if n is None or n < 1 else f"nth_value({{0}}, {n}) OVER w"


register(
    Spec(W, "first_value", first_value_model, kind="window", nulls="none", frames=FRAMES, any_types=ANY,
         duckdb=_sql("first_value({0}) OVER w"), datafusion=_sql("first_value({0}) OVER w")),
    Spec(W, "last_value", last_value_model, kind="window", nulls="none", frames=FRAMES, any_types=ANY,
         duckdb=_sql("last_value({0}) OVER w"), datafusion=_sql("last_value({0}) OVER w")),
    Spec(W, "nth_value", nth_value_model, kind="window", nulls="none", frames=FRAMES[:2] + FRAMES[3:4],
         any_types=(SType("i32"), SType("fp64"), SType("string"), SType("decimal", 10, 2)),
         variants=literal_variants(1, _nth_values(True), _nth_values(False)),
         duckdb=_nth_sql, datafusion=_nth_sql,
         alternatives=[Reading("a NULL position gives NULL",
                               window_reading(lambda c, p, i: nth_value_model(c, p, i, null_position_is_null=True)),
                               "'The on_domain_error option governs behavior in cases where window_offset is not a "
                               "positive integer or null' reads as (not a positive integer) or (null) in the primary "
                               "reading, as not (a positive integer or null) in this one")]),
)


# ---- lead, lag -------------------------------------------------------------------------------------------------------------
def offset_model(direction, frame_scope=False):
    """lead (direction 1) / lag (-1): the value ``row_offset`` rows after (before) the current row; a
    negative offset looks the other way, NULL offset gives NULL; beyond the partition the default (the
    third argument, evaluated on the current row; NULL without one)."""
    def model(call, part, i):
        args = call.args
        offset = 1 if len(args) == 1 else literal(call, 1)
        if offset is None:
            return NULL          # "A row_offset of null will return null."
        target = i + direction * offset
        n = len(part)
        inside = 0 <= target < n and (not frame_scope or target in frame_rows(call, n, i))
        v = part[target][0] if inside else (part[i][1] if len(args) == 3 else None)
        return NULL if v is None else Value(v)
    return model


def _offset_values(full):
    def values(call):
        return (1, 2, 0, -1, -3, 7, None) if full else (2, 0, -1, None)
    return values


CI_TYPES = ("i32", "string", "decimal")


def _offset_variants(call, full):
    if not full and call.args[0].type.kind not in CI_TYPES:
        return []
    if len(call.args) == 1:
        return [call]
    return literal_variants(1, _offset_values(True), _offset_values(False))(call, full)


def _offset_edges(call, i, edges):
    """The value: its edge values; the default (third argument): NULL and two values."""
    return edges if i == 0 else edges[:3]


def _offset_sql(fn):
    def template(call):
        if len(call.args) == 1:
            return f"{fn}({{0}}) OVER w"
        n = literal(call, 1)
        if n is None:
            return None
        return f"{fn}({{0}}, {n}) OVER w" if len(call.args) == 2 else f"{fn}({{0}}, {n}, {{1}}) OVER w"
    return template


for _name, _dir, _scope in (("lead", 1, "window"), ("lag", -1, "partition")):
    register(Spec(W, _name, offset_model(_dir), kind="window", nulls="none", frames=WHOLE[:1] + FRAMES[1:2],
                  any_types=ANY[:6], variants=_offset_variants, edges=_offset_edges,
                  duckdb=_offset_sql(_name), datafusion=_offset_sql(_name),
                  alternatives=[Reading("beyond the window frame (not the partition) the default",
                                        window_reading(offset_model(_dir, frame_scope=True)),
                                        f"{_name}'s YAML returns the default 'if row_offset goes beyond the scope of "
                                        f"the {_scope}'" + ("; lag's says partition, and SQL's lead ignores the frame"
                                                            if _name == "lead" else
                                                            "; lead's says window, which could be the frame"))]))
