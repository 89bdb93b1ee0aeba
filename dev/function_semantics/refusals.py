"""The (function, option value) pairs spark-substrait refuses, each with why Spark cannot run it exactly.

A refusal of a pair not listed here fails the differential run: every refusal is a decision, written down.
"""

from typing import Optional

# (function, option, value) -> why; option "(signature)" names an argument-type combination.
REFUSED = {
    ("strptime_timestamp", "(type)", "*"): (
        "a precision of 7 to 9 (nanoseconds): Spark's timestamps hold microseconds, so the parsed value's last "
        "digits would be lost; precisions 0 to 6 are exact"),
}


def why(function: str, option: str, value: str) -> Optional[str]:
    return REFUSED.get((function, option, value)) or REFUSED.get((function, option, "*"))


# The aggregate and window functions (families aggregates, windows): added without replacing another
# family's entry for the same (function, option, value).
for _key, _why in {
    **{("quantile", o, "*"): (
        "quantile has no mapping (SUBSTRAIT_UNKNOWN_FUNCTION). It is an ordered aggregate (the measure's sort "
        "fields order the values). Exact in Catalyst for integers and decimals: s = the values sorted by the "
        "measure's sorts (array_sort of collect_list(struct(sort keys, x)), x extracted); NULL if n is NULL or "
        "< 1 or any x is NULL; transform(sequence(k0, k1), k -> interpolation at k·(size(s)-1)/n), the fraction "
        "an exact decimal and rounded by the rounding option; fp values need a runtime helper for a directed mode")
       for o in ("(none)", "(enum)", "(literal)", "rounding")},
    **{(f, "overflow", "SATURATE"): (
        "a sum clamped to its type: Spark's sum errors (ANSI) or wraps/NULLs (legacy). Exact: integers summed in "
        "DECIMAL(38,0) (no overflow below 10^19 rows), then least/greatest with the type's bounds; fp: the IEEE "
        "sum, ±Double.MaxValue where it is infinite and no value was (max(abs(x)) finite); decimals: Sum of "
        "DECIMAL(38,S) cannot hold the overflowing sum, so two sums (integral and fractional parts) and a clamp")
       for f in ("sum", "sum0", "avg")},
    ("sum", "overflow", "SILENT"): (
        "unsigned_integers' sum: the mapping sums exactly in DECIMAL(38,0) and accepts only ERROR; SILENT (any "
        "value on overflow) could take the same exact sum modulo 2^64 (Pmod), or the ERROR mapping's answer where "
        "it does not overflow"),
    ("nth_value", "on_domain_error", "ERROR"): (
        "nth_value's position is a constant (Spark's nth_value takes no other): a position that is not a positive "
        "integer or is NULL is known at conversion, so ERROR could raise SUBSTRAIT_DOMAIN_ERROR there (or a "
        "RaiseError over the window); Spark's NthValue itself rejects such a position at analysis"),
}.items():
    REFUSED.setdefault(_key, _why)
