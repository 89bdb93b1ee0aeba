"""The (function, option value) pairs spark-substrait refuses, each with why Spark cannot run it exactly.

A refusal of a pair not listed here fails the differential run: every refusal is a decision, written down.
"""

from typing import Optional

# (function, option, value) -> why; option "(signature)" names an argument-type combination.
REFUSED = {
}


def why(function: str, option: str, value: str) -> Optional[str]:
    return REFUSED.get((function, option, value)) or REFUSED.get((function, option, "*"))


# functions_arithmetic_decimal, functions_rounding(_decimal), unsigned_integers (families decimal, rounding,
# unsigned): added without replacing another family's entry for the same (function, option, value).
for _key, _why in {
    **{("round", "rounding", m): (
        "Spark's round and bround round HALF_UP and HALF_EVEN only. Expressible exactly: TRUNCATE, CEILING, FLOOR, "
        "AWAY_FROM_ZERO and TIE_TOWARDS_ZERO are java.math.RoundingMode DOWN, CEILING, FLOOR, UP and HALF_DOWN (a "
        "RoundBase with that mode, or BigDecimal.setScale in ExactMath); TIE_DOWN and TIE_UP are HALF_DOWN or HALF_UP "
        "chosen by the sign of x; TIE_TO_ODD has no RoundingMode (HALF_DOWN, then the odd neighbour at an exact tie)")
       for m in ("TRUNCATE", "CEILING", "FLOOR", "AWAY_FROM_ZERO", "TIE_DOWN", "TIE_UP", "TIE_TOWARDS_ZERO",
                 "TIE_TO_ODD")},
    **{(f, "overflow", "SATURATE"): (
        "decimal arithmetic (functions_arithmetic_decimal): Spark's decimal overflow is an error (ANSI) or NULL "
        "(legacy), never the type's largest value. Expressible exactly: the legacy result is NULL exactly when the "
        "value overflows, and the overflowing value's sign is known (x's and y's signs), so CASE on that NULL gives "
        "±(10^p - 1)/10^s")
       for f in ("add", "subtract", "multiply", "divide", "modulus")},
    **{("power", "overflow", v): (
        "functions_arithmetic_decimal's power returns fp64: Spark's pow gives IEEE's infinity and no overflow mode "
        "applies. Expressible: an infinite pow of finite arguments is the overflow (ERROR: raise; SATURATE: "
        "±Double.MaxValue; SILENT: any value)")
       for v in ("ERROR", "SATURATE", "SILENT")},
    **{("divide", "on_domain_error", v): (
        "unsigned_integers' divide: on_domain_error governs x or y out of range, which no u8..u64 value is; the "
        "mapping does not read the option. It could accept NULL and ERROR as they change nothing")
       for v in ("NULL", "ERROR")},
}.items():
    REFUSED.setdefault(_key, _why)

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
}.items():
    REFUSED.setdefault(_key, _why)

# functions_string (family strings): added without replacing another family's entry for the same
# (function, option, value).
_ASCII_FOLD = ("translate(x, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') (StringTranslate) on both "
               "sides folds A-Z alone and keeps every other character and every position")
for _key, _why in {
    **{(f, "case_sensitivity", "CASE_INSENSITIVE_ASCII"): (
        f"the mapping knows CASE_SENSITIVE and CASE_INSENSITIVE (Lower on both sides) only. Expressible exactly: "
        f"{_ASCII_FOLD}, then the same {e}")
       for f, e in (("like", "Like (% and _ are not letters)"), ("contains", "Contains"), ("starts_with", "StartsWith"),
                    ("ends_with", "EndsWith"), ("strpos", "StringLocate"),
                    ("count_substring", "length arithmetic over StringReplace"))},
    **{("replace", "case_sensitivity", v): (
        "the mapping accepts CASE_SENSITIVE only (StringReplace). Expressible: RegExpReplace with the substring "
        "quoted (Pattern.quote) under (?iu) (CASE_INSENSITIVE) or (?i) (CASE_INSENSITIVE_ASCII) and the replacement "
        "quoted (Matcher.quoteReplacement), or a runtime helper matching with String.regionMatches(ignoreCase) left "
        "to right")
       for v in ("CASE_INSENSITIVE", "CASE_INSENSITIVE_ASCII")},
    ("substring", "negative_start", "ERROR"): (
        "the mapping knows WRAP_FROM_END and LEFT_OF_BEGINNING only. Expressible exactly: If(start < 0, a "
        "RaiseFunctionError (SUBSTRAIT_DOMAIN_ERROR), the positive-start Substring)"),
    **{(f, "char_set", "ASCII_ONLY"): (
        f"Spark's {e} maps every letter. Expressible exactly: " +
        (f"StringTranslate with the 26 ASCII letters ({'A-Z to a-z' if f == 'lower' else 'a-z to A-Z'})"
         if f != "initcap" else "a runtime helper as TextFunctions.capitalize (words split as InitCap splits them: "
                                "a-z first letters upper-cased, A-Z elsewhere lower-cased)"))
       for f, e in (("lower", "Lower"), ("upper", "Upper"), ("initcap", "InitCap"))},
    **{("title", o, "*"): (
        "title has no mapping (SUBSTRAIT_UNKNOWN_FUNCTION): Spark has no title case that leaves articles. "
        "Expressible with a runtime helper: words split at white space, each word's first character titlecased "
        "(UCharacter.toTitleCase / Character.toTitleCase; a-z only for ASCII_ONLY) unless the word is a, an or the")
       for o in ("(none)", "char_set")},
    ("string_agg", "(literal)", "None"): (
        "string_agg's separator is a constant (the YAML); the mapping requires a non-NULL one (listagg). "
        "Expressible: a NULL separator makes every group's result NULL (the YAML's MIRROR nullability): "
        "Literal(null, StringType) as the measure, or listagg with '' if NULL is read as no separator"),
}.items():
    REFUSED.setdefault(_key, _why)
