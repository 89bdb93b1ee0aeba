"""The explain document as a self-contained SVG: the Substrait tree on the left, the
converted Catalyst tree on the right, each relation joined to the operators it became by a
line of its colour. Drawn here (no Graphviz): both trees are laid out indented, one node
per row, which needs no layout search and never overlaps. Monospace text keeps the box
widths computable without a font."""

from typing import Any, Dict, List, Tuple
from xml.sax.saxutils import escape

from spark_substrait._explain.text import function_mappings, operator_list

CHAR_W = 7.2           # px per character of 12px monospace
LINE_H = 15
PAD = 6
INDENT = 26
GAP_Y = 10
GAP_COLUMNS = 140
MARGIN = 16
HEADER = 44
MAX_CHARS = 84
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac"]


def _clip(text: str, limit: int = MAX_CHARS) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _clip_left(text: str, limit: int = MAX_CHARS) -> str:
    return text if len(text) <= limit else "…" + text[-(limit - 1):]


def _colour(relation_id: Any) -> str:
    return "#999999" if relation_id is None else PALETTE[relation_id % len(PALETTE)]


class _Box:
    """One node: where it is, its lines (first in bold), its colour and its tooltip."""

    def __init__(self, key: Tuple[str, int], depth: int, lines: List[Tuple[str, str]], colour: str, title: str):
        self.key, self.depth, self.lines, self.colour, self.title = key, depth, lines, colour, title
        self.x = self.y = 0.0
        self.width = max(len(text) for text, _ in lines) * CHAR_W + 2 * PAD
        self.height = len(lines) * LINE_H + 2 * PAD - 2
        self.parent: Any = None


def _relation_boxes(doc: Dict[str, Any]) -> List[_Box]:
    relations, functions = doc["relations"], doc["functions"]
    boxes: List[_Box] = []

    def walk(rid: int, depth: int, via: str, parent: Any) -> None:
        r = relations[rid]
        head = f"[{r['id']}] {r['kind']}" + (f" — {', '.join(r['details'])}" if r["details"] else "")
        lines = [(_clip(head), "head"), (_clip_left(r["path"]), "path"),
                 (_clip("⇒ " + operator_list(r)), "ops")]
        for line in function_mappings(doc, r):
            lines.append((_clip("ƒ " + line), "alias" if "[alias " in line else "fn"))
        for note in r["notes"]:
            lines.append((_clip("⚑ " + note), "alias"))
        title = "\n".join([f"{via + ': ' if via else ''}{r['path']}", *r["details"], *r["notes"],
                           "output: " + ", ".join(r["output"])] +
                          [f"{functions[i]['name']} → {functions[i]['sql']}" for i in r["functions"][:20]])
        box = _Box(("r", rid), depth, lines, _colour(rid), title)
        box.parent = parent
        boxes.append(box)
        for c in r["children"]:
            walk(c["id"], depth + 1, c["via"], box)

    for rid in doc["roots"]:
        walk(rid, 0, "", None)
    return boxes


def _catalyst_boxes(doc: Dict[str, Any]) -> List[_Box]:
    nodes = doc["catalyst"]["nodes"]
    boxes: List[_Box] = []
    seen = set()

    def walk(nid: int, depth: int, parent: Any, subquery: bool) -> None:
        n = nodes[nid]
        # Catalyst shares immutable subtrees (a view's relation read twice): drawn again, in
        # grey, while the relation's line goes to the first drawing.
        shared = nid in seen
        head = ("subquery: " if subquery else "") + f"#{n['id']} {n['name']}" + (" (shared, as above)" if shared else "")
        lines = [(_clip(head), "head"), (_clip(n["text"]), "text")]
        box = _Box(("shared" if shared else "c", nid), depth, lines,
                   _colour(None if shared else n["relation"]), n["text"])
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


def _place(boxes: List[_Box], x0: float) -> Tuple[float, float]:
    """Indented rows from HEADER down; returns the column's right edge and bottom."""
    y = MARGIN + HEADER
    right = x0
    for b in boxes:
        b.x, b.y = x0 + b.depth * INDENT, y
        y += b.height + GAP_Y
        right = max(right, b.x + b.width)
    return right, y


def _box_svg(b: _Box) -> List[str]:
    styles = {"head": 'font-weight="bold" fill="#1a1a1a"', "path": 'fill="#6b6b6b" font-size="11"',
              "ops": 'fill="#1a1a1a"', "fn": 'fill="#2f4f7f"', "alias": 'fill="#a0522d"',
              "text": 'fill="#333333" font-size="11"'}
    out = [f'<g><title>{escape(b.title)}</title>',
           f'<rect x="{b.x:.1f}" y="{b.y:.1f}" width="{b.width:.1f}" height="{b.height:.1f}" rx="4" '
           f'fill="{b.colour}" fill-opacity="0.12" stroke="{b.colour}" stroke-width="1.5"/>']
    for i, (text, kind) in enumerate(b.lines):
        out.append(f'<text x="{b.x + PAD:.1f}" y="{b.y + PAD + 11 + i * LINE_H:.1f}" {styles[kind]}>'
                   f'{escape(text)}</text>')
    out.append("</g>")
    return out


def _tree_edges(boxes: List[_Box]) -> List[str]:
    out = []
    for b in boxes:
        if b.parent is not None:
            px, py = b.parent.x + INDENT / 2, b.parent.y + b.parent.height
            cy = b.y + min(b.height / 2, 12)
            out.append(f'<path d="M{px:.1f},{py:.1f} V{cy:.1f} H{b.x:.1f}" fill="none" stroke="#b0b0b0"/>')
    return out


def render_svg(doc: Dict[str, Any]) -> str:
    left, right = _relation_boxes(doc), _catalyst_boxes(doc)
    left_edge, left_bottom = _place(left, MARGIN)
    x1 = left_edge + GAP_COLUMNS
    right_edge, right_bottom = _place(right, x1)
    width, height = right_edge + MARGIN, max(left_bottom, right_bottom) + MARGIN
    by_key = {b.key: b for b in right}
    links = []
    for b in left:
        r = doc["relations"][b.key[1]]
        for cid in r["catalyst"]:
            target = by_key.get(("c", cid))
            if target is None:
                continue
            sx, sy = b.x + b.width, b.y + 12
            tx, ty = target.x, target.y + 12
            mid = (sx + tx) / 2
            links.append(f'<path d="M{sx:.1f},{sy:.1f} C{mid:.1f},{sy:.1f} {mid:.1f},{ty:.1f} {tx:.1f},{ty:.1f}" '
                         f'fill="none" stroke="{b.colour}" stroke-width="1.5" stroke-dasharray="5,3" '
                         f'marker-end="url(#arrow)" opacity="0.8"/>')
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
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
