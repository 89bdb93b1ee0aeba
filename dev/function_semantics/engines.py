"""The three engines of the differential run, each answering a list of calls.

- ``SparkEngine``: our reader. Each plan is read with ``spark.read.substrait`` and collected
  as Arrow. A plan whose run fails is split until the failing rows stand alone, so each row
  gets its own outcome.
- ``SqlEngine``: DuckDB 1.1.3 or DataFusion 55, running SQL over an Arrow table of the same
  rows (the same computation, written in the engine's own SQL).
"""

import decimal
import re
from collections.abc import Callable, Sequence

import pyarrow as pa

from outcomes import NULL, Error, Foreign, Outcome, Refused, Value
from stypes import SType

DAY_US = 86_400_000_000

# Spark's and our conditions, by the kind of error an option asks for.
CONDITION_KINDS = {
    "overflow": {"SUBSTRAIT_ARITHMETIC_OVERFLOW", "ARITHMETIC_OVERFLOW", "BINARY_ARITHMETIC_OVERFLOW",
                 "CAST_OVERFLOW", "NUMERIC_VALUE_OUT_OF_RANGE", "INTERVAL_ARITHMETIC_OVERFLOW",
                 "DATETIME_OVERFLOW", "CAST_OVERFLOW_IN_TABLE_INSERT", "NUMERIC_OUT_OF_SUPPORTED_RANGE"},
    "division_by_zero": {"SUBSTRAIT_DIVISION_BY_ZERO", "DIVIDE_BY_ZERO", "REMAINDER_BY_ZERO",
                         "INTERVAL_DIVIDED_BY_ZERO"},
    "domain": {"SUBSTRAIT_DOMAIN_ERROR"},
    "log_zero": {"SUBSTRAIT_LOG_OF_ZERO"},
    "size": {"SUBSTRAIT_RESULT_TOO_LARGE"},
    # strptime_*: text that does not match the format (Spark's ANSI parsing)
    "parse": {"CANNOT_PARSE_TIMESTAMP"},
}
REFUSALS = {"SUBSTRAIT_UNSUPPORTED_FEATURE", "SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION", "SUBSTRAIT_UNKNOWN_FUNCTION"}
INVALID = {"SUBSTRAIT_INVALID_PLAN", "SUBSTRAIT_TYPE_MISMATCH"}


def to_python(column: pa.ChunkedArray, t: SType) -> list:
    """The values of an Arrow column as the differential run's Python values for type ``t``."""
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    typ = arr.type
    if pa.types.is_date32(typ) or pa.types.is_date64(typ):
        return arr.cast(pa.date32()).cast(pa.int32()).to_pylist()
    if pa.types.is_timestamp(typ):
        return arr.cast(pa.timestamp("us", tz=typ.tz)).cast(pa.int64()).to_pylist()
    if pa.types.is_time(typ):
        return arr.cast(pa.time64("us")).cast(pa.int64()).to_pylist()
    if pa.types.is_duration(typ):
        return arr.cast(pa.duration("us")).cast(pa.int64()).to_pylist()
    if typ == pa.month_day_nano_interval():
        out = []
        for v in arr.to_pylist():
            if v is None:
                out.append(None)
            elif t.kind == "interval_year":
                out.append(v.months if v.days == 0 and v.nanoseconds == 0 else ("mixed", v.months, v.days, v.nanoseconds))
            else:
                out.append(v.months * 30 * DAY_US + v.days * DAY_US + v.nanoseconds // 1000 if v.months == 0
                           else ("mixed", v.months, v.days, v.nanoseconds))
        return out
    if pa.types.is_list(typ) or pa.types.is_large_list(typ):
        elem = t.elem if t.kind == "list" else t
        return [None if v is None else to_python(pa.array(v, typ.value_type), elem) for v in
                (arr.to_pylist() if not pa.types.is_temporal(typ.value_type) else _raw_lists(arr))]
    if pa.types.is_interval(typ):  # Spark's year-month interval arrives as months
        return arr.to_pylist()
    return arr.to_pylist()


def _raw_lists(arr):
    return [None if v is None or not v.is_valid else list(v.values) for v in arr]


def _condition(error: BaseException) -> str | None:
    from spark_substrait import SubstraitPlanError
    from spark_substrait._errors import from_java

    if isinstance(error, SubstraitPlanError):
        return error.condition
    try:
        ours = from_java(error)
    except Exception:  # noqa: BLE001 - a Py4J error of another shape
        ours = None
    if ours is not None:
        return ours.condition
    getter = getattr(error, "getCondition", None) or getattr(error, "getErrorClass", None)
    try:
        return getter() if getter else None
    except Exception:  # noqa: BLE001 - a PySpark error without a condition
        return None


def spark_error(error: BaseException, at_conversion: bool) -> Outcome:
    """The outcome a Spark-side exception stands for."""
    condition = _condition(error) or ""
    message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    base = condition.split(".")[0]
    if at_conversion and base in REFUSALS:
        return Refused(base, message)
    if base in INVALID:
        return Error("invalid", message)
    for kind, names in CONDITION_KINDS.items():
        if base in names:
            return Error(kind, message)
    return Foreign(f"{condition or type(error).__name__}: {message}")


class SparkEngine:
    name = "spark"

    def __init__(self, spark):
        self.spark = spark
        self.plans_run = 0

    def run(self, plan: str, out: SType, columns: Sequence[str]):
        """The rows of one plan (lists per column) or an outcome for the whole plan when it fails."""
        self.plans_run += 1
        try:
            df = self.spark.read.substrait(plan)
        except Exception as e:  # noqa: BLE001 - every failure is an outcome
            return spark_error(e, at_conversion=True)
        try:
            # Arrow (and PySpark) cannot hold a year-month interval: its total months instead.
            if any(type(f.dataType).__name__ == "YearMonthIntervalType" for f in df.schema.fields):
                from pyspark.sql import functions as F
                df = df.select([F.expr(f"CAST(CAST(`{f.name}` AS INTERVAL MONTH) AS BIGINT)").alias(f.name)
                                if type(f.dataType).__name__ == "YearMonthIntervalType" else F.col(f"`{f.name}`")
                                for f in df.schema.fields])
            table = df.toArrow()
        except Exception as e:  # noqa: BLE001
            return spark_error(e, at_conversion=False)
        return [to_python(table.column(c), out) for c in columns]


def per_row(run: Callable[[list[int]], object], n: int) -> list[Outcome]:
    """Runs rows 0..n-1 with ``run(indices)`` (a list of outcomes, or one outcome when the run
    failed as a whole), splitting a failing run until each failing row stands alone."""
    results: list[Outcome | None] = [None] * n

    def go(idx: list[int]):
        got = run(idx)
        if isinstance(got, list):
            for i, o in zip(idx, got, strict=True):
                results[i] = o
            return
        if len(idx) == 1 or isinstance(got, Refused):
            for i in idx:
                results[i] = got
            return
        half = len(idx) // 2
        go(idx[:half])
        go(idx[half:])

    if n:
        go(list(range(n)))
    return results


def value_outcome(v) -> Outcome:
    return NULL if v is None else Value(v)


class SqlEngine:
    """DuckDB or DataFusion over an Arrow table ``t`` (columns id, g, c0, c1, …)."""

    def __init__(self, name: str):
        self.name = name
        if name == "duckdb":
            import duckdb
            self._con = duckdb.connect()
        else:
            from datafusion import SessionContext
            self._ctx = SessionContext()

    def query(self, table: pa.Table, sql: str) -> pa.Table:
        if self.name == "duckdb":
            self._con.register("t", table)
            try:
                return self._con.execute(sql).arrow()
            finally:
                self._con.unregister("t")
        self._ctx.register_record_batches("t", [table.to_batches()]) if table.num_rows else \
            self._ctx.register_record_batches("t", [[pa.RecordBatch.from_pylist([], schema=table.schema)]])
        try:
            return self._ctx.sql(sql).to_arrow_table()
        finally:
            self._ctx.deregister_table("t")


def engine_error(error: BaseException) -> Error:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    kind = None
    low = text.lower()
    if re.search(r"overflow|out of range", low):
        kind = "overflow"
    elif re.search(r"divi\w* by zero|division by zero", low):
        kind = "division_by_zero"
    return Error(kind, f"{type(error).__name__}: {text}")


def decimal_or(v):
    return decimal.Decimal(v) if isinstance(v, (int, str)) else v
