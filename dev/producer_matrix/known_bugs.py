"""Known producer bugs the Scala side runs as written (readings of kind KnownBug): for each,
the question the plan asks instead of its query, as SQL, so the matrix can check that Spark
answered the plan's question (outcome "as-written") and not something else."""

import re
from typing import Optional

LIMIT = re.compile(r"\s+LIMIT\s+\d+\s*$", re.I)
AGG_ORDER = re.compile(r"(STRING_AGG\([^)]*?)\s+ORDER BY [^)]*\)", re.I)


def meant_sql(reading: str, sql: str) -> Optional[str]:
    """The SQL of what a plan with `reading` asks, or None when the reading is no known bug."""
    if reading == "datafusion-sort-fetch-dropped" and LIMIT.search(sql):
        # The LIMIT merged into the sort is not written: the plan asks for every row.
        return LIMIT.sub("", sql)
    if reading == "duckdb-string-agg-order-dropped" and AGG_ORDER.search(sql):
        # No ORDER BY: the values in any order (normal() below compares them as a set).
        return AGG_ORDER.sub(r"\1)", sql)
    return None


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
    ("duckdb", "q13"): ("DuckDB writes NOT LIKE as not_equal",
                        lambda s: s.replace("o_comment NOT LIKE '%special%requests%'", "o_comment <> '%special%requests%'")),
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
    ("isthmus-0.73.0", "f94_length_trim"): ("isthmus writes TRIM's arguments as (characters, input), the spec's reversed",
                                            lambda s: s.replace("TRIM('  ' || name || ' ')", "TRIM(BOTH '  ' || name || ' ' FROM ' ')")),
    ("duckdb-1.0.3", "f52_count_distinct"): ("DuckDB 1.0 writes COUNT(DISTINCT x) without the DISTINCT invocation",
                                             lambda s: s.replace("COUNT(DISTINCT ", "COUNT(")),
}


def plan_bug(release_id: str, producer: str, qid: str):
    """(description, the SQL of what the plan asks) for a known undetectable bug, else None."""
    return PLAN_BUGS_1_0.get((release_id, qid)) or PLAN_BUGS.get((producer, qid))
