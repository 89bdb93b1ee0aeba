"""``spark_substrait.to_substrait(df)``: a DataFrame's plan out, as a Substrait plan.

Thin over Py4J: ``io.sparksubstrait.SubstraitPlans.write`` in the driver JVM writes the
DataFrame's optimized (or analyzed) Catalyst plan as a ``substrait.Plan`` (docs/writing.md);
on Spark Connect, the server's plugin does (spark_substrait._connect.written_plan).
"""

from typing import Optional, Union

from spark_substrait._errors import java_errors_as_plan_errors
from spark_substrait._plans import entry_point

FORMATS = ("binary", "json")
#: Encodings by consumer release: None is the pinned spec (0.108, extension URNs);
#: "duckdb-1.1" is what DuckDB 1.1's substrait extension reads (extension URIs, FetchRel's
#: integer bounds, inline groupings, local paths); "datafusion-55" is the current encoding with
#: date parts as DataFusion's own date_part (DataFusion reads no enumeration arguments).
TARGETS = (None, "duckdb-1.1", "datafusion-55")


def to_substrait(df, format: str = "binary", optimized: bool = True,
                 target: Optional[str] = None) -> Union[bytes, str]:
    """Writes ``df``'s plan as a Substrait ``Plan``: ``bytes`` (``format="binary"``) or its
    protobuf JSON (``format="json"``).

    ``optimized`` (default) writes Spark's optimized plan (views inlined, subqueries as
    joins); ``False`` the analyzed plan (temp views and catalog tables by name, subqueries as
    written). ``target`` chooses the encoding a consumer release reads (see ``TARGETS``).

    A Spark Connect DataFrame is written by the server's spark-substrait plugin (its
    relation travels in a ``SubstraitWrite`` extension, docs/connect.md).

    Raises :class:`spark_substrait.SubstraitUnsupportedError` (condition
    ``SUBSTRAIT_UNWRITABLE_PLAN``) naming the Catalyst node that has no exact Substrait form.
    """
    if format not in FORMATS:
        raise ValueError(f"to_substrait: format must be one of {', '.join(FORMATS)}, got {format!r}")
    if target not in TARGETS:
        raise ValueError(f"to_substrait: target must be one of {', '.join(map(str, TARGETS))}, got {target!r}")
    if not isinstance(optimized, bool):
        raise TypeError(f"to_substrait: optimized must be a bool, got {type(optimized).__name__}")
    if type(df).__module__.startswith("pyspark.sql.connect"):
        # A Spark Connect DataFrame: the server's plugin writes it (docs/connect.md).
        from spark_substrait._connect import written_plan

        written = written_plan(df, not optimized, target, format == "json")
        return bytes(written) if format == "binary" else written
    spark = df.sparkSession
    entry = entry_point(spark, "spark_substrait.to_substrait")
    with java_errors_as_plan_errors():
        written = entry.write(df._jdf, optimized, target, format == "json")
    return bytes(written) if format == "binary" else written
