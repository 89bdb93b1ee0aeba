"""Known producer bugs the Scala side runs as written (readings of kind KnownBug): for each,
the question the plan asks instead of its query, as SQL, so the matrix can check that Spark
answered the plan's question (outcome "as-written") and not something else."""

import re

LIMIT = re.compile(r"\s+LIMIT\s+\d+\s*$", re.I)
AGG_ORDER = re.compile(r"(STRING_AGG\([^)]*?)\s+ORDER BY [^)]*\)", re.I)
NOT_LIKE = re.compile(r"(\w+)\s+NOT\s+LIKE\s+('[^']*%[^']*')", re.I)


def meant_sql(reading: str, sql: str) -> str | None:
    """The SQL of what a plan with `reading` asks, or None when the reading is no known bug."""
    if reading == "datafusion-sort-fetch-dropped" and LIMIT.search(sql):
        # The LIMIT merged into the sort is not written: the plan asks for every row.
        return LIMIT.sub("", sql)
    if reading == "duckdb-not-like-as-not-equal" and NOT_LIKE.search(sql):
        # Written as not_equal: the pattern's text compared with <>.
        return NOT_LIKE.sub(r"\1 <> \2", sql)
    if reading == "duckdb-string-agg-order-dropped" and AGG_ORDER.search(sql):
        # No ORDER BY: the values in any order (normal() below compares them as a set).
        return AGG_ORDER.sub(r"\1)", sql)
    sql = IBIS_EXPRESSION_SQL.get(sql.split()[3] if sql.startswith("-- ibis expression") else "", sql)
    if reading == "ibis-sort-nulls-first" and ORDER_BY.search(sql):
        return nulls_first(sql)
    if reading == "ibis-decimal-product-type" and (DISC_PRICE in sql or "l_extendedprice * l_discount" in sql):
        # ibis declares each product DECIMAL(15,2): rounded there, as the plan asks.
        narrow = f"CAST({DISC_PRICE} AS DECIMAL(15,2))"
        return (sql.replace(f"{DISC_PRICE} * (1 + l_tax)", f"CAST({narrow} * (1 + l_tax) AS DECIMAL(15,2))")
                .replace(f"sum({DISC_PRICE})", f"sum({narrow})")
                .replace("l_extendedprice * l_discount", "CAST(l_extendedprice * l_discount AS DECIMAL(15,2))"))
    if reading in ("ibis-correlation-as-local-reference", "ibis-float-literal-decimal-cast", "ibis-measure-over-another-column"):
        # Where the plan changed the expression is in no SQL text: the question it asks, by hand.
        return IBIS_AS_WRITTEN.get(sql)
    return None


# The SQL of the ibis expressions whose plans a known bug changes (writers/write_ibis.py).
IBIS_EXPRESSION_SQL = {
    "i06_order_limit": "SELECT id, code FROM emp WHERE id IS NOT NULL ORDER BY code DESC, id LIMIT 3",
    "i17_correlated_exists": "SELECT id FROM emp e WHERE EXISTS (SELECT 1 FROM emp o WHERE o.dept = e.dept AND o.salary > e.salary)",
    "i18_float_fraction": "SELECT id FROM emp WHERE salary > (SELECT sum(salary) FROM emp) * 0.0015",
    "i19_select_under_filter": "SELECT dname, sum(salary * 2) AS total FROM emp JOIN dept ON dept = dept_id "
                               "WHERE dname IS NOT NULL GROUP BY dname",
}
# What those plans ask: the outer columns written as the subquery's own (no outer reference),
# the float fraction cast to the sum's DECIMAL(38,2), which makes it 0.00, and the grouping and
# the sum numbered by the select list the plan does not write (emp's name and id).
IBIS_AS_WRITTEN = {
    IBIS_EXPRESSION_SQL["i17_correlated_exists"]:
        "SELECT id FROM emp e WHERE EXISTS (SELECT 1 FROM emp o WHERE o.dept = o.dept AND o.salary > o.salary)",
    IBIS_EXPRESSION_SQL["i18_float_fraction"]:
        "SELECT id FROM emp WHERE salary > CAST((SELECT sum(salary) FROM emp) * CAST(0.0015 AS DECIMAL(38,2)) AS DECIMAL(38,2))",
    IBIS_EXPRESSION_SQL["i19_select_under_filter"]:
        "SELECT name, CAST(sum(id) AS DECIMAL(38,2)) FROM emp JOIN dept ON dept = dept_id WHERE dname IS NOT NULL GROUP BY name",
}
DISC_PRICE = "l_extendedprice * (1 - l_discount)"
ORDER_BY = re.compile(r"ORDER BY\s", re.I)
ORDER_END = re.compile(r"\s+(LIMIT|OFFSET|ROWS|RANGE)\b|;", re.I)


def nulls_first(sql: str) -> str:
    """Every ORDER BY key (of the query and of its windows) made NULLS FIRST, as ibis-substrait writes it."""
    out, i = [], 0
    for m in ORDER_BY.finditer(sql):
        out.append(sql[i:m.end()])
        j = start = m.end()
        depth, keys = 0, []
        while j < len(sql) and not (depth == 0 and (sql[j] == ")" or ORDER_END.match(sql, j))):
            depth += {"(": 1, ")": -1}.get(sql[j], 0)
            if sql[j] == "," and depth == 0:
                keys.append(sql[start:j])
                start = j + 1
            j += 1
        keys.append(sql[start:j])
        out.append(",".join(k.rstrip() + " NULLS FIRST" + k[len(k.rstrip()):] for k in keys))
        i = j
    return "".join(out) + sql[i:]


def normal(reading: str, rows):
    """Rows as a known bug's plan may give them: string_agg's parts in any order."""
    if reading != "duckdb-string-agg-order-dropped":
        return rows
    return [tuple((k, ",".join(sorted(v.split(",")))) if k == "s" else (k, v) for k, v in r) for r in rows]


# Producer bugs nothing in the plan tells apart from a plan that means it (so the Scala side
# cannot warn): the query's SQL rewritten into the question the plan asks. Spark's rows
# must equal that question's (outcome "as-written"), never be merely "wrong".
GROUPING = re.compile(r"GROUP BY (GROUPING SETS \(\(dept\), \(active\), \(\)\)|ROLLUP \(dept, active\)|CUBE \(dept, active\))")
PLAN_BUGS = {
    ("duckdb", "f40_union"): ("DuckDB writes UNION as SET_OP_UNION_ALL", lambda s: s.replace(" UNION ", " UNION ALL ")),
    ("duckdb", "f55_grouping_sets"): ("DuckDB writes GROUPING SETS as one grouping of all keys",
                                      lambda s: GROUPING.sub("GROUP BY dept, active", s)),
    ("duckdb", "f56_rollup"): ("DuckDB writes ROLLUP as one grouping of all keys", lambda s: GROUPING.sub("GROUP BY dept, active", s)),
    ("duckdb", "f57_cube"): ("DuckDB writes CUBE as one grouping of all keys", lambda s: GROUPING.sub("GROUP BY dept, active", s)),
    ("duckdb", "f134_grouping_sets_at_root"): ("DuckDB writes GROUPING SETS as one grouping of all keys",
                                               lambda s: GROUPING.sub("GROUP BY dept, active", s)),
}
PLAN_BUGS[("datafusion", "f28_not_in_subquery")] = (
    "DataFusion writes NOT IN's null-aware anti join as a plain LEFT_ANTI join (a NULL key is kept)",
    lambda s: "SELECT dept_id FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.id IS NOT NULL AND e.id = d.dept_id)")
# Not bugs: the SQL dialect's own reading of the query, which the plan states explicitly.
PLAN_BUGS[("isthmus", "f11_order_limit")] = ("Calcite orders NULLs first in DESC (NULL is the largest value)",
                                             lambda s: s.replace("ORDER BY salary DESC, id", "ORDER BY salary DESC NULLS FIRST, id"))
PLAN_BUGS_1_0 = {
    ("isthmus-0.52.0", "f04_case"): ("Calcite types a CASE of string literals CHAR(4): 'mid' and 'low' padded",
                                     lambda s: s.replace("'mid'", "'mid '").replace("'low'", "'low '")),
    ("isthmus-0.52.0", "f94_length_trim"): ("isthmus writes TRIM's arguments as (characters, input), the spec's reversed",
                                            lambda s: s.replace("TRIM('  ' || name || ' ')", "TRIM(BOTH '  ' || name || ' ' FROM ' ')")),
    ("isthmus-0.65.0", "f94_length_trim"): ("isthmus writes TRIM's arguments as (characters, input), the spec's reversed",
                                            lambda s: s.replace("TRIM('  ' || name || ' ')", "TRIM(BOTH '  ' || name || ' ' FROM ' ')")),
    ("isthmus-0.66.0", "f94_length_trim"): ("isthmus writes TRIM's arguments as (characters, input), the spec's reversed",
                                            lambda s: s.replace("TRIM('  ' || name || ' ')", "TRIM(BOTH '  ' || name || ' ' FROM ' ')")),
    ("isthmus-0.73.0", "f94_length_trim"): ("isthmus writes TRIM's arguments as (characters, input), the spec's reversed",
                                            lambda s: s.replace("TRIM('  ' || name || ' ')", "TRIM(BOTH '  ' || name || ' ' FROM ' ')")),
    # The layout isthmus-grouping-sets-without-index reads in 0.65 and 0.66, which 0.52 writes unstamped: the join's
    # columns numbered without the aggregate's index, so the project's emit picks the index and dname.
    ("isthmus-0.52.0", "f135_rollup_joined"): (
        "isthmus 0.52 (no producer stamp) numbers the columns above an aggregate of several grouping sets without its "
        "grouping set index",
        lambda s: "SELECT t.g, d.dname FROM dept d JOIN (SELECT dept, COUNT(*) AS n, GROUPING(dept) AS g FROM emp "
                  "GROUP BY ROLLUP (dept)) t ON t.dept = d.dept_id"),
    ("isthmus-0.52.0", "f130_simple_case"): ("Calcite types a CASE of string literals CHAR(6): 'ten' and 'other' padded",
                                             lambda s: s.replace("'ten'", "'ten   '").replace("'other'", "'other '")),
    ("duckdb-1.0.3", "f52_count_distinct"): ("DuckDB 1.0 writes COUNT(DISTINCT x) without the DISTINCT invocation",
                                             lambda s: s.replace("COUNT(DISTINCT ", "COUNT(")),
}
# ibis-substrait releases that stamp no producer, so no reading can be keyed on them.
for _r in ("ibis-2.20.0", "ibis-2.24.0"):
    PLAN_BUGS_1_0[(_r, "i07_strings")] = (
        "ibis-substrait writes substring's start 0-based (read so where the plan is stamped: ibis-zero-based-substring)",
        lambda s: "SELECT id, upper(name) AS u, length(name) AS n, substring(name, 1, 2) AS s FROM emp")
for _r in ("ibis-2.20.0", "ibis-2.24.0", "ibis-2.29.1", "ibis-3.0.0"):
    PLAN_BUGS_1_0[(_r, "f22_right_join")] = (
        "ibis' parse_sql (ibis 4 to 6) drops a join's select list, so the plan (and ibis' engine, whose DuckDB backend "
        "also returns a right join's columns out of order) asks for every column",
        lambda s: "SELECT e.*, d.* FROM emp e RIGHT JOIN dept d ON e.dept = d.dept_id")
for _r in ("ibis-2.29.1", "ibis-3.0.0"):
    PLAN_BUGS_1_0[(_r, "f31_self_join")] = (
        "ibis-substrait before 4.0.1 numbers a self join's fields by one table's schema (fixed by #1078): "
        "the condition is written a.dept = a.dept and the projection's emit picks b's columns, then a's",
        lambda s: "SELECT b.*, a.* FROM emp a JOIN emp b ON a.dept = a.dept")
# ibis-correlation-as-local-reference, written by 2.24 unstamped (its EXISTS compares o.dept = o.dept).
PLAN_BUGS_1_0[("ibis-2.24.0", "i17_correlated_exists")] = (
    "ibis-substrait writes no outer reference: the subquery's correlated columns are its own (ibis-correlation-as-local-"
    "reference, which 2.24 writes without a producer stamp)",
    lambda s: IBIS_AS_WRITTEN[IBIS_EXPRESSION_SQL["i17_correlated_exists"]])
PLAN_BUGS_1_0[("ibis-2.20.0", "f70_scalar_subquery")] = (
    "ibis-substrait 2.20 writes the scalar subquery (SELECT AVG(salary) FROM emp) as a reference to the table's first column",
    lambda s: "SELECT * FROM emp WHERE salary > id")


def plan_bug(release_id: str, producer: str, qid: str):
    """(description, the SQL of what the plan asks) for a known undetectable bug, else None."""
    return PLAN_BUGS_1_0.get((release_id, qid)) or PLAN_BUGS.get((producer, qid))
