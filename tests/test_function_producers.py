"""Functions whose meaning producers' engines pin down, compared with those engines' own
results on the same values: regexp_replace's replacement syntax against DuckDB 1.1.3 (RE2),
and logb's argument order against DataFusion's own plan of ``log(base, x)``."""

import json

import pytest

# (string, pattern, replacement): the spec's syntax, \1 a group, \\ a backslash, $ itself.
REPLACEMENTS = [
    ("abc", "(.*)c", r"\1e"),             # the spec's own case (regexp_replace.test:55)
    ("abab", "(a)(b)", r"\2\1"),          # two groups swapped, every match
    ("abc", "b", r"[\0]"),                # \0 is the whole match
    ("a.b.c", r"\.", "$"),                # a dollar is itself
    ("price 5", r"(\d)", r"$\1.00"),      # a dollar before a group
    ("abc", "b", "\\\\"),                 # \\ is one backslash
    ("abc", "(b)", r"\10"),               # group 1, then the digit 0
    ("abc", "(x)", r"\1-"),               # no match: unchanged
    ("", "^", "x"),                       # the empty string
    ("abc", "", "-"),                     # empty matches everywhere
    ("aaa", "a", ""),                     # an empty replacement
    ("Hello World", r"(\w+) (\w+)", r"\2 \1"),
    ("tab\there", r"\s", r"\\t"),         # a backslash then t, not a tab
    ("x1y22z333", r"\d+", r"<\0>"),
    ("über", "(ü)", r"\1\1"),             # non-ASCII characters
    (None, "a", "b"),                     # NULL string
    ("a", None, "b"),                     # NULL pattern
    ("a", "a", None),                     # NULL replacement
]

# occurrence 0 is DuckDB's 'g' flag; occurrence 1 its default (the first match only).
OCCURRENCES = [(1, 0, "g"), (1, 1, "")]


def _string_literal(v):
    if v is None:
        return {"null": {"string": {"nullability": "NULLABILITY_NULLABLE"}}, "nullable": True}
    return {"string": v, "nullable": True}


def _field(i):
    return {"selection": {"directReference": {"structField": {"field": i}}, "rootReference": {}}}


def _regexp_plan(rows, position, occurrence):
    """A virtual table of (id, s, p, r) and regexp_replace(s, p, r, position, occurrence)."""
    string = {"string": {"nullability": "NULLABILITY_NULLABLE"}}
    table = {"read": {
        "baseSchema": {"names": ["id", "s", "p", "r"], "struct": {
            "types": [{"i32": {"nullability": "NULLABILITY_REQUIRED"}}, string, string, string],
            "nullability": "NULLABILITY_REQUIRED"}},
        "virtualTable": {"expressions": [
            {"fields": [{"literal": {"i32": i}}] + [{"literal": _string_literal(v)} for v in row]}
            for i, row in enumerate(rows)]}}}
    call = {"scalarFunction": {
        "functionReference": 1, "outputType": string,
        "arguments": [{"value": _field(1)}, {"value": _field(2)}, {"value": _field(3)},
                      {"value": {"literal": {"i64": str(position)}}},
                      {"value": {"literal": {"i64": str(occurrence)}}}]}}
    return json.dumps({
        "version": {"minorNumber": 108, "producer": "spark-substrait tests"},
        "extensionUrns": [{"extensionUrnAnchor": 1, "urn": "extension:io.substrait:functions_string"}],
        "extensions": [{"extensionFunction": {"extensionUrnReference": 1, "functionAnchor": 1,
                                              "name": "regexp_replace:str_str_str_i64_i64"}}],
        "relations": [{"root": {"input": {"project": {
            "common": {"emit": {"outputMapping": [0, 4]}}, "input": table, "expressions": [call]}},
            "names": ["id", "replaced"]}}]})


def _duckdb_rows(rows, flags):
    import duckdb

    con = duckdb.connect()
    try:
        return [con.execute("SELECT regexp_replace(?, ?, ?, ?)", [s, p, r, flags]).fetchone()[0]
                for s, p, r in rows]
    finally:
        con.close()


@pytest.mark.parametrize("position,occurrence,flags", OCCURRENCES)
def test_regexp_replace_equals_duckdb(spark, position, occurrence, flags):
    ours = sorted(spark.read.substrait(_regexp_plan(REPLACEMENTS, position, occurrence)).collect())
    theirs = _duckdb_rows(REPLACEMENTS, flags)
    assert [r.replaced for r in ours] == theirs, list(zip(REPLACEMENTS, [r.replaced for r in ours], theirs,
                                                          strict=False))


def test_regexp_replace_position_equals_duckdb_on_the_rest_of_the_string(spark):
    """position p searches from character p as if the string began there: DuckDB's answer on
    the substring from p, with the characters before it in front."""
    import duckdb

    rows = [("abcabcabc", "[bc]", "dd"), ("aaa", "^a", "b"), ("abab", "(a)(b)", r"\2\1"), ("xyz", "z", r"\0\0")]
    ours = sorted(spark.read.substrait(_regexp_plan(rows, 2, 0)).collect())
    con = duckdb.connect()
    theirs = [con.execute("SELECT substr(?, 1, 1) || regexp_replace(substr(?, 2), ?, ?, 'g')", [s, s, p, r]).fetchone()[0]
              for s, p, r in rows]
    con.close()
    assert [r.replaced for r in ours] == theirs


def test_regexp_replace_undefined_escape_is_an_error_where_duckdb_ignores_the_call(spark):
    """RE2 has no rewrite \\x: DuckDB then drops the match with 'g' and leaves the string as it
    is without. The spec leaves it undefined, and we refuse the plan rather than pick one."""
    from spark_substrait import SubstraitInvalidPlanError

    assert _duckdb_rows([("abc", "b", r"\x")], "g") == ["ac"]
    assert _duckdb_rows([("abc", "b", r"\x")], "") == ["abc"]
    rows = [("abc", "b", r"\x")]
    plan = json.loads(_regexp_plan(rows, 1, 0))
    call = plan["relations"][0]["root"]["input"]["project"]["expressions"][0]["scalarFunction"]
    call["arguments"][2] = {"value": {"literal": {"string": r"\x"}}}
    with pytest.raises(SubstraitInvalidPlanError, match="SUBSTRAIT_INVALID_PLAN"):
        spark.read.substrait(json.dumps(plan))


def test_datafusion_logb_is_read_x_first(spark, tmp_path):
    """DataFusion writes SQL's log(base, x) as logb(x, base), the YAML's order."""
    from datafusion import SessionContext
    from datafusion.substrait import Serde

    ctx = SessionContext()
    parquet = tmp_path / "logs.parquet"
    ctx.sql("SELECT * FROM (VALUES (8.0, 2.0), (100.0, 10.0), (2.0, 0.5), (CAST(NULL AS DOUBLE), 2.0))"
            " AS t(x, b)").write_parquet(str(parquet))
    ctx.register_parquet("logs", str(parquet))
    query = "SELECT x, log(b, x) AS l FROM logs"
    plan = Serde.serialize_to_plan(query, ctx).encode()
    spark.read.parquet(str(parquet)).createOrReplaceTempView("logs")
    ours = sorted((r.x, r.l) for r in spark.read.substrait(plan).collect() if r.x is not None)
    theirs = sorted((r["x"], r["l"]) for r in ctx.sql(query).to_pylist() if r["x"] is not None)
    assert len(ours) == 3
    for (ox, ol), (tx, tl) in zip(ours, theirs, strict=True):
        assert ox == tx and ol == pytest.approx(tl, rel=1e-12)
