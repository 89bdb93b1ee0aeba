"""Substrait plans of one function call over rows of argument values (JSON, spec 0.108).

- scalar: a virtual table (id, a0, a1, …) and a projection computing the call per row; or,
  in literal form, one row and one call per expression with every argument a literal;
- aggregate: a virtual table (g, a0, …) grouped by g, the call as the measure;
- window: the call over the rows of each g in id order, with the given frame.
"""

import dataclasses
import json
from collections.abc import Sequence

from stypes import UNSIGNED, UNSIGNED_ANCHORS, SType

I32 = SType("i32")


@dataclasses.dataclass(frozen=True)
class Lambda:
    """A lambda argument (a func<…> parameter): its parameter types, its body's type and the
    body, a tree of ``("param", i)``, ``("lit", SType, value)`` and
    ``("call", ext, signature, out SType, (args…))`` (a function of another extension)."""

    params: tuple[SType, ...]
    out: SType
    body: tuple
    text: str = ""


@dataclasses.dataclass(frozen=True)
class Arg:
    """One argument of a call: a value of ``type``, or an enumeration ``enum``; a ``literal``
    value argument is ``value`` in every plan (a time zone, a format) and in no row."""

    type: SType | None = None
    enum: str | None = None
    literal: bool = False
    value: object = None
    lam: Lambda | None = None                 # a lambda argument (func<…>), in every plan and in no row


@dataclasses.dataclass
class Call:
    ext: str                                  # functions_arithmetic
    name: str                                 # divide
    kind: str                                 # scalar | aggregate | window
    args: list[Arg]
    out: SType                                # the declared output type
    options: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    frame: tuple[str, str] = ("unbounded", "current")   # window frame: ROWS lower, upper

    @property
    def value_types(self) -> list[SType]:
        return [a.type for a in self.args if a.type is not None and not a.literal]

    def signature(self) -> str:
        parts = ["req" if a.enum is not None else "func" if a.type is None else a.type.short() for a in self.args]
        return f"{self.name}:{'_'.join(parts)}" if parts else self.name


def _field(i: int) -> dict:
    return {"selection": {"directReference": {"structField": {"field": i}}, "rootReference": {}}}


def _arguments(call: Call, values: Sequence[dict]) -> list[dict]:
    """The call's arguments: enums in place, ``values`` (expressions) for the value arguments."""
    it = iter(values)
    return [{"enum": a.enum} if a.enum is not None else {"value": a.type.literal(a.value)} if a.literal
            else {"value": _lambda(a.lam, call)} if a.lam is not None
            else {"value": next(it)} for a in call.args]


def _lambda_functions(call: Call) -> list[tuple[str, str]]:
    """The functions the call's lambda bodies invoke, (extension, signature), anchored 2, 3, … in this order."""
    out: list[tuple[str, str]] = []

    def walk(node):
        if node[0] == "call":
            if (node[1], node[2]) not in out:
                out.append((node[1], node[2]))
            for a in node[4]:
                walk(a)
    for a in call.args:
        if a.lam is not None:
            walk(a.lam.body)
    return out


def _lambda(lam: Lambda, call: Call) -> dict:
    anchors = {f: i + 2 for i, f in enumerate(_lambda_functions(call))}

    def expr(node):
        if node[0] == "param":
            return {"selection": {"directReference": {"structField": {"field": node[1]}},
                                  "lambdaParameterReference": {"stepsOut": 0}}}
        if node[0] == "lit":
            return node[1].literal(node[2])
        _, ext, sig, out, args = node
        return {"scalarFunction": {"functionReference": anchors[(ext, sig)], "outputType": out.json(),
                                   "arguments": [{"value": expr(a)} for a in args]}}
    return {"lambda": {"parameters": {"types": [t.json() for t in lam.params], "nullability": "NULLABILITY_REQUIRED"},
                       "body": expr(lam.body)}}


def _options(call: Call) -> list[dict]:
    return [{"name": k, "preference": list(v)} for k, v in call.options.items()]


def _table(types: list[SType], rows: list[Sequence]) -> dict:
    names = [f"c{i}" for i in range(len(types))]
    schema = {"names": names, "struct": {"types": [t.json() for t in types], "nullability": "NULLABILITY_REQUIRED"}}
    table = {"expressions": [{"fields": [t.literal(v) for t, v in zip(types, row, strict=True)]} for row in rows]}
    return {"read": {"baseSchema": schema, "virtualTable": table}}


def _extensions(call: Call) -> dict:
    urn = f"extension:io.substrait:{call.ext}"
    out = {"extensionUrns": [{"extensionUrnAnchor": 1, "urn": urn}],
           "extensions": [{"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 1,
                                                 "name": call.signature()}}]}
    unsigned = {t.kind for t in call.value_types + [call.out] if t.kind in UNSIGNED}
    unsigned |= {t.elem.kind for t in call.value_types if t.kind == "list" and t.elem.kind in UNSIGNED}
    if unsigned:
        if call.ext != "unsigned_integers":
            out["extensionUrns"].append({"extensionUrnAnchor": 2, "urn": "extension:io.substrait:unsigned_integers"})
        ref = 1 if call.ext == "unsigned_integers" else 2
        for k in sorted(unsigned):
            out["extensions"].append({"extensionType": {"extensionUrnReference": ref, "typeAnchor": UNSIGNED_ANCHORS[k],
                                                        "name": k}})
    urns = {call.ext: 1}
    for i, (ext, sig) in enumerate(_lambda_functions(call)):
        if ext not in urns:
            urns[ext] = 10 + len(urns)
            out["extensionUrns"].append({"extensionUrnAnchor": urns[ext], "urn": f"extension:io.substrait:{ext}"})
        out["extensions"].append({"extensionFunction": {"extensionUrnReference": urns[ext], "functionAnchor": i + 2,
                                                        "name": sig}})
    return out


def _plan(call: Call, root: dict, names: list[str]) -> str:
    plan = {"version": {"minorNumber": 108, "producer": "spark-substrait function-semantics"}}
    plan.update(_extensions(call))
    plan["relations"] = [{"root": {"input": root, "names": names}}]
    return json.dumps(plan)


def scalar_plan(call: Call, rows: list[Sequence]) -> str:
    """Columns id, r: the call over each row (rows hold the value arguments, in order)."""
    types = [I32] + call.value_types
    table = _table(types, [(i,) + tuple(r) for i, r in enumerate(rows)])
    n = len(call.value_types)
    fn = {"scalarFunction": {"functionReference": 1, "outputType": call.out.json(),
                             "arguments": _arguments(call, [_field(i + 1) for i in range(n)]),
                             "options": _options(call)}}
    project = {"project": {"common": {"emit": {"outputMapping": [0, n + 1]}}, "input": table, "expressions": [fn]}}
    return _plan(call, project, ["id", "r"])


def literal_plan(call: Call, rows: list[Sequence]) -> str:
    """One row, one column per row of ``rows``: the call with every value argument a literal."""
    table = _table([I32], [(0,)])
    exprs = [{"scalarFunction": {"functionReference": 1, "outputType": call.out.json(),
                                 "arguments": _arguments(call, [t.literal(v) for t, v in
                                                                 zip(call.value_types, row, strict=True)]),
                                 "options": _options(call)}} for row in rows]
    project = {"project": {"common": {"emit": {"outputMapping": list(range(1, len(rows) + 1))}},
                           "input": table, "expressions": exprs}}
    return _plan(call, project, [f"r{i}" for i in range(len(rows))])


def _aggregate_function(call: Call, n: int, offset: int) -> dict:
    return {"functionReference": 1, "outputType": call.out.json(),
            "arguments": _arguments(call, [_field(i + offset) for i in range(n)]), "options": _options(call),
            "phase": "AGGREGATION_PHASE_INITIAL_TO_RESULT", "invocation": "AGGREGATION_INVOCATION_ALL"}


def aggregate_plan(call: Call, groups: list[tuple[int, Sequence]], grouped: bool = True) -> str:
    """Columns g, r (grouped) or r alone: the call over the rows of each group."""
    types = [I32] + call.value_types
    table = _table(types, [(g,) + tuple(r) for g, r in groups])
    n = len(call.value_types)
    measure = {"measure": _aggregate_function(call, n, 1)}
    agg = {"input": table, "measures": [measure]}
    if grouped:
        agg["groupingExpressions"] = [_field(0)]
        agg["groupings"] = [{"expressionReferences": [0]}]
    return _plan(call, {"aggregate": agg}, ["g", "r"] if grouped else ["r"])


def _bound(b: str) -> dict:
    if b == "unbounded":
        return {"unbounded": {}}
    if b == "current":
        return {"currentRow": {}}
    kind, n = b.split(":")
    return {kind: {"offset": str(n)}}


def window_plan(call: Call, groups: list[tuple[int, Sequence]], keys: list[int] | None = None) -> str:
    """Columns id, r: the call over each row's group g, ordered by id, in the call's frame; with
    ``keys`` (one per row, ties allowed: peers), ordered by a last column k holding them instead."""
    types = [I32, I32] + call.value_types + ([I32] if keys is not None else [])
    table = _table(types, [(i, g) + tuple(r) + ((keys[i],) if keys is not None else ())
                           for i, (g, r) in enumerate(groups)])
    n = len(call.value_types)
    fn = dict(_aggregate_function(call, n, 2))
    fn.update({"partitions": [_field(1)],
               "sorts": [{"expr": _field(0 if keys is None else n + 2), "direction": "SORT_DIRECTION_ASC_NULLS_LAST"}],
               "boundsType": "BOUNDS_TYPE_ROWS", "lowerBound": _bound(call.frame[0]),
               "upperBound": _bound(call.frame[1])})
    fn.pop("phase")
    fn["phase"] = "AGGREGATION_PHASE_INITIAL_TO_RESULT"
    width = len(types)
    project = {"project": {"common": {"emit": {"outputMapping": [0, width]}}, "input": table,
                           "expressions": [{"windowFunction": fn}]}}
    return _plan(call, project, ["id", "r"])
