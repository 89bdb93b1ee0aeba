"""The plan explorer's pictures as a browser shows them, and the README's picture kept current.

A DuckDB 1.1.3 and a DataFusion 55 plan of more than six relations are explained, saved as
HTML and loaded by headless Chromium (Debian's ``chromium``; these tests are skipped without
it, dev/test installs it where apt-get can): in the DOM Chromium builds, every expression
and plan location is there whole (never cut with "…"), each relation's links have a colour
and pattern of their own, the colours of the palette are far apart, and each producer
reading is flagged. docs/explain-q06.svg must be what dev/explain-screenshots' command
prints now.
"""

import itertools
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import spark_substrait
from helpers import REPO, clean_env, duckdb_substrait_extension

sys.path.insert(0, str(REPO / "dev"))
import explain_screenshots  # noqa: E402
from spark_substrait._explain import svg as explain_svg  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
needs_chromium = pytest.mark.skipif(explain_screenshots.browser() is None,
                                    reason="no Chromium (apt-get install chromium)")
# Eight relations or more from either producer: two reads, filters, aggregates, a join, a sort.
QUERY = """SELECT a.l_returnflag, count(*) AS n, sum(b.q) AS q
FROM (SELECT l_orderkey, l_returnflag FROM lineitem WHERE l_quantity < 10) a
JOIN (SELECT l_orderkey, sum(l_quantity) AS q FROM lineitem GROUP BY l_orderkey) b ON a.l_orderkey = b.l_orderkey
WHERE b.q > 100
GROUP BY a.l_returnflag
ORDER BY a.l_returnflag"""


def lab(colour: str):
    """sRGB hex to CIELAB (D65)."""
    linear = [(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
              for c in (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))]
    r, g, b = linear
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def delta_e(a: str, b: str) -> float:
    return math.dist(lab(a), lab(b))


@pytest.fixture(scope="module")
def explained(spark, tpch, lineitem_view):
    """The query's plan from each producer, explained in the shared session."""
    import duckdb
    from datafusion import SessionContext
    from datafusion.substrait import Serde

    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute(f"CREATE TABLE lineitem AS SELECT * FROM read_parquet('{tpch.lineitem}')")
    duck = con.execute("CALL get_substrait(?)", [QUERY]).fetchone()[0]
    con.close()
    ctx = SessionContext()
    ctx.register_parquet("lineitem", str(tpch.lineitem))
    fusion = Serde.serialize_to_plan(QUERY, ctx).encode()
    return {"duckdb": spark_substrait.explain(duck, spark=spark),
            "datafusion": spark_substrait.explain(fusion, spark=spark)}


def browser_dom(explanation, folder: Path) -> ET.Element:
    """The SVG of the explanation's HTML page as Chromium's DOM holds it."""
    page = folder / "explained.html"
    page.write_text(explanation.to_html(), encoding="utf-8")
    dom = explain_screenshots.dump_dom(page)
    svg = dom[dom.index("<svg"):dom.index("</svg>") + len("</svg>")]
    return ET.fromstring(svg)


@pytest.fixture(scope="module")
def dom(explained, tmp_path_factory):
    """Each producer's page loaded by Chromium once."""
    if explain_screenshots.browser() is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    return {producer: browser_dom(e, tmp_path_factory.mktemp(producer)) for producer, e in explained.items()}


def texts(root: ET.Element):
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


@needs_chromium
@pytest.mark.parametrize("producer", ["duckdb", "datafusion"])
def test_the_browser_shows_every_expression_whole(explained, dom, producer):
    doc = explained[producer].data
    shown = texts(dom[producer])
    assert not [t for t in shown if "…" in t], "text cut with …"
    for node in doc["catalyst"]["nodes"]:
        assert node["text"] in shown, f"#{node['id']} {node['name']}: its text is not whole"
        assert not node["text"].endswith("..."), f"#{node['id']} {node['name']}: the explain document cut it"
    for r in doc["relations"]:
        assert r["path"] in shown, r["path"]
        assert any(t.startswith(f"[{r['id']}] {r['kind']}") for t in shown)
    # Each producer reading that applied is flagged on the relations it changed and listed,
    # with its meaning, under the graph.
    by_relation = explain_svg.readings_by_relation(doc)
    assert doc["readings"] or producer == "datafusion", "DuckDB's plan got no reading: nothing checked"
    for reading in doc["readings"]:
        flag = ("⚠ producer bug, run as written: " if reading["warning"] else "⚑ producer reading: ") + reading["name"]
        flagged = sum(reading in readings for readings in by_relation.values())
        assert shown.count(flag) == flagged, (flag, flagged)
        assert any(t.startswith(flag.split(":")[0]) and reading["meaning"] in t for t in shown), reading["name"]


@needs_chromium
@pytest.mark.parametrize("producer", ["duckdb", "datafusion"])
def test_each_relation_has_links_of_its_own_beyond_six(explained, dom, producer):
    relations = explained[producer].data["relations"]
    assert len(relations) > 6, f"the plan has {len(relations)} relations: not enough to tell"
    root = dom[producer]
    styles = {}
    for link in root.iter(f"{SVG}path"):
        if link.get("marker-end"):
            styles.setdefault(link.get("data-relation"), set()).add((link.get("stroke"), link.get("stroke-dasharray")))
    linked = [rid for rid in styles if relations[int(rid)]["catalyst"]]
    assert len(linked) > 6
    assert all(len(s) == 1 for s in styles.values()), "one relation's links differ"
    looks = [next(iter(styles[rid])) for rid in linked]
    assert len(set(looks)) == len(looks), "two relations' links look alike"
    colours = sorted({stroke for stroke, _ in looks})
    closest = min(delta_e(a, b) for a, b in itertools.combinations(colours, 2))
    assert closest >= 27, f"two link colours only {closest:.1f} apart (CIELAB ΔE*76)"


def test_the_palette_colours_are_far_apart():
    palette = explain_svg.PALETTE
    assert len(set(palette)) == len(palette) >= 10
    closest = min((delta_e(a, b), a, b) for a, b in itertools.combinations(palette, 2))
    assert closest[0] >= 27, closest
    # Past the palette, the dash pattern changes: (colour, dash) stays unique far beyond it.
    looks = [(explain_svg.colour(i), explain_svg.dash(i)) for i in range(len(palette) * len(explain_svg.DASHES))]
    assert len(set(looks)) == len(looks)


@needs_chromium
def test_a_screenshot_of_the_page(explained, tmp_path):
    page = tmp_path / "explained.html"
    markup = explained["datafusion"].to_html()
    page.write_text(markup, encoding="utf-8")
    width, height = explain_screenshots.svg_size(markup)
    png = tmp_path / "explained.png"
    explain_screenshots.screenshot(page, png, width + 32, height + 70)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == (width + 32, height + 70)
    assert len(data) > 20_000  # a drawing, not a blank page


def test_the_readme_picture_is_what_the_command_draws(tpch):
    """docs/explain-q06.svg is regenerated by dev/explain-screenshots; this checkout's code."""
    command = [sys.executable, "-m", "spark_substrait", *explain_screenshots.q06_svg_command(tpch.lineitem)]
    env = clean_env(PYTHONPATH=str(REPO / "python"))
    result = subprocess.run(command, capture_output=True, text=True, cwd=REPO, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    committed = (REPO / "docs" / "explain-q06.svg").read_text(encoding="utf-8")
    assert result.stdout == committed, "docs/explain-q06.svg is stale: run dev/explain-screenshots"
    # What the picture is meant to show (issue 37): the reading flagged, no text cut.
    assert ">⚑ producer reading: duckdb-project-without-emit</text>" in committed  # on relation [1]
    assert "…" not in committed


def test_the_docs_show_the_screenshots():
    page = (REPO / "docs" / "explain.md").read_text(encoding="utf-8")
    for name in ("explain-q06.svg", "explain-duckdb-q03.png", "explain-datafusion-q03.png"):
        assert f"]({name})" in page, name
        assert (REPO / "docs" / name).is_file(), name
    assert os.path.getsize(REPO / "docs" / "explain-duckdb-q03.png") > 20_000
    assert re.search(r"dev/explain-screenshots", page)
