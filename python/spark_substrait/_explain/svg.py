"""The explain document as a self-contained SVG: the Substrait tree on the left, the
converted Catalyst tree on the right, each relation joined to the operators it became by a
line of its colour. Drawn here (no Graphviz): both trees are laid out indented, one node
per row, which needs no layout search and never overlaps. Monospace text keeps the box
widths computable without a font.

Nothing is cut: a line longer than a box holds wraps onto the next rows (one ``<text>`` per
line of the document, a ``<tspan>`` per row, so the text of a line is whole in the DOM).
Each relation has a colour of its own among the first ``len(PALETTE)`` and a colour and
dash pattern of its own beyond. Producer readings are flagged on the relations they changed
and listed under the graph."""

import re
from typing import Any, Optional
from xml.sax.saxutils import escape

from spark_substrait._explain.text import function_mappings, operator_list

# DejaVu Sans Mono's advance is 0.602 em: px per character at 12px and at 11px.
CHAR_W = {12: 7.23, 11: 6.63}
LINE_H = 15
PAD = 6
INDENT = 26
GAP_Y = 10
GAP_COLUMNS = 120
MARGIN = 16
HEADER = 44
WRAP_PX = 640          # the widest a box's text may be before it wraps
# Categorical colours told apart at a glance (no two closer than 27 in CIELAB's ΔE*76,
# tests/test_explain_browser.py checks), then the same colours with other dash patterns.
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
           "#bcbd22", "#5500ff", "#116644", "#ff00ee"]
DASHES = ["6,3", "2,3", "10,3,2,3", "12,4"]
STYLES = {"head": (12, 'font-weight="bold" fill="#1a1a1a"'), "path": (11, 'fill="#6b6b6b" font-size="11"'),
          "ops": (12, 'fill="#1a1a1a"'), "fn": (12, 'fill="#2f4f7f"'), "alias": (12, 'fill="#a0522d"'),
          "bug": (12, 'fill="#b22222" font-weight="bold"'), "text": (11, 'fill="#333333" font-size="11"'),
          "legend": (12, 'fill="#333333"')}


def colour(relation_id: Optional[int]) -> str:
    return "#999999" if relation_id is None else PALETTE[relation_id % len(PALETTE)]


def dash(relation_id: int) -> str:
    return DASHES[(relation_id // len(PALETTE)) % len(DASHES)]


def wrap(text: str, limit: int, breaks: str = " ,") -> list[str]:
    """``text`` in rows of at most ``limit`` characters whose concatenation is ``text``:
    broken after one of ``breaks`` where one is near the end of a row, else at the limit
    (the breaking character stays at the end of the row before)."""
    rows = []
    while len(text) > limit:
        cut = max(text.rfind(ch, limit // 2, limit) for ch in breaks)
        cut = limit if cut < 0 else cut + 1
        rows.append(text[:cut])
        text = text[cut:]
    rows.append(text)
    return rows


class _Box:
    """One node: where it is, its lines (first in bold) wrapped into rows, its colour and its tooltip."""

    def __init__(self, key: tuple[str, int], depth: int, lines: list[tuple[str, str]], colour: str, title: str):
        self.key, self.depth, self.colour, self.title = key, depth, colour, title
        self.lines = [(text, kind, wrap(text, int(WRAP_PX / CHAR_W[STYLES[kind][0]]), "." if kind == "path" else " ,"))
                      for text, kind in lines]
        self.x = self.y = 0.0
        self.width = max(len(row) * CHAR_W[STYLES[kind][0]] for _, kind, rows in self.lines for row in rows) + 2 * PAD
        self.height = sum(len(rows) for _, _, rows in self.lines) * LINE_H + 2 * PAD - 2
        self.parent: Any = None


def _relations_at(doc: dict[str, Any], where: str) -> list[int]:
    """The relations a reading's place names. A place is a plan location (the relation with
    the longest path that starts it), or what the reading found, in its words: a relation
    message (``ProjectRel of 1 expressions …``: the project relations, those with that many
    expressions if any), a function (``lt declared decimal``: the relations calling it) or a
    table (``table t: …``). Anything else is named under the graph only."""
    relations = doc["relations"]
    best, best_len = None, -1
    for r in relations:
        p = r["path"]
        if (where == p or where.startswith((p + ".", p + "["))) and len(p) > best_len:
            best, best_len = r["id"], len(p)
    if best is not None:
        return [best]
    words = where.split(" ")
    m = re.match(r"([A-Z][A-Za-z]*)Rel$", words[0])
    if m:
        kind = [r for r in relations if r["kind"] == m.group(1).lower()]
        count = re.match(r"of (\d+) expressions?", " ".join(words[1:]))
        if count:
            counted = [r for r in kind if any(d.startswith(f"{count.group(1)} expression") for d in r["details"])]
            kind = counted or kind
        return [r["id"] for r in kind]
    if words[0] == "table" and len(words) > 1:
        table = words[1].rstrip(":")
        return [r["id"] for r in relations if f"table {table}" in r["details"]]
    calls = {f["relation"] for f in doc["functions"] if f["name"].split(":")[0] == words[0]}
    return sorted(rid for rid in calls if rid is not None)


def readings_by_relation(doc: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    """Each relation's producer readings: those with a place (``where``) in it."""
    found: dict[int, list[dict[str, Any]]] = {}
    for reading in doc.get("readings", []):
        for where in reading["where"]:
            for rid in _relations_at(doc, where):
                if reading not in found.setdefault(rid, []):
                    found[rid].append(reading)
    return found


def _relation_boxes(doc: dict[str, Any]) -> list[_Box]:
    relations, functions = doc["relations"], doc["functions"]
    readings = readings_by_relation(doc)
    boxes: list[_Box] = []

    def walk(rid: int, depth: int, via: str, parent: Any) -> None:
        r = relations[rid]
        head = f"[{r['id']}] {r['kind']}" + (f" — {', '.join(r['details'])}" if r["details"] else "")
        lines = [(head, "head"), (r["path"], "path"), ("⇒ " + operator_list(r), "ops")]
        for line in function_mappings(doc, r):
            lines.append(("ƒ " + line, "alias" if "[alias " in line else "fn"))
        for note in r["notes"]:
            lines.append(("⚑ " + note, "alias"))
        for reading in readings.get(rid, []):
            if reading["warning"]:
                lines.append((f"⚠ producer bug, run as written: {reading['name']}", "bug"))
            else:
                lines.append((f"⚑ producer reading: {reading['name']}", "alias"))
        title = "\n".join([f"{via + ': ' if via else ''}{r['path']}", *r["details"], *r["notes"],
                           "output: " + ", ".join(r["output"])] +
                          [f"{reading['name']}: {reading['meaning']}" for reading in readings.get(rid, [])] +
                          [f"{functions[i]['name']} → {functions[i]['sql']}" for i in r["functions"][:20]])
        box = _Box(("r", rid), depth, lines, colour(rid), title)
        box.parent = parent
        boxes.append(box)
        for c in r["children"]:
            walk(c["id"], depth + 1, c["via"], box)

    for rid in doc["roots"]:
        walk(rid, 0, "", None)
    return boxes


def _catalyst_boxes(doc: dict[str, Any]) -> list[_Box]:
    nodes = doc["catalyst"]["nodes"]
    boxes: list[_Box] = []
    seen = set()

    def walk(nid: int, depth: int, parent: Any, subquery: bool) -> None:
        n = nodes[nid]
        # Catalyst shares immutable subtrees (a view's relation read twice): drawn again, in
        # grey, while the relation's line goes to the first drawing.
        shared = nid in seen
        head = ("subquery: " if subquery else "") + f"#{n['id']} {n['name']}" + (" (shared, as above)" if shared else "")
        lines = [(head, "head"), (n["text"], "text")]
        box = _Box(("shared" if shared else "c", nid), depth, lines,
                   colour(None if shared else n["relation"]), n["text"])
        box.parent = parent
        boxes.append(box)
        if shared:
            return
        seen.add(nid)
        for c in n["children"]:
            walk(c, depth + 1, box, False)
        for s in n["subqueries"]:
            walk(s, depth + 1, box, True)

    walk(doc["catalyst"]["root"], 0, None, False)
    return boxes


def _place(boxes: list[_Box], x0: float) -> tuple[float, float]:
    """Indented rows from HEADER down; returns the column's right edge and bottom."""
    y = MARGIN + HEADER
    right = x0
    for b in boxes:
        b.x, b.y = x0 + b.depth * INDENT, y
        y += b.height + GAP_Y
        right = max(right, b.x + b.width)
    return right, y - GAP_Y


def _text_svg(x: float, y: float, text: str, kind: str, rows: list[str]) -> str:
    """One line of the document: a <text> whose rows are <tspan>s (its text content is the line)."""
    style = STYLES[kind][1]
    if len(rows) == 1:
        return f'<text x="{x:.1f}" y="{y:.1f}" {style}>{escape(text)}</text>'
    spans = "".join(f'<tspan x="{x:.1f}" dy="{0 if i == 0 else LINE_H}">{escape(row)}</tspan>'
                    for i, row in enumerate(rows))
    return f'<text x="{x:.1f}" y="{y:.1f}" {style}>{spans}</text>'


def _box_svg(b: _Box) -> list[str]:
    out = [f'<g><title>{escape(b.title)}</title>',
           f'<rect x="{b.x:.1f}" y="{b.y:.1f}" width="{b.width:.1f}" height="{b.height:.1f}" rx="4" '
           f'fill="{b.colour}" fill-opacity="0.10" stroke="{b.colour}" stroke-width="1.5"/>']
    row = 0
    for text, kind, rows in b.lines:
        out.append(_text_svg(b.x + PAD, b.y + PAD + 11 + row * LINE_H, text, kind, rows))
        row += len(rows)
    out.append("</g>")
    return out


def _tree_edges(boxes: list[_Box]) -> list[str]:
    out = []
    for b in boxes:
        if b.parent is not None:
            px, py = b.parent.x + INDENT / 2, b.parent.y + b.parent.height
            cy = b.y + min(b.height / 2, 12)
            out.append(f'<path d="M{px:.1f},{py:.1f} V{cy:.1f} H{b.x:.1f}" fill="none" stroke="#b0b0b0"/>')
    return out


def _legend(doc: dict[str, Any], width_chars: int) -> list[tuple[str, str, list[str]]]:
    """The producer readings that applied, one line each, under the graph."""
    lines = []
    for r in doc.get("readings", []):
        head = "⚠ producer bug, run as written" if r["warning"] else "⚑ producer reading"
        text = f"{head}: {r['name']} ({r['releases']}): {r['meaning']}"
        lines.append((text, "bug" if r["warning"] else "legend", wrap(text, width_chars)))
    return lines


def render_svg(doc: dict[str, Any]) -> str:
    left, right = _relation_boxes(doc), _catalyst_boxes(doc)
    left_edge, left_bottom = _place(left, MARGIN)
    x1 = left_edge + GAP_COLUMNS
    right_edge, right_bottom = _place(right, x1)
    width = right_edge + MARGIN
    legend = _legend(doc, max(60, int((width - 2 * MARGIN) / CHAR_W[12])))
    legend_top = max(left_bottom, right_bottom) + (GAP_Y * 2 if legend else 0)
    legend_rows = sum(len(rows) for _, _, rows in legend)
    height = legend_top + legend_rows * LINE_H + MARGIN
    by_key = {b.key: b for b in right}
    links = []
    for b in left:
        rid = b.key[1]
        for cid in doc["relations"][rid]["catalyst"]:
            target = by_key.get(("c", cid))
            if target is None:
                continue
            sx, sy = b.x + b.width, b.y + 12
            tx, ty = target.x, target.y + 12
            mid = (sx + tx) / 2
            links.append(f'<path d="M{sx:.1f},{sy:.1f} C{mid:.1f},{sy:.1f} {mid:.1f},{ty:.1f} {tx:.1f},{ty:.1f}" '
                         f'fill="none" stroke="{b.colour}" stroke-width="2" stroke-dasharray="{dash(rid)}" '
                         f'marker-end="url(#arrow)" data-relation="{rid}"/>')
    title = f"Substrait plan (producer: {doc['producer'] or 'unnamed'})"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        f'font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#777777"/></marker></defs>',
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<text x="{MARGIN}" y="{MARGIN + 14}" font-weight="bold" font-size="14">{escape(title)}</text>',
        f'<text x="{x1:.1f}" y="{MARGIN + 14}" font-weight="bold" font-size="14">Catalyst plan (converted)</text>',
        *_tree_edges(left), *_tree_edges(right), *links,
    ]
    for b in left + right:
        parts.extend(_box_svg(b))
    row = 0
    for text, kind, rows in legend:
        parts.append(_text_svg(MARGIN, legend_top + 11 + row * LINE_H, text, kind, rows))
        row += len(rows)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
