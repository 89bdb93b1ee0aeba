"""Wrong answers of ours that are known and not fixed yet: each one written down with why, reported as
"open defect" in docs/function-semantics.md and in the run's summary. A wrong answer not matched here
fails the run. An entry is a stop-gap with an issue behind it, never a reading of the spec: remove it
with the fix.

(function, option text or "*", a piece of the case's arguments) -> what is wrong and why it is open.
"""


OPEN: dict = {
    # None open: the last three (substring at i32 MIN, repeat('', n > 2^31 - 1), a regex ß under
    # CASE_INSENSITIVE) were fixed with tests in StringOptionsSuite.
}


def why(function: str, options_text: str, case_text: str) -> str | None:
    for (f, opts, piece), reason in OPEN.items():
        if f == function and (opts == "*" or opts in options_text) and piece in case_text:
            return reason
    return None
