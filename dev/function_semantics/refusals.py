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
_STAT = ("Spark's stddev/variance/corr run in double (Welford updates, each operation rounded to nearest): no "
         "directed rounding and not correctly rounded. Exact: a TypedImperativeAggregate keeping n, Σx and Σx² (Σy, "
         "Σxy) exactly (BigInteger multiples of 2^-1074 and 2^-2148: every double is one), merged exactly, and a "
         "final rounding of M2/(n-1) or M2/n (or of the root, via BigDecimal.sqrt with spare digits and a sticky "
         "bit) to binary64/binary32 in the asked mode; or collect_list and one runtime helper doing the same")
for _key, _why in {
    **{(f, "rounding", m): _STAT for f in ("std_dev", "variance", "corr")
       for m in ("TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR")},
    **{("median", "rounding", m): (
        "median of fp32/fp64 with a directed rounding: Spark's percentile interpolates in double to nearest "
        "(0.5·a + 0.5·b style). Exact: sort_array(collect_list(x)) and the two middle elements (element_at), their "
        "mean rounded in the mode by a runtime helper (BigDecimal (a+b)/2, then to binary64/32 in the mode)")
       for m in ("TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR")},
    ("median", "(enum)", "*"): (
        "median of i64 (either precision): Spark's percentile and percentile_approx compute in double, which "
        "rounds i64 values beyond 2^53. Exact in Catalyst: s = sort_array(collect_list(x)); the middle elements "
        "element_at(s, (size(s)+1) div 2) and element_at(s, size(s) div 2 + 1) (the same for an odd size); their sum "
        "as DECIMAL(20,0), halved and rounded by the rounding option (BRound, Round, Ceil, Floor, truncation)"),
    ("median", "(none)", "*"): "median of i64: see median (enum)",
    ("median", "rounding", "TIE_TO_EVEN"): "median of i64 (any rounding option): see median (enum)",
    **{("product", o, "*"): (
        "product has no mapping (SUBSTRAIT_UNKNOWN_FUNCTION): Spark's product aggregate multiplies in double. "
        "Exact for integers: a DeclarativeAggregate keeping the count of zeros and the product of the non-zero "
        "values in DECIMAL(38,0) with an overflow flag (|p| beyond the output type stays beyond it until a zero), "
        "then ERROR/SATURATE (sign × type max)/SILENT; empty or all-NULL input gives 1. fp64 TIE_TO_EVEN: Spark's "
        "product in double (a product in another order, within (1+u)^(n-1)); the directed modes need exact "
        "accumulation (BigDecimal of the doubles) and a final rounding by a runtime helper")
       for o in ("(none)", "overflow", "rounding")},
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
