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
