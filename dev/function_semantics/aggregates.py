"""Aggregate and window calls: rows gathered into groups (every edge value in one group, a
group of NULLs, a single row, duplicates, random groups) and an empty input; a window call
runs over each group in row order, in each frame the spec lists."""

import random

import pyarrow as pa

import calls as calls_mod
import plans
from engines import engine_error, per_row, to_python, value_outcome
from outcomes import Error, Outcome
from plans import Call

FRAMES_SQL = {"unbounded": "UNBOUNDED PRECEDING", "current": "CURRENT ROW"}


def groups(call: Call, rows: list[tuple], rng: random.Random, n_edges: int) -> list[tuple[int, tuple]]:
    """(group, row) pairs: g0 every edge row, g1 NULLs only, g2 one row, g3 a row four times, then random groups."""
    width = len(call.value_types)
    edges, rest = rows[:n_edges], rows[n_edges:]
    out = [(0, r) for r in edges]
    out += [(1, (None,) * width)] * 3
    non_null = [r for r in rows if all(v is not None for v in r)] or rows
    out.append((2, non_null[0]))
    dup = rng.choice(non_null)
    out += [(3, dup)] * 4
    g = 4
    i = 0
    while i < len(rest):
        size = rng.randint(1, 6)
        out += [(g, r) for r in rest[i:i + size]]
        i += size
        g += 1
    return out


def _window_sql(frame) -> str:
    def bound(b, upper):
        if b in FRAMES_SQL:
            return FRAMES_SQL[b] if b != "unbounded" or not upper else "UNBOUNDED FOLLOWING"
        kind, n = b.split(":")
        return f"{n} {'PRECEDING' if kind == 'preceding' else 'FOLLOWING'}"
    return f"ROWS BETWEEN {bound(frame[0], False)} AND {bound(frame[1], True)}"


def run_grouped_call(runner, spec, call: Call, rng: random.Random, res) -> None:
    frames = spec.frames if spec.kind == "window" else [None]
    if not runner.cfg.full:
        frames = frames[:1]   # the CI subset: one frame per window call (every frame in the full run)
    for frame in frames:
        if frame is not None:
            call = plans.Call(call.ext, call.name, call.kind, call.args, call.out, call.options, frame)
        rows = calls_mod.rows(spec, call, rng, runner.cfg.random_rows)
        n_edges = len(rows) - runner.cfg.random_rows if spec.rows is None else len(rows) // 2
        pairs = groups(call, rows, rng, max(n_edges, 1))
        extra = getattr(spec, "extra_groups", None)
        for group in extra(call) if extra else []:   # hand-picked groups, after the others
            gid = max(g for g, _ in pairs) + 1 if pairs else 0
            pairs += [(gid, tuple(r)) for r in group]
        if spec.kind == "aggregate":
            _aggregate(runner, spec, call, pairs, res)
        else:
            _window(runner, spec, call, pairs, res)


def _by_group(pairs):
    out = {}
    for g, r in pairs:
        out.setdefault(g, []).append(r)
    return out


def _aggregate(runner, spec, call, pairs, res) -> None:
    grouped = _by_group(pairs)
    keys = sorted(grouped)
    expected = [spec.model(call, grouped[g]) for g in keys]

    def run(idx):
        chosen = [keys[i] for i in idx]
        got = runner.spark.run(plans.aggregate_plan(call, [(g, r) for g in chosen for r in grouped[g]]),
                               call.out, ["g", "r"])
        if not isinstance(got, list):
            return got
        by_g = dict(zip(got[0], got[1], strict=True))
        return [value_outcome(by_g.get(g)) for g in chosen]
    ours = runner._split(run, expected)
    empty_exp = spec.model(call, [])
    empty = runner.spark.run(plans.aggregate_plan(call, [], grouped=False), call.out, ["r"])
    empty_got = value_outcome(empty[0][0]) if isinstance(empty, list) and empty[0] else \
        (empty if not isinstance(empty, list) else value_outcome(None))
    engine_out = {}
    for name in runner.engines:
        template = getattr(spec, name)(call) if getattr(spec, name) else None
        if template:
            engine_out[name] = _engine_groups(runner, name, template, call, grouped, keys)
    group_rows = [tuple(grouped[g]) for g in keys]
    runner.record(spec, call, res, [("grouped", group_rows, expected, ours), ("empty input", [()], [empty_exp], [empty_got])],
                  group_rows, expected, engine_out, what=_groups_text)


def _groups_text(rows) -> str:
    if rows == ():
        return "(no rows)"
    return "{" + ", ".join(calls_mod.arg_text(r) for r in rows[:12]) + (" …" if len(rows) > 12 else "") + "}"


def _table(call, pairs, with_id=False):
    cols = {}
    if with_id:
        cols["id"] = pa.array(range(len(pairs)), pa.int32())
    cols["g"] = pa.array([g for g, _ in pairs], pa.int32())
    for i, t in enumerate(call.value_types):
        cols[f"c{i}"] = t.arrow_array([r[i] for _, r in pairs])
    return pa.table(cols)


def _engine_groups(runner, name, template, call, grouped, keys) -> list[Outcome]:
    engine = runner.engines[name]
    expr = template.format(*[f"c{i}" for i in range(len(call.value_types))])

    def run(idx):
        chosen = [keys[i] for i in idx]
        table = _table(call, [(g, r) for g in chosen for r in grouped[g]])
        try:
            res = engine.query(table, f"SELECT g, {expr} AS r FROM t GROUP BY g ORDER BY g")
        except Exception as e:  # noqa: BLE001
            return engine_error(e)
        by_g = dict(zip(res.column("g").to_pylist(), to_python(res.column("r"), call.out), strict=True))
        return [value_outcome(by_g.get(g)) for g in chosen]
    return per_row(run, len(keys))


class WindowRow(tuple):
    """A row of a window call (its argument values) that knows its partition ``part`` and its
    index ``i`` there: what a window spec's readings and ``accept`` need, called with a row."""

    def __new__(cls, values, part, i):
        row = super().__new__(cls, values)
        row.part, row.i = part, i
        return row


def _window(runner, spec, call, pairs, res) -> None:
    grouped = _by_group(pairs)
    keys = sorted(grouped)
    ordered = [(g, r) for g in keys for r in grouped[g]]
    # spec.order_keys: the sort key of each row of a partition (ties are peers), instead of row order
    order_keys = getattr(spec, "order_keys", None)
    peers = {g: order_keys(call, grouped[g]) for g in keys} if order_keys else None
    expected = []
    for g in keys:
        part = grouped[g]
        expected += [spec.model(call, part, i) for i in range(len(part))]
    offsets, start = {}, 0
    for g in keys:
        offsets[g] = (start, len(grouped[g]))
        start += len(grouped[g])

    def run(idx):  # idx: partitions
        chosen = [keys[i] for i in idx]
        sub = [(g, r) for g in chosen for r in grouped[g]]
        got = runner.spark.run(plans.window_plan(call, sub, [k for g in chosen for k in peers[g]] if peers else None),
                               call.out, ["id", "r"])
        if not isinstance(got, list):
            return got
        by_id = dict(zip(got[0], got[1], strict=True))
        vals = [value_outcome(by_id.get(j)) for j in range(len(sub))]
        out, k = [], 0
        for g in chosen:
            out.append(vals[k:k + len(grouped[g])])
            k += len(grouped[g])
        return out
    part_expected = [Error() if any(isinstance(e, Error) for e in expected[offsets[g][0]:sum(offsets[g])]) else None
                     for g in keys]
    per_part = runner._split(run, part_expected)
    ours = []
    for g, got in zip(keys, per_part, strict=True):
        ours += got if isinstance(got, list) else [got] * len(grouped[g])
    engine_out = {}
    for name in runner.engines:
        template = getattr(spec, name)(call) if getattr(spec, name) else None
        if template:
            table = _table(call, ordered, with_id=True)
            if peers:
                table = table.append_column("k", pa.array([k for g in keys for k in peers[g]], pa.int32()))
            expr = template.format(*[f"c{i}" for i in range(len(call.value_types))])
            sql = (f"SELECT id, {expr} AS r FROM t WINDOW w AS (PARTITION BY g ORDER BY {'k' if peers else 'id'} "
                   f"{_window_sql(call.frame)}) ORDER BY id")
            try:
                out = runner.engines[name].query(table, sql)
                engine_out[name] = [value_outcome(v) for v in to_python(out.column("r"), call.out)]
            except Exception as e:  # noqa: BLE001
                engine_out[name] = [engine_error(e)] * len(ordered)
    rows = [WindowRow(r, grouped[g], i) for g in keys for i, r in enumerate(grouped[g])]
    runner.record(spec, call, res, [("window", rows, expected, ours)], rows, expected, engine_out)
