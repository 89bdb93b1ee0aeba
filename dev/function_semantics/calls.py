"""The calls of one function: every overload of its YAML made concrete (decimal precisions,
any1 as several types, variadic counts), every enumeration argument value and every option
value, and the argument rows each call runs on."""

import itertools
import random
from collections.abc import Iterator, Sequence

import values
from catalog import Impl, YamlFunction, bind, return_type
from plans import Arg, Call
from spec import Spec
from stypes import SType

TEXT_LENGTH = 30
FIXED_LENGTH = 5
DEFAULT_ANY = (SType("i32"), SType("i64"), SType("fp64"), SType("string"), SType("date"),
               SType("decimal", 10, 2), SType("boolean"), SType("precision_timestamp", 6))


def _candidates(pattern: str, spec: Spec) -> list[SType]:
    p = pattern.strip().lower().replace("?", "")
    if p.startswith("any"):
        return list(spec.any_types or DEFAULT_ANY)
    if p.startswith("list<any"):
        return [SType("list", elem=t) for t in (spec.any_types or DEFAULT_ANY)]
    if p.startswith("decimal<"):
        whole = p.replace(" ", "").endswith(",0>")
        return [SType("decimal", q, s) for q, s in spec.decimals if not whole or s == 0] or \
            [SType("decimal", 38, 0), SType("decimal", 5, 0)]
    if p.startswith("varchar"):
        return [SType("varchar", TEXT_LENGTH)]
    if p.startswith("fixedchar"):
        return [SType("fixedchar", FIXED_LENGTH)]
    if p.startswith("precision_timestamp_tz"):
        return [SType("precision_timestamp_tz", 6)]
    if p.startswith("precision_timestamp"):
        return [SType("precision_timestamp", 6)]
    if p.startswith("precision_time"):
        return [SType("precision_time", 6)]
    if p.startswith("interval_day"):
        return [SType("interval_day", 6)]
    if p.startswith("u!"):
        return [SType(p[2:])]
    if p.startswith("func"):
        return []
    from stypes import parse
    return [parse(p)]


def _type_lists(impl: Impl, spec: Spec, count: int) -> Iterator[list[SType]]:
    """Concrete value-argument types for an overload (``count`` repetitions of a variadic last one)."""
    patterns = [a.type for a in impl.args if a.type is not None and not _is_func(a.type)]
    if impl.variadic and patterns:
        patterns = patterns[:-1] + [patterns[-1]] * count
    if not patterns:
        yield []
        return
    decimal_args = [i for i, p in enumerate(patterns) if p.lower().startswith("decimal")]
    if len(decimal_args) == 2:
        # two decimals: each precision with itself, and some mixed pairs
        cands = _candidates(patterns[decimal_args[0]], spec)
        pairs = [(c, c) for c in cands] + list(zip(cands, cands[1:] + cands[:1], strict=True))[:2]
        others = [_candidates(p, spec) if i not in decimal_args else [None] for i, p in enumerate(patterns)]
        for pair in pairs:
            for rest in itertools.product(*others):
                types = list(rest)
                types[decimal_args[0]], types[decimal_args[1]] = pair
                yield types
        return
    anys = [i for i, p in enumerate(patterns) if "any" in p.lower()]
    if anys:
        for t in spec.any_types or DEFAULT_ANY:
            env = {}
            types = []
            for p in patterns:
                if "any" in p.lower():
                    bind(p, t if not p.lower().startswith("list") else SType("list", elem=t), env)
                    types.append(SType("list", elem=t) if p.lower().startswith("list") else t)
                else:
                    types.append(_candidates(p, spec)[0])
            yield types
        return
    for combo in itertools.product(*[_candidates(p, spec) for p in patterns]):
        yield list(combo)


def _option_sets(options: dict[str, list[str]], full: bool) -> list[dict[str, list[str]]]:
    """Every combination of option values (full), or each value once with the others unset; and no options."""
    out: list[dict[str, list[str]]] = [{}]
    names = sorted(options)
    if full:
        for n in range(1, len(names) + 1):
            for chosen in itertools.combinations(names, n):
                for vals in itertools.product(*[options[c] for c in chosen]):
                    out.append({c: [v] for c, v in zip(chosen, vals, strict=True)})
    else:
        out += [{n: [v]} for n in names for v in options[n]]
    return out


def calls(spec: Spec, fn: YamlFunction, full: bool) -> list[Call]:
    out = []
    for impl in fn.impls:
        counts = [1]
        if impl.variadic:
            lo = impl.variadic.get("min", 0)
            hi = impl.variadic.get("max", 99)
            counts = [c for c in spec.variadic_counts if lo <= c <= hi] or [max(lo, 1)]
        for count in counts:
            for types in _type_lists(impl, spec, count):
                env: dict = {}
                patterns = [a.type for a in impl.args if a.type is not None and not _is_func(a.type)]
                if impl.variadic and patterns:
                    patterns = patterns[:-1] + [patterns[-1]] * count
                if not all(bind(p, t, env) for p, t in zip(patterns, types, strict=True)):
                    continue
                try:
                    out_type = return_type(impl.ret, env)
                except Exception:  # noqa: BLE001 - a return the evaluator cannot read: the spec gives it
                    out_type = None
                enum_lists = [a.enum for a in impl.args if a.enum is not None]
                for enums in itertools.product(*enum_lists):
                    for opts in _option_sets(impl.options, full):
                        vit = iter(types)
                        args = []
                        eit = iter(enums)
                        decls = list(impl.args)
                        if impl.variadic and decls:
                            decls = decls[:-1] + [decls[-1]] * count
                        for a in decls:
                            # a func<…> argument: a placeholder the spec's variants replace by lambdas
                            args.append(Arg(enum=next(eit)) if a.enum is not None else Arg() if _is_func(a.type)
                                        else Arg(type=next(vit)))
                        base = Call(fn.ext, fn.name, fn.kind, args, out_type, dict(opts))
                        for call in (spec.variants(base, full) if spec.variants else [base]):
                            if call.out is None or (spec.skip_call and spec.skip_call(call)) or \
                                    any(a.type is None and a.enum is None and a.lam is None for a in call.args):
                                continue
                            out.append(call)
    return out if full else _pinned(out)


def _pinned(all_calls: list[Call]) -> list[Call]:
    """The CI subset: a few calls covering every overload (argument types), every option value
    and every enumeration value at least once, chosen greedily (each next call the one covering
    most of what is not covered yet; ties to the first in generation order, so the subset is
    fixed)."""
    def features(c: Call) -> set:
        f = {("types", tuple(str(a.type) for a in c.args if a.type is not None), str(c.out))}
        f |= {("option", k, tuple(v)) for k, v in c.options.items()}
        f |= {("enum", i, a.enum) for i, a in enumerate(c.args) if a.enum is not None}
        f |= {("literal", i, repr(a.value)) for i, a in enumerate(c.args) if a.literal}
        return f
    feats = [features(c) for c in all_calls]
    uncovered = set().union(*feats) if feats else set()
    chosen = []
    while uncovered:
        best = max(range(len(all_calls)), key=lambda i: (len(feats[i] & uncovered), -i))
        chosen.append(best)
        uncovered -= feats[best]
    return [all_calls[i] for i in sorted(chosen)]


def _is_func(pattern: str) -> bool:
    return pattern.strip().lower().startswith("func")


def rows(spec: Spec, call: Call, rng: random.Random, n_random: int) -> list[tuple]:
    """The argument rows of a call: edge values (every pair for two arguments), then random ones."""
    if spec.rows is not None:
        return spec.rows(call, rng, n_random)
    types = call.value_types
    lists = []
    for i, t in enumerate(types):
        e = values.edges(t)
        lists.append(spec.edges(call, i, e) if spec.edges else e)
    if not types:
        out = [()]
    elif len(types) == 1:
        out = [(v,) for v in lists[0]]
    elif len(types) == 2:
        out = list(itertools.product(*lists))
    else:
        out = [tuple(rng.choice(vals) for vals in lists) for _ in range(150)]
        out += [tuple(vals[i % len(vals)] for vals in lists) for i in range(max(len(v) for v in lists))]
    out += [tuple(values.random_value(t, rng) for t in types) for _ in range(n_random)]
    return out


def capped(rows: list[tuple], cap: int | None, rng: random.Random) -> list[tuple]:
    """At most ``cap`` rows: every row with a NULL, and a seeded sample of the others, in order."""
    if cap is None or len(rows) <= cap:
        return rows
    nulls = [i for i, r in enumerate(rows) if any(v is None for v in r)][:cap // 4]
    others = [i for i in range(len(rows)) if i not in set(nulls)]
    keep = set(nulls) | set(rng.sample(others, cap - len(nulls)))
    return [r for i, r in enumerate(rows) if i in keep]


def signature_key(call: Call) -> str:
    return f"{call.ext}:{call.signature()}"


def options_text(call: Call) -> str:
    return ", ".join(f"{k}={'|'.join(v)}" for k, v in sorted(call.options.items())) or "no options"


def describe(call: Call) -> str:
    from outcomes import render
    args = ", ".join(a.enum if a.enum is not None else f"({a.lam.text})" if a.lam is not None else
                     f"{'NULL' if a.value is None else render(a.value)}::{a.type}" if a.literal else str(a.type)
                     for a in call.args)
    return f"{call.name}({args}) -> {call.out} [{options_text(call)}]"


def arg_text(row: Sequence) -> str:
    from outcomes import render
    return "(" + ", ".join("NULL" if v is None else render(v) for v in row) + ")"
