"""unsigned_integers: add, subtract, multiply, divide of u8, u16, u32, u64 (user-defined types
of the extension; values are decimal strings in the literal's struct form).

Results are exact integers in [0, 2^bits - 1]; beyond it the overflow option: ERROR (and when
unset, the session's ANSI behaviour), SATURATE to 0 or the type's maximum, SILENT any value.
divide truncates ("Partial values are truncated"); a zero divisor is on_division_by_zero's
(ERROR when unset). on_domain_error governs x or y "out of range", which no value of the
type is: it never applies.
"""

from families.common import DEFAULT_OVERFLOW, int_result
from outcomes import NULL, Error
from spec import EngineNote, Spec, opt, register

U = "unsigned_integers"


def _arith(op):
    def model(call, row):
        x, y = row
        return int_result(call, {"add": x + y, "subtract": x - y, "multiply": x * y}[op])
    return model


def _divide(call, row):
    x, y = row
    if y == 0:
        how = opt(call, "on_division_by_zero", DEFAULT_OVERFLOW)
        return NULL if how == "NULL" else Error("division_by_zero")
    return int_result(call, x // y)


DF_UNSIGNED = {"u8": "TINYINT UNSIGNED", "u16": "SMALLINT UNSIGNED", "u32": "INT UNSIGNED", "u64": "BIGINT UNSIGNED"}


def _sql(op, engine):
    # exact: DuckDB's HUGEINT (UHUGEINT for a u64 product, 2^128 > HUGEINT), DataFusion's 256-bit decimal
    wide = ("UHUGEINT" if op == "multiply" else "HUGEINT") if engine == "duckdb" else "DECIMAL(40,0)"
    sym = {"add": "+", "subtract": "-", "multiply": "*"}[op]

    def template(call):
        t = call.out
        how = opt(call, "overflow", "ERROR")
        if how == "SATURATE":
            hi = t.int_range()[1]
            out = t.sql(engine) if engine == "duckdb" else DF_UNSIGNED[t.kind]
            exact = f"(CAST({{0}} AS {wide}) {sym} CAST({{1}} AS {wide}))"
            return (f"CAST(CASE WHEN {exact} > {hi} THEN {hi} WHEN {exact} < 0 THEN 0 ELSE {exact} END "
                    f"AS {out})")
        if how == "SILENT":
            return None
        return f"{{0}} {sym} {{1}}"
    return template


def _wraps(call, row, exp, got) -> bool:
    return isinstance(exp, Error) and exp.kind == "overflow" and hasattr(got, "v")


DF_WRAPS = EngineNote("datafusion", _wraps, "overflow ERROR: an unsigned result beyond the type is an error; "
                                            "DataFusion 55 wraps around modulo 2^bits")

for _op in ("add", "subtract", "multiply"):
    register(Spec(U, _op, _arith(_op), duckdb=_sql(_op, "duckdb"), datafusion=_sql(_op, "datafusion"),
                  engine_notes=[DF_WRAPS]))


def _divide_sql(engine):
    def template(call):
        by_zero = opt(call, "on_division_by_zero", "ERROR")
        if engine == "duckdb":
            return "{0} // {1}" if by_zero == "NULL" else None     # DuckDB's // is NULL for a zero divisor
        return "{0} / {1}" if by_zero == "ERROR" else None
    return template


register(Spec(U, "divide", _divide, duckdb=_divide_sql("duckdb"), datafusion=_divide_sql("datafusion")))
