"""The plan explorer: ``spark_substrait.explain(plan)`` and ``spark-substrait explain PLAN``
on TPC-H plans from DuckDB and DataFusion: the text names every relation (with its plan
location) and the operators it became, the SVG is well-formed and shows both trees, the
HTML carries the SVG, and the Catalyst side is the plan a read runs."""

import json
import re
import xml.etree.ElementTree as ET

import pytest

import spark_substrait
from helpers import duckdb_substrait_extension, run_python

SVG = "{http://www.w3.org/2000/svg}"
PLANS = [("duckdb-json", 1), ("duckdb-json", 6), ("duckdb-bin", 6), ("datafusion-bin", 1), ("datafusion-bin", 6)]


def plan_of(tpch, producer, query):
    return {"duckdb-json": tpch.duckdb_json, "duckdb-bin": tpch.duckdb_bin,
            "datafusion-bin": tpch.datafusion_bin}[producer][query]


@pytest.fixture(scope="module")
def explained(spark, tpch, lineitem_view):
    """Each plan explained once (explaining converts, analyses and optimizes: no job runs)."""
    return {(p, q): spark_substrait.explain(plan_of(tpch, p, q), spark=spark) for p, q in PLANS}


@pytest.mark.parametrize("producer,query", PLANS, ids=[f"{p}-q{q}" for p, q in PLANS])
def test_text_names_each_relation_and_its_operators(explained, producer, query):
    e = explained[(producer, query)]
    text = str(e)
    relations = e.data["relations"]
    kinds = {r["kind"] for r in relations}
    assert {"root", "read", "aggregate"} <= kinds, kinds
    for r in relations:
        assert f"[{r['id']}] {r['kind']}  {r['path']}" in text
        for name in r["operators"]:
            assert name in text
    # Every converted Catalyst node is listed with the relation that made it.
    for node in e.data["catalyst"]["nodes"]:
        assert f"#{node['id']} {node['name'] if node['name'] != 'LogicalRelation' else 'Relation'}" in text
        owner = relations[node["relation"]]
        assert node["id"] in owner["catalyst"]
    read = next(r for r in relations if r["kind"] == "read")
    assert "table lineitem" in read["details"]
    aggregate = next(r for r in relations if r["kind"] == "aggregate")
    assert aggregate["operators"][0] == "Aggregate"
    sums = [f for f in e.data["functions"] if f["name"].startswith("sum")]
    assert sums and all(f["spark"] == "Sum" and f["kind"] == "aggregate" for f in sums)
    assert all(f["relation"] == aggregate["id"] for f in sums)
    for title in ("Substrait plan", "Catalyst plan (converted", "Analyzed Logical Plan", "Optimized Logical Plan"):
        assert f"== {title}" in text


def test_duckdb_readings_are_shown(explained):
    e = explained[("duckdb-json", 6)]
    names = {r["name"] for r in e.data["readings"]}
    assert names == {"duckdb-project-without-emit", "duckdb-predicate-output-type"}
    assert "producer reading: duckdb-project-without-emit (DuckDB 1.0 to 1.1.3" in str(e)
    project = next(r for r in e.data["readings"] if r["name"] == "duckdb-project-without-emit")
    assert project["where"] and not project["warning"]
    # DuckDB's sum over decimals names no extension file: resolved by name.
    assert any(f["name"] == "sum:decimal" and f["extension"] is None for f in e.data["functions"])


def test_an_alias_is_shown_where_it_was_read(spark, tpch, lineitem_view):
    # DuckDB spells modulus "%" (FunctionAliases reads it as modulus); its answer is the reference.
    import duckdb

    con = duckdb.connect()
    con.execute(f"LOAD '{duckdb_substrait_extension()}'")
    con.execute(f"CREATE TABLE lineitem AS SELECT * FROM read_parquet('{tpch.lineitem}')")
    sql = "SELECT l_orderkey, l_linenumber, l_orderkey % 7 AS m FROM lineitem WHERE l_orderkey < 40"
    plan = con.execute("CALL get_substrait(?)", [sql]).fetchone()[0]
    expected = sorted(tuple(r) for r in con.execute(sql).fetchall())
    con.close()
    e = spark_substrait.explain(plan, spark=spark)
    aliased = [f for f in e.data["functions"] if f["alias"]]
    assert [(f["name"], f["alias"], f["catalog"]) for f in aliased] == [("%", "% -> modulus", "modulus")]
    f = aliased[0]
    assert "[alias % -> modulus]" in str(e)
    assert f"alias % -> modulus: 1 call (%) in [{f['relation']}] {e.data['relations'][f['relation']]['kind']}" in str(e)
    # The plan explained is the plan that runs: DuckDB's rows (with duplicates of l_orderkey).
    assert sorted(tuple(r) for r in spark.read.substrait(plan).collect()) == expected
    assert len(expected) > len({r[0] for r in expected})


def _without_ids(plan: str) -> str:
    return re.sub(r"#\d+L?", "#", plan)


@pytest.mark.parametrize("producer,query", [("duckdb-bin", 6), ("datafusion-bin", 1)])
def test_catalyst_side_is_the_plan_a_read_runs(spark, tpch, explained, producer, query):
    e = explained[(producer, query)]
    df = spark.read.substrait(plan_of(tpch, producer, query))
    execution = df._jdf.queryExecution()
    assert _without_ids(e.data["optimized"]) == _without_ids(execution.optimizedPlan().treeString())
    assert _without_ids(e.data["analyzed"]) == _without_ids(execution.analyzed().treeString())


@pytest.mark.parametrize("producer,query", [("duckdb-json", 6), ("datafusion-bin", 1)])
def test_svg_is_valid_and_shows_both_trees(explained, producer, query):
    e = explained[(producer, query)]
    svg = e.to_svg()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    texts = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    relations, nodes = e.data["relations"], e.data["catalyst"]["nodes"]
    for r in relations:
        assert any(t.startswith(f"[{r['id']}] {r['kind']}") for t in texts), r
    for n in nodes:
        assert any(t.startswith(f"#{n['id']} {n['name']}") for t in texts), n
    boxes = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}rect") is not None]
    assert len(boxes) == len(relations) + len(nodes)
    # One connector per (relation, operator) pair.
    links = [p for p in root.iter(f"{SVG}path") if p.get("marker-end")]
    assert len(links) == sum(len(r["catalyst"]) for r in relations)


def test_html_carries_the_svg_and_the_text(explained, tmp_path):
    e = explained[("duckdb-json", 6)]
    for html in (e.to_html(), e._repr_html_()):
        svg = html[html.index("<svg"):html.index("</svg>") + len("</svg>")]
        assert ET.fromstring(svg).tag == f"{SVG}svg"
        assert "Optimized Logical Plan" in html
    assert e.to_html().startswith("<!DOCTYPE html>")
    assert json.loads(e.to_json()) == e.data
    for name, check in [("q6.svg", lambda s: ET.fromstring(s).tag == f"{SVG}svg"),
                        ("q6.html", lambda s: "<svg" in s), ("q6.json", lambda s: json.loads(s) == e.data),
                        ("q6.txt", lambda s: s == str(e))]:
        path = tmp_path / name
        assert e.save(path) == str(path)
        assert check(path.read_text(encoding="utf-8")), name


def test_a_shared_catalyst_node_is_drawn_once_in_colour():
    # Two reads of one view: Catalyst shares the view's relation node (#3) between them.
    from spark_substrait._explain import PlanExplanation

    node = lambda i, name, children, rel: {"id": i, "name": name, "text": f"{name} <{i}>", "children": children,
                                            "subqueries": [], "relation": rel}
    rel = lambda i, kind, children, catalyst: {
        "id": i, "path": "relations[0].root" + ".input.join.left.read" * (i > 0), "kind": kind, "details": [],
        "output": ["k"], "operators": ["X"] * len(catalyst), "catalyst": catalyst,
        "children": [{"id": c, "via": v} for c, v in children], "functions": [], "notes": []}
    doc = {"format": 1, "producer": "p", "readings": [], "roots": [0], "functions": [],
           "relations": [rel(0, "join", [(1, "left"), (2, "right")], [0]), rel(1, "read", [], [1, 2, 3]),
                         rel(2, "read", [], [4])],
           "catalyst": {"root": 0, "nodes": [node(0, "Join", [1, 4], 0), node(1, "SubqueryAlias", [2], 1),
                                             node(2, "View", [3], 1), node(3, "LogicalRelation", [], 1),
                                             node(4, "SubqueryAlias", [3], 2)]},
           "analyzed": "", "optimized": ""}
    e = PlanExplanation(json.dumps(doc))
    assert "#3 LogicalRelation (shared, as above)" in str(e)
    root = ET.fromstring(e.to_svg())
    heads = ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]
    assert heads.count("#3 LogicalRelation") == 1 and heads.count("#3 LogicalRelation (shared, as above)") == 1
    links = [p for p in root.iter(f"{SVG}path") if p.get("marker-end")]
    assert len(links) == 5


def test_invalid_plan_raises_the_error_a_read_raises(spark, tpch, lineitem_view):
    plan = json.loads(tpch.duckdb_json[6])
    for ext in plan["extensions"]:
        if ext["extensionFunction"]["name"].startswith("multiply"):
            ext["extensionFunction"]["name"] = "no_such_function"
    bad = json.dumps(plan)
    with pytest.raises(spark_substrait.SubstraitPlanError) as read:
        spark.read.substrait(bad)
    with pytest.raises(spark_substrait.SubstraitPlanError) as explained:
        spark_substrait.explain(bad, spark=spark)
    assert explained.value.condition == read.value.condition == "SUBSTRAIT_UNKNOWN_FUNCTION"
    assert explained.value.location == read.value.location
    assert spark.sql("SELECT 1").collect()[0][0] == 1


def test_root_must_be_an_int(spark):
    with pytest.raises(TypeError):
        spark_substrait.explain(b"", spark=spark, root="0")


def test_cli_prints_the_explanation(tpch, tmp_path):
    result = run_python(["-m", "spark_substrait", "explain", str(tpch.plan_file("q06.json")),
                         "--table", f"lineitem={tpch.lineitem}"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "== Substrait plan (producer: DuckDB) -> Catalyst operators ==" in result.stdout
    assert "[0] root  relations[0].root" in result.stdout
    assert "read  relations[0].root.input.project.input.aggregate.input.read" in result.stdout
    assert "=> Aggregate #" in result.stdout
    assert "== Optimized Logical Plan ==" in result.stdout
