"""Wrong answers of ours that are known and not fixed yet: each one written down with why, reported as
"open defect" in docs/function-semantics.md and in the run's summary. A wrong answer not matched here
fails the run. An entry is a stop-gap with an issue behind it, never a reading of the spec: remove it
with the fix.

(function, option text or "*", a piece of the case's arguments) -> what is wrong and why it is open.
"""

from typing import Optional

OPEN = {
    ("substring", "*", "-2147483648"): (
        "substring with a start of i32 MIN: start + length overflows int (Spark's substring computes the end in int: "
        "substring('abcdefg', MIN) gives 'abcdef'; with LEFT_OF_BEGINNING an overflow error where the answer is ''). "
        "Open, a wrong value: the start is to be clamped to the string's length before Spark sees it"),
    ("repeat", "*", "('', "): (
        "repeat('', n) for a count beyond 2^31 - 1 is Spark's cast overflow error, where the answer is ''. Open: "
        "clamping the count for '' made Spark's repeat bring the driver down (UTF8String.repeat of '' 2^31 - 1 "
        "times, to be understood before the clamp comes back)"),
    ("regexp_match_substring_all", "case_sensitivity=CASE_INSENSITIVE", "'ß'"): (
        "Java's regex case-insensitive matching compares a character with the upper and lower case of the other "
        "one; ß has no one-character upper case, so ẞ (U+1E9E), whose simple case folding is ß, is not found. "
        "Open: matching under Unicode simple case folding needs the pattern's literals folded (a runtime "
        "helper), not Java's flag"),
}


def why(function: str, options_text: str, case_text: str) -> Optional[str]:
    for (f, opts, piece), reason in OPEN.items():
        if f == function and (opts == "*" or opts in options_text) and piece in case_text:
            return reason
    return None
