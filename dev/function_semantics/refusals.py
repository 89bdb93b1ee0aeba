"""The (function, option value) pairs spark-substrait refuses, each with why Spark cannot run it exactly.

A refusal of a pair not listed here fails the differential run: every refusal is a decision, written down.
"""


# (function, option, value) -> why; option "(signature)" names an argument-type combination.
REFUSED = {
    ("strptime_timestamp", "(type)", "*"): (
        "a precision of 7 to 9 (nanoseconds): Spark's timestamps hold microseconds, so the parsed value's last "
        "digits would be lost; precisions 0 to 6 are exact"),
}


# A refusal's words -> why: a reason that holds whatever the function, option and value.
REFUSED_FOR = {
    "format directive %Z, which is not supported": (
        "strftime's %Z writes the zone's abbreviation as tzdata names it (CEST, IST), which Java's time zone rules "
        "do not hold (Java's own names differ, and are locale data); %z, the offset, is exact"),
    "with precision 9, which is not supported": (
        "a precision of 7 to 9 (nanoseconds): Spark's timestamps hold microseconds, so the last digits would be "
        "lost; precisions 0 to 6 are exact"),
}


def why(function: str, option: str, value: str) -> str | None:
    return REFUSED.get((function, option, value)) or REFUSED.get((function, option, "*"))


def why_refused(detail: str) -> str | None:
    """Why a refusal with these words is a decision, if it is one for any function."""
    return next((reason for words, reason in REFUSED_FOR.items() if words in detail), None)


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
}.items():
    REFUSED.setdefault(_key, _why)
