"""The explain document as text for a terminal: the Substrait tree (each relation with the
Catalyst operators it became and its function mappings), the converted Catalyst tree (each
node with its relation), the producer spellings read, and Spark's analyzed and optimized
plans."""

from typing import Any


def relation_label(r: dict[str, Any]) -> str:
    return f"[{r['id']}] {r['kind']}"


def function_mappings(doc: dict[str, Any], relation: dict[str, Any]) -> list[str]:
    """One line per distinct mapping in a relation (``name (extension) -> Spark``, how many
    calls, the alias read): nested calls repeat mappings, and each call's location and
    Spark SQL are in the JSON form."""
    counts: dict[str, int] = {}
    for fid in relation["functions"]:
        f = doc["functions"][fid]
        alias = f"  [alias {f['alias']}]" if f.get("alias") else ""
        line = f"{f['name']} ({f['extension'] or 'by name'}) -> {f['spark']}{alias}"
        counts[line] = counts.get(line, 0) + 1
    return [line + (f"  x{n}" if n > 1 else "") for line, n in counts.items()]


def operator_list(r: dict[str, Any]) -> str:
    if not r["operators"]:
        return "(no operator of its own: passes its input on)"
    ids = r["catalyst"]
    parts = [f"{name} #{ids[i]}" if i < len(ids) else name for i, name in enumerate(r["operators"])]
    return ", ".join(parts)


def _relation_tree(doc: dict[str, Any]) -> list[str]:
    relations = doc["relations"]
    lines: list[str] = []

    def walk(rid: int, via: str, prefix: str, last: bool, top: bool) -> None:
        r = relations[rid]
        branch = "" if top else ("└─ " if last else "├─ ")
        body = prefix + ("" if top else ("   " if last else "│  "))
        children = r["children"]
        inner = body + ("│  " if children else "   ")
        head = f"{via}: " if via else ""
        lines.append(f"{prefix}{branch}{head}{relation_label(r)}  {r['path']}")
        if r["details"]:
            lines.append(f"{inner}{'; '.join(r['details'])}")
        lines.append(f"{inner}=> {operator_list(r)}")
        for line in function_mappings(doc, r):
            lines.append(f"{inner}fn {line}")
        for note in r["notes"]:
            lines.append(f"{inner}note: {note}")
        for i, c in enumerate(children):
            walk(c["id"], c["via"], body, i == len(children) - 1, False)

    for rid in doc["roots"]:
        walk(rid, "", "", True, True)
    return lines


def _shortened(text: str, limit: int = 240) -> str:
    """A Catalyst node's text for a terminal line (the JSON and the graph have it whole)."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _catalyst_tree(doc: dict[str, Any]) -> list[str]:
    nodes, relations = doc["catalyst"]["nodes"], doc["relations"]
    lines: list[str] = []

    def walk(nid: int, prefix: str, branch: str, seen: set) -> None:
        n = nodes[nid]
        owner = f"   <- {relation_label(relations[n['relation']])}" if n["relation"] is not None else ""
        if nid in seen:  # Catalyst shares immutable subtrees (a view's relation read twice)
            lines.append(f"{prefix}{branch}#{n['id']} {n['name']} (shared, as above)")
            return
        lines.append(f"{prefix}{branch}#{n['id']} {_shortened(n['text'])}{owner}")
        seen.add(nid)
        kids = [(c, "") for c in n["children"]] + [(s, "subquery ") for s in n["subqueries"]]
        child_prefix = prefix + ("" if not branch else ("   " if branch.startswith("└") else "│  "))
        for i, (c, tag) in enumerate(kids):
            walk(c, child_prefix, ("└─ " if i == len(kids) - 1 else "├─ ") + tag, seen)

    walk(doc["catalyst"]["root"], "", "", set())
    return lines


def _reading(r: dict[str, Any]) -> str:
    """One producer reading that lifted the plan (or, for a known producer bug, ran it as written)."""
    head = "producer bug, run as written" if r["warning"] else "producer reading"
    return f"{head}: {r['name']} ({r['releases']}): {r['meaning']}; at {'; '.join(r['where'])}"


def _spellings(doc: dict[str, Any]) -> list[str]:
    """The producer readings in force, then each alias and function note once, with the
    functions and relations it applied to (the locations of the calls are in the JSON)."""
    lines = [_reading(r) for r in doc.get("readings", [])] or ["producer readings: none"]
    lines += [f"plan shape: {s['name']}: {s['meaning']}" for s in doc.get("shapes", [])]
    lines += [f"user function mapping: {m}" for m in doc.get("userFunctions", [])]
    found: dict[str, dict[str, dict[Any, int]]] = {}
    for f in doc["functions"]:
        for what in ([f"alias {f['alias']}"] if f.get("alias") else []) + list(f["notes"]):
            entry = found.setdefault(what, {"names": {}, "relations": {}})
            entry["names"][f["name"]] = 1
            entry["relations"][f["relation"]] = entry["relations"].get(f["relation"], 0) + 1
    for what, entry in found.items():
        calls = sum(entry["relations"].values())
        at = ", ".join(relation_label(doc["relations"][r]) for r in entry["relations"] if r is not None)
        lines.append(f"{what}: {calls} call{'s' if calls > 1 else ''} ({', '.join(entry['names'])}) in {at}")
    return lines


def render_text(doc: dict[str, Any]) -> str:
    sections = [
        (f"Substrait plan (producer: {doc['producer'] or 'unnamed'}) -> Catalyst operators", _relation_tree(doc)),
        ("Catalyst plan (converted; <- the relation that made each node)", _catalyst_tree(doc)),
        ("Producer spellings and readings", _spellings(doc)),
        ("Analyzed Logical Plan", doc["analyzed"].rstrip("\n").splitlines()),
        ("Optimized Logical Plan", doc["optimized"].rstrip("\n").splitlines()),
    ]
    out: list[str] = []
    for title, lines in sections:
        out.append(f"== {title} ==")
        out.extend(lines)
        out.append("")
    return "\n".join(out)
