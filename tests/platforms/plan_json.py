"""Substrait plans as the JSON the reader takes, built by hand for the platform tests: reads of
named tables, filters, projections, and the writes no producer here writes (WriteRel, DdlRel,
UpdateRel; field names as in the pinned spec, 0.108). One ``Plan`` declares the functions its
expressions call, so each plan is self-contained."""

import json
from collections.abc import Sequence

NULLABLE = "NULLABILITY_NULLABLE"
REQUIRED = "NULLABILITY_REQUIRED"


def typ(kind: str, nullable: bool = True) -> dict:
    return {kind: {"nullability": NULLABLE if nullable else REQUIRED}}


def schema(columns: Sequence[tuple[str, str]], nullable: bool = True) -> dict:
    """A NamedStruct of top-level columns, e.g. ``[("id", "i32"), ("name", "string")]``."""
    return {"names": [n for n, _ in columns],
            "struct": {"nullability": REQUIRED, "types": [typ(k, nullable) for _, k in columns]}}


def field(i: int) -> dict:
    return {"selection": {"directReference": {"structField": {"field": i}}, "rootReference": {}}}


def lit(kind: str, value) -> dict:
    """A literal; ``value`` None is a NULL of that kind."""
    if value is None:
        return {"literal": {"null": typ(kind)}}
    return {"literal": {kind: value}}


def cast(expr: dict, kind: str) -> dict:
    return {"cast": {"type": typ(kind), "input": expr, "failureBehavior": "FAILURE_BEHAVIOR_THROW_EXCEPTION"}}


def read(names: Sequence[str], columns: Sequence[tuple[str, str]], condition: dict | None = None) -> dict:
    rel = {"baseSchema": schema(columns), "namedTable": {"names": list(names)}}
    if condition is not None:
        rel["filter"] = condition
    return {"read": rel}


def virtual(columns: Sequence[tuple[str, str]], rows: Sequence[Sequence[dict]]) -> dict:
    return {"read": {"baseSchema": schema(columns),
                     "virtualTable": {"expressions": [{"fields": list(r)} for r in rows]}}}


def filt(rel: dict, condition: dict) -> dict:
    return {"filter": {"input": rel, "condition": condition}}


def project(rel: dict, width: int, expressions: Sequence[dict]) -> dict:
    """Only the new expressions (the input's ``width`` columns emitted away)."""
    mapping = list(range(width, width + len(expressions)))
    return {"project": {"common": {"emit": {"outputMapping": mapping}}, "input": rel,
                        "expressions": list(expressions)}}


def write(names: Sequence[str], op: str, rel: dict, table_schema: dict | None = None,
          create_mode: str | None = None) -> dict:
    w = {"namedTable": {"names": list(names)}, "op": f"WRITE_OP_{op}", "input": rel,
         "output": "OUTPUT_MODE_NO_OUTPUT"}
    if table_schema is not None:
        w["tableSchema"] = table_schema
    if create_mode is not None:
        w["createMode"] = f"CREATE_MODE_{create_mode}"
    return {"write": w}


def ddl(names: Sequence[str], obj: str, op: str, table_schema: dict | None = None,
        view: dict | None = None) -> dict:
    d = {"namedObject": {"names": list(names)}, "object": f"DDL_OBJECT_{obj}", "op": f"DDL_OP_{op}"}
    if table_schema is not None:
        d["tableSchema"] = table_schema
    if view is not None:
        d["viewDefinition"] = view
    return {"ddl": d}


def update(names: Sequence[str], table_schema: dict, condition: dict, sets: dict[int, dict]) -> dict:
    return {"update": {"namedTable": {"names": list(names)}, "tableSchema": table_schema, "condition": condition,
                       "transformations": [{"columnTarget": c, "transformation": e} for c, e in sets.items()]}}


class Plan:
    """Declares each function once; ``json(rel, names)`` is the whole plan."""

    def __init__(self):
        self._urns: dict[str, int] = {}
        self._functions: dict[tuple[str, str], int] = {}

    def call(self, extension: str, signature: str, out: str, *args: dict, **options: str) -> dict:
        urn = f"extension:io.substrait:{extension}"
        self._urns.setdefault(urn, len(self._urns) + 1)
        anchor = self._functions.setdefault((urn, signature), len(self._functions) + 1)
        call = {"functionReference": anchor, "outputType": typ(out), "arguments": [{"value": a} for a in args]}
        if options:
            call["options"] = [{"name": k, "preference": [v]} for k, v in options.items()]
        return {"scalarFunction": call}

    def cmp(self, name: str, left: dict, right: dict | None = None, kinds: str = "i32_i32") -> dict:
        if right is None:
            return self.call("functions_comparison", f"{name}:any", "bool", left)
        return self.call("functions_comparison", f"{name}:{kinds}", "bool", left, right)

    def json(self, rel: dict, names: list[str] = ()) -> str:
        urns = [{"extensionUrnAnchor": a, "urn": u} for u, a in self._urns.items()]
        decls = [{"extensionFunction": {"extensionUrnReference": self._urns[u], "functionAnchor": a, "name": s}}
                 for (u, s), a in self._functions.items()]
        return json.dumps({"version": {"minorNumber": 108, "producer": "spark-substrait platform tests"},
                           "extensionUrns": urns, "extensions": decls,
                           "relations": [{"root": {"names": list(names), "input": rel}}]})
