"""Runs every call of every function spec on Spark (our reader), on DuckDB and DataFusion
where the spec writes the same computation in their SQL, and judges each answer against the
model: ours exact, spec open (another documented reading), refused, wrong or a foreign error;
each engine agreeing, differing as documented, or differing unexplained."""

import collections
import dataclasses
import random
import re
import time

import pyarrow as pa

import calls as calls_mod
import open_defects
import plans
from engines import SparkEngine, SqlEngine, engine_error, per_row, to_python, value_outcome
from outcomes import NULL, Error, Foreign, Outcome, Refused, agrees
from plans import Call
from spec import Spec

EXAMPLES = 6


@dataclasses.dataclass
class Config:
    full: bool = True
    seed: int = 20261126
    random_rows: int = 48
    max_rows: int | None = None       # the CI subset: at most this many argument rows per call (a seeded sample)
    literal_rows: int = 40
    error_rows: int = 24              # rows expected to fail, each run alone: at most this many per call
    only: set | None = None
    engines: tuple = ("duckdb", "datafusion")


@dataclasses.dataclass
class FunctionResult:
    ext: str
    name: str
    kind: str
    calls: int = 0
    cases: int = 0
    verdicts: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    engines: dict[str, collections.Counter] = dataclasses.field(default_factory=dict)
    examples: dict[str, list[str]] = dataclasses.field(default_factory=lambda: collections.defaultdict(list))
    # (option, value) -> verdicts of the calls asking for it; and the reasons of refusals
    pairs: dict[tuple, collections.Counter] = dataclasses.field(default_factory=lambda: collections.defaultdict(collections.Counter))
    refusals: dict[str, str] = dataclasses.field(default_factory=dict)
    notes: dict[str, collections.Counter] = dataclasses.field(default_factory=lambda: collections.defaultdict(collections.Counter))
    seconds: float = 0.0

    def example(self, key: str, text: str) -> None:
        if len(self.examples[key]) < EXAMPLES:
            self.examples[key].append(text)


class Runner:
    def __init__(self, spark, cfg: Config):
        self.cfg = cfg
        self.spark = SparkEngine(spark)
        self.engines = {n: SqlEngine(n) for n in cfg.engines}

    # ---- one call on each engine -----------------------------------------------------
    def _ours(self, call: Call, rows: list[tuple], expected: list[Outcome]) -> list[Outcome]:
        def run(idx):
            got = self.spark.run(plans.scalar_plan(call, [rows[i] for i in idx]), call.out, ["id", "r"])
            if not isinstance(got, list):
                return got
            by_id = dict(zip(got[0], got[1], strict=True))
            return [value_outcome(by_id.get(j)) for j in range(len(idx))]
        return self._split(run, expected)

    def _ours_literal(self, call: Call, rows: list[tuple], expected: list[Outcome]) -> list[Outcome]:
        def run(idx):
            got = self.spark.run(plans.literal_plan(call, [rows[i] for i in idx]), call.out,
                                 [f"r{j}" for j in range(len(idx))])
            if not isinstance(got, list):
                return got
            return [value_outcome(col[0]) for col in got]
        return self._split(run, expected)

    def _split(self, run, expected: list[Outcome]) -> list[Outcome]:
        """Rows expected to fail run one by one (at most ``error_rows`` of them; the others are
        left out, None); the others together, split when a run fails."""
        out: list[Outcome | None] = [None] * len(expected)
        failing = [i for i, e in enumerate(expected) if isinstance(e, Error)][:self.cfg.error_rows]
        rest = [i for i, e in enumerate(expected) if not isinstance(e, Error)]
        if rest:
            for i, r in zip(rest, per_row(lambda idx: run([rest[j] for j in idx]), len(rest)), strict=True):
                out[i] = r
        refused = [out[i] for i in rest if isinstance(out[i], Refused)]
        if rest and len(refused) == len(rest):
            # the plan was refused at conversion whatever its rows: so are the failing rows' plans
            for i in failing:
                out[i] = refused[0]
            return out
        for i in failing:
            r = run([i])
            out[i] = r[0] if isinstance(r, list) else r
        return out

    def _engine(self, name: str, sql_expr: str, call: Call, rows: list[tuple]) -> list[Outcome]:
        engine = self.engines[name]
        types = call.value_types
        cols = {"id": pa.array(range(len(rows)), pa.int32())}
        for i, t in enumerate(types):
            cols[f"c{i}"] = t.arrow_array([r[i] for r in rows])
        table = pa.table(cols)
        expr = sql_expr.format(*[f"c{i}" for i in range(len(types))])
        sql = f"SELECT id, {expr} AS r FROM t ORDER BY id"

        def run(idx):
            sub = table.take(pa.array(idx)).set_column(0, "id", pa.array(range(len(idx)), pa.int32()))
            try:
                res = engine.query(sub, sql)
            except Exception as e:  # noqa: BLE001 - every failure is an outcome
                return engine_error(e)
            vals = to_python(res.column("r"), call.out)
            return [value_outcome(v) for v in vals]
        return per_row(run, len(rows))

    # ---- judging ------------------------------------------------------------------------
    def _judge_ours(self, spec: Spec, call: Call, row, exp: Outcome, got: Outcome, tol: float, single: bool):
        if agrees(exp, got, tol, single) or (spec.accept is not None and spec.accept(call, row, exp, got)):
            return "exact", ""
        if isinstance(got, Refused):
            return "refused", got.detail
        if isinstance(got, Foreign):
            return "foreign", got.detail
        for reading in spec.alternatives:
            alt = NULL if (spec.nulls == "mirror" and any(v is None for v in row)) else reading.model(call, row)
            if agrees(alt, got, tol, single):
                return "spec_open", reading.name
        known = open_defects.why(call.name, calls_mod.options_text(call), calls_mod.arg_text(row))
        if known:
            return "open_defect", known
        return "wrong", ""

    def _judge_engine(self, spec: Spec, name: str, call: Call, row, exp: Outcome, got: Outcome, tol, single):
        if agrees(exp, got, tol, single) or (spec.accept is not None and spec.accept(call, row, exp, got)):
            return "agree", ""
        for note in spec.engine_notes:
            if note.engine == name and note.when(call, row, exp, got):
                return "documented", note.sentence
        for reading in spec.alternatives:
            alt = NULL if (spec.nulls == "mirror" and any(v is None for v in row)) else reading.model(call, row)
            if agrees(alt, got, tol, single):
                return "documented", f"reads the spec as: {reading.name}"
        return "unexplained", ""

    # ---- a whole function ---------------------------------------------------------------------
    def run_function(self, spec: Spec, fn, rng: random.Random) -> FunctionResult:
        res = FunctionResult(fn.ext, fn.name, fn.kind)
        start = time.time()
        for call in calls_mod.calls(spec, fn, self.cfg.full):
            if spec.kind == "scalar":
                self._scalar_call(spec, call, rng, res)
            else:
                from aggregates import run_grouped_call
                run_grouped_call(self, spec, call, rng, res)
        res.seconds = time.time() - start
        return res

    def _scalar_call(self, spec: Spec, call: Call, rng: random.Random, res: FunctionResult) -> None:
        rows = calls_mod.capped(calls_mod.rows(spec, call, rng, self.cfg.random_rows), self.cfg.max_rows, rng)
        expected = [spec.expected(call, r) for r in rows]
        ours = self._ours(call, rows, expected)
        paths = [("column", rows, expected, ours)]
        if self.cfg.literal_rows and not isinstance(ours[0], Refused):
            n = min(self.cfg.literal_rows, len(rows))
            pick = sorted(rng.sample(range(len(rows)), n)) if len(rows) > n else list(range(n))
            lrows = [rows[i] for i in pick]
            lexp = [expected[i] for i in pick]
            paths.append(("literal", lrows, lexp, self._ours_literal(call, lrows, lexp)))
        engine_out = {}
        for name in self.engines:
            template = getattr(spec, name)(call) if getattr(spec, name) else None
            if template:
                engine_out[name] = self._engine(name, template, call, rows)
        self.record(spec, call, res, paths, rows, expected, engine_out)

    def record(self, spec, call, res, paths, rows, expected, engine_out, what=calls_mod.arg_text) -> None:
        res.calls += 1
        tol = spec.tolerance(call)
        single = call.out.kind == "fp32"
        call_verdicts = collections.Counter()
        for path, prow, pexp, pgot in paths:
            for row, exp, got in zip(prow, pexp, pgot, strict=True):
                if got is None:   # an expected failure beyond the cap: not run
                    continue
                verdict, detail = self._judge_ours(spec, call, row, exp, got, tol, single)
                res.cases += 1
                res.verdicts[verdict] += 1
                call_verdicts[verdict] += 1
                if verdict == "refused":
                    res.refusals[f"{calls_mod.describe(call)}"] = detail
                elif verdict == "spec_open":
                    res.notes["spec_open"][detail] += 1
                elif verdict == "open_defect":
                    res.notes["open_defect"][detail] += 1
                elif verdict != "exact":
                    res.example(verdict, f"{calls_mod.describe(call)} {path} {what(row)}: expected "
                                         f"{exp.short()}, got {got.short()} {detail[:300]}")
        engine_tol = spec.engine_tolerance(call) if spec.engine_tolerance else tol
        for name, outs in engine_out.items():
            counter = res.engines.setdefault(name, collections.Counter())
            comparable = [o for o in outs if not (isinstance(o, Error) and o.kind is None)]
            if not comparable and any(not isinstance(e, Error) for e in expected):
                counter["not comparable"] += len(outs)
                res.notes[f"{name} cannot run"][outs[0].detail[:200] if outs else ""] += 1
                continue
            for row, exp, got in zip(rows, expected, outs, strict=True):
                verdict, sentence = self._judge_engine(spec, name, call, row, exp, got, engine_tol, single)
                counter[verdict] += 1
                if verdict == "documented":
                    res.notes[f"{name} differs"][sentence] += 1
                elif verdict == "unexplained":
                    res.example(f"{name} unexplained", f"{calls_mod.describe(call)} {what(row)}: expected "
                                                       f"{exp.short()}, {name} gave {got.short()}")
        pairs = [(k, v[0]) for k, v in call.options.items()] + [("(enum)", a.enum) for a in call.args if a.enum] \
            + [("(literal)", repr(a.value)) for a in call.args if a.literal]
        worst = next((v for v in ("wrong", "foreign", "open_defect", "refused", "spec_open") if call_verdicts[v]), "exact")
        if worst == "refused":
            # a refusal naming one option value of the call is that pair's; the call's other pairs did not run
            detail = res.refusals.get(calls_mod.describe(call), "")
            m = re.search(r"option (\S+) = ([^,\s]+)", detail)
            named = (m.group(1), m.group(2).rstrip(".")) if m else None
            if named is None and ".output_type" in detail.split(":")[0]:
                # a return type Spark cannot hold (a nanosecond timestamp): the type's refusal
                res.pairs[("(type)", str(call.out))]["refused"] += 1
                return
            if named in pairs:
                res.pairs[named]["refused"] += 1
                return
        for p in pairs or [("(none)", "")]:
            res.pairs[p][worst] += 1
