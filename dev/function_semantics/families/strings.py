"""functions_string: every scalar function of the YAML and the aggregate string_agg.

Characters are Unicode code points (Python's ``str`` indices), as the YAML's positions and
lengths count them (char_length('😄') = 1 in the spec's own cases); bytes are UTF-8.

Regular expressions follow ICU, as the YAML asks. The model runs them with Python's ``re``
on patterns translated where ICU and Python part ways for the patterns and inputs used here:
ICU's ``\\w`` also takes combining marks, ICU's ``.`` stops at every line terminator (not
only ``\\n``), ICU's multiline ``^`` does not match after a line terminator that ends the
input; CASE_INSENSITIVE_ASCII folds only A-Z. Inputs avoid the few characters where ``\\s``
differs (U+000B, U+001C-U+001F, U+0085).

Case-insensitive comparisons (CASE_INSENSITIVE) compare characters under Unicode's simple
case folding (one character for one, so positions and wildcards keep their meaning; what
ICU's and Java's case-insensitive regular expressions do per character); the readings list
full case folding (Unicode's default caseless match), lower-casing both sides with the full
mapping (Spark's ILIKE, DataFusion), and lower-casing per character (DuckDB).

"Behavior is undefined" (and, where the YAML is silent, a value outside an argument's
meaning: a negative count, an empty separator) is ``Undefined`` with :data:`ANY` in its
reason: any outcome, an error included, agrees (``accept``).
"""

import dataclasses
import re

from outcomes import NULL, Error, Refused, Undefined, Value
from plans import Arg
from spec import EngineNote, Reading, Spec, opt, register

S = "functions_string"
ANY = "undefined behaviour (any outcome)"


def _anything(why: str) -> Undefined:
    return Undefined(f"{ANY}: {why}")


def _accept(call, row, exp, got) -> bool:
    """Behaviour the YAML leaves undefined: any outcome but a refusal."""
    return isinstance(exp, Undefined) and exp.why.startswith(ANY) and not isinstance(got, Refused)


def _fit(t, strings) -> list:
    """``strings`` as values of text type ``t``: varchar<L> at most L characters, fixedchar<L>
    padded with spaces (or cut) to L; duplicates dropped, order kept."""
    out = []
    for s in strings:
        if s is not None and t.kind == "fixedchar":
            s = s.ljust(t.p)[:t.p]
        elif s is not None and t.kind == "varchar" and len(s) > t.p:
            continue
        if s not in out:
            out.append(s)
    return out


def _fits(call, s: str):
    """The result, or Undefined when it cannot be a value of the declared varchar<L> / fixedchar<L>."""
    t = call.out
    if t.kind == "varchar" and len(s) > t.p:
        return Undefined(f"the result has {len(s)} characters; the declared return type is {t}")
    if t.kind == "fixedchar" and len(s) != t.p:
        return Undefined(f"the result has {len(s)} characters; the declared return type is {t}")
    return Value(s)


def _text_edges(call, i, edges, extra=()):
    t = call.value_types[i]
    return _fit(t, list(edges) + list(extra)) if t.is_text else edges


# ---- case ----------------------------------------------------------------------------------------
def _simple_fold(ch: str) -> str:
    """Unicode simple case folding of one code point (CaseFolding.txt C + S): Python's full
    folding where it is one character, else the one-character lower case, else itself."""
    f = ch.casefold()
    if len(f) == 1:
        return f
    lo = ch.lower()
    return lo if len(lo) == 1 else ch


def _fold(s: str, mode: str) -> str:
    if mode == "CASE_INSENSITIVE":
        return "".join(_simple_fold(c) for c in s)
    if mode == "CASE_INSENSITIVE_ASCII":
        return "".join(c.lower() if "A" <= c <= "Z" else c for c in s)
    return s


def _cs(call) -> str:
    # No default in the YAML: a plan that leaves case_sensitivity unset gets the session's
    # behaviour, case-sensitive comparison.
    return opt(call, "case_sensitivity", "CASE_SENSITIVE")


def _simple_lower(ch: str) -> str:
    """The simple (one-to-one) lowercase mapping of one code point (UnicodeData.txt)."""
    if ch == "\u0130":
        return "i"
    lo = ch.lower()
    return lo if len(lo) == 1 else ch


def _simple_upper(ch: str) -> str:
    up = ch.upper()
    return up if len(up) == 1 else ch


# The transforms of the case-insensitive readings: both sides go through the same one.
FOLDINGS = {
    "simple case folding": lambda s: _fold(s, "CASE_INSENSITIVE"),
    "full case folding": str.casefold,
    "full lowercase": str.lower,
    "per-character simple lowercase": lambda s: "".join(_simple_lower(c) for c in s),
}
CI_WHY = ("the YAML says only that case_sensitivity applies to the substring (match) argument, not how "
          "letters compare without case: Unicode's default caseless match (D144) compares full case "
          "foldings (ß = ss), Spark's ILIKE and DataFusion lower-case both sides with the full mapping "
          "(İ becomes i + U+0307, final sigma), DuckDB lower-cases each character one to one")


def _transform(call, reading: str | None):
    """The transform both sides of a comparison go through: the model's (simple folding, or
    A-Z only), or a reading's for CASE_INSENSITIVE."""
    mode = _cs(call)
    if mode == "CASE_INSENSITIVE" and reading:
        return FOLDINGS[reading]
    return lambda s: _fold(s, mode)


def _ci_readings(model_of, names=("full case folding", "full lowercase", "per-character simple lowercase")):
    """Readings of a comparison function: ``model_of(reading)`` is its model under that transform."""
    return [Reading(f"CASE_INSENSITIVE as {n} of both sides", model_of(n), CI_WHY) for n in names]


# ---- regular expressions (ICU's syntax, run by Python's re) ----------------------------------------
LINE_TERMINATORS = "\n\r\u0085\u2028\u2029"
WORD = "[\\w\u0300-\u036f]"            # ICU's \w takes marks (\p{M}); Python's does not
NON_WORD = "[^\\w\u0300-\u036f]"


class RegexError(Exception):
    pass


def _regex_flags(call):
    return (_cs(call), opt(call, "multiline", "MULTILINE_DISABLED") == "MULTILINE_ENABLED",
            opt(call, "dotall", "DOTALL_DISABLED") == "DOTALL_ENABLED")


_COMPILED = {}


def _compile(pattern: str, call):
    """ICU ``pattern`` with the call's options as a Python pattern; RegexError if ICU would not compile it."""
    mode, multiline, dotall = _regex_flags(call)
    key = (pattern, mode, multiline, dotall)
    if key in _COMPILED:
        return _COMPILED[key]
    out = []
    i = 0
    in_class = False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            esc = pattern[i:i + 2]
            i += 2
            if not in_class and esc in ("\\w", "\\W"):
                out.append(WORD if esc == "\\w" else NON_WORD)
            else:
                out.append(esc)
            continue
        i += 1
        if in_class:
            if c == "]":
                in_class = False
            elif mode == "CASE_INSENSITIVE_ASCII" and c.isascii() and c.isalpha():
                c = c + c.swapcase()
            out.append(c)
            continue
        if c == "[":
            in_class = True
            out.append(c)
        elif c == "." and not dotall:
            out.append("[^" + LINE_TERMINATORS + "]")
        elif c == "^" and multiline:
            out.append("(?:\\A|(?<=\\n)(?!\\Z))")
        elif mode == "CASE_INSENSITIVE_ASCII" and c.isascii() and c.isalpha():
            out.append(f"[{c.lower()}{c.upper()}]")
        else:
            out.append(c)
    flags = (re.IGNORECASE if mode == "CASE_INSENSITIVE" else 0) | (re.MULTILINE if multiline else 0) | \
        (re.DOTALL if dotall else 0)
    try:
        rx = re.compile("".join(out), flags)
    except re.error as e:
        rx = RegexError(str(e))
    _COMPILED[key] = rx
    return rx


def _regex(pattern: str, call):
    rx = _compile(pattern, call)
    if isinstance(rx, RegexError):
        raise rx
    return rx


def _matches(rx, s: str, position: int, restart: bool):
    """The matches searching from character ``position`` (1-based): in the whole string (the
    model: ``^`` and lookbehind see the characters before it), or, ``restart``, in the string
    from there on as if it began there; spans are of ``s``."""
    start = position - 1
    if not restart:
        return [(m.span(), m) for m in rx.finditer(s, start)]
    return [((m.start() + start, m.end() + start), m) for m in rx.finditer(s[start:])]


POSITION_WHY = ("the YAML says only that position is \"the number of characters from the beginning of the string "
                "to begin starting to search\": the model searches the whole string from there (ICU's "
                "find(start): ^ anchors at the string's start, lookbehind sees the characters before); Spark's "
                "substring-then-match (and ICU's region with anchoring bounds) starts a new string there")


def _position_reading(model):
    return Reading("matching starts at `position` as if the string began there", lambda c, r: model(c, r, True),
                   POSITION_WHY)


def _in_range(s: str, position: int) -> bool:
    return 1 <= position <= len(s) + 1


RX_INPUTS = ["", "a", "abc", "abcabc", "ABC aBc", "foobarboopzoo", "a\nb", "Abc\nabc\n", "x\ty\nz",
             "straße STRASSE", "ΣΑΣ σας", "éÉ e\u0301", "a😀b😀c", "x\u0663y 42", "a\u00a0b c", "İstanbul", "aaa",
             "sß SS ẞ", "ab12cd"]
RX_PATTERNS = ["a", "b", "[bc]", "o{1,}", "(.*)c", "\\d+", "\\w+", "\\s", "^a", "c$", "^\\w", "\\w$", "a.b", ".",
               "B", "ß", "É", "σ", "(a)(x)?", "(\\w)(\\w)", "x*", "(?<=a)b", "😀", "\\S+", "e\u0301", "A|b", "s+",
               "(b|c)", "\\Aa"]
RX_BAD = ["(", "*a"]
RX_REPLACEMENTS = ["X", "", "<\\0>", "$1", "\\\\", "😀", "a$"]
RX_GROUP_REPLACEMENTS = ["[\\1]", "\\1\\1", "$1"]


def _groups(pattern: str) -> int:
    try:
        return re.compile(pattern).groups
    except re.error:
        return 0


def _rx_patterns(t):
    pats = RX_PATTERNS
    if t.kind == "fixedchar":
        pats = [p for p in pats if len(p) <= t.p]
    return _fit(t, pats)


def _regex_rows(call, rng, extra_args, undefined_rows):
    """(input, pattern, …) rows: every input with every pattern, each with one of
    ``extra_args(pattern)`` (positions, occurrences, groups), NULLs, and (only in the call
    without options, which is enough to see what ours does) rows the YAML leaves undefined."""
    ts = call.value_types
    inputs = _fit(ts[0], RX_INPUTS)
    pats = _rx_patterns(ts[1])
    rows = []
    for s in inputs:
        for p in pats:
            choices = extra_args(s, p)
            rows.append((s, p) + tuple(rng.choice(choices)))
    n_extra = len(ts) - 2
    rows.append((None, pats[0]) + tuple(rng.choice(extra_args("a", pats[0]))))
    rows.append((inputs[1], None) + tuple(rng.choice(extra_args("a", pats[0]))))
    for k in range(n_extra):
        base = list((inputs[2], pats[0]) + tuple(extra_args(inputs[2], pats[0])[0]))
        base[2 + k] = None
        rows.append(tuple(base))
    if not call.options:
        rows += [r for r in undefined_rows(inputs, pats)]
    return rows


# ---- concat, concat_ws ---------------------------------------------------------------------------------
def _concat(call, row, unset="ACCEPT_NULLS", all_null=""):
    mode = opt(call, "null_handling", unset)
    if mode == "IGNORE_NULLS":
        vals = [v for v in row if v is not None]
        if not vals and all_null is None:
            return NULL
        return _fits(call, "".join(vals))
    if any(v is None for v in row):
        return NULL
    return _fits(call, "".join(row))


def _concat_sql(call):
    cols = [f"{{{i}}}" for i in range(len(call.value_types))]
    if opt(call, "null_handling", "ACCEPT_NULLS") == "IGNORE_NULLS":
        return f"concat({', '.join(cols)})"
    return " || ".join(cols) if len(cols) > 1 else f"{cols[0]} || ''"


register(Spec(
    S, "concat", _concat, nulls="own", duckdb=_concat_sql, datafusion=_concat_sql, accept=_accept,
    edges=lambda c, i, e: _text_edges(c, i, e[:12] + [e[-1]]),
    alternatives=[
        Reading("IGNORE_NULLS when null_handling is unset", lambda c, r: _concat(c, r, unset="IGNORE_NULLS"),
                "the YAML lists IGNORE_NULLS and ACCEPT_NULLS without a default; the model takes the session's "
                "(Spark's concat: NULL when any argument is), DuckDB's and DataFusion's concat skip NULLs"),
        Reading("IGNORE_NULLS: NULL when every argument is NULL", lambda c, r: _concat(c, r, all_null=None),
                "\"null value arguments will be ignored when strings are concatenated\": with every argument NULL "
                "nothing is left to concatenate; the model (and the spec's case concat(null, null) "
                "[IGNORE_NULLS] = '') concatenates nothing into ''")]))


def _concat_ws(call, row, mirror=False):
    sep, *parts = row
    if sep is None or (mirror and any(p is None for p in parts)):
        return NULL
    return _fits(call, sep.join(p for p in parts if p is not None))


register(Spec(
    S, "concat_ws", _concat_ws, nulls="own", accept=_accept,
    edges=lambda c, i, e: _text_edges(c, i, (e[:6] + [e[-1]]) if i else [None, ",", "", " | ", "😀"]),
    duckdb=lambda c: f"concat_ws({', '.join(f'{{{i}}}' for i in range(len(c.value_types)))})",
    datafusion=lambda c: f"concat_ws({', '.join(f'{{{i}}}' for i in range(len(c.value_types)))})",
    alternatives=[Reading("NULL when any argument is NULL (MIRROR)", lambda c, r: _concat_ws(c, r, True),
                          "the YAML says nothing of NULLs and declares the default nullability MIRROR; the model "
                          "follows the spec's own cases (concat_ws.test: NULL strings skipped, a NULL separator "
                          "NULL), as SQL's concat_ws does")]))


# ---- like ------------------------------------------------------------------------------------------------
def _like_regex(pattern: str, escape: bool) -> str:
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if escape and c == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return "".join(out)


def _like_model(reading=None, escape=False):
    def model(call, row):
        s, p = row
        f = _transform(call, reading)
        return Value(re.fullmatch(_like_regex(f(p), escape), f(s), re.DOTALL) is not None)
    return model


# A backslash (the escape character of SQL engines, none in the YAML's like) before %, _, itself,
# another character and at the end; regex metacharacters, which like gives no meaning.
LIKE_EDGES = ["", "a", "%", "_", "a%", "%c", "_b_", "%b%", "A%", "abc", "ABC", "a_c", "%%", "a\\%", "\\%", "\\\\",
              "100\\%", "a.b", ".*", "%😀%", "_😀_", "😀", "ß", "SS", "ẞ", "i%", "_stanbul", "σας", "ΣΑΣ", "ǆ", "é%",
              "e_", "x_y%", "%\n%", "straße", "STRASSE", "İ%", "a\\_", "\\_c", "%\\\\%", "[a]%", "^a$", "a+",
              "(a)%", "a{1}", "a|b", "$", "\\d", "É\\%"]
LIKE_INPUTS = ["", "a", "abc", "ABC", "aBc", "a%c", "a_c", "100%", "\\", "a\\b", "a.b", "😀", "a😀b", "ß", "ẞ",
               "straße", "STRASSE", "İstanbul", "istanbul", "ΣΑΣ", "σας", "ǅ", "éé", "e\u0301", "x\ty\nz", "%",
               "a_", "a\\_", "\\_c", "[a]x", "^a$", "a+", "(a)", "a{1}", "a|b", "$", "\\d", "é\\%", "É\\x"]


def _like_duckdb(call):
    mode = _cs(call)
    return {"CASE_SENSITIVE": "{0} LIKE {1}", "CASE_INSENSITIVE": "{0} ILIKE {1}"}.get(mode)


LIKE_BAD_ESCAPES = ["\\", "a\\b", "%\\"]    # a backslash at the end or before a character that is not %, _, \\


def _like_rows(call, rng, n):
    """Every input with every pattern, and the patterns a backslash escape would reject (a
    backslash at the end or before a character that is not %, _ or itself)."""
    ts = call.value_types
    inputs = _fit(ts[0], [None] + LIKE_INPUTS)
    rows = [(s, p) for s in inputs for p in _fit(ts[1], [None] + LIKE_EDGES)]
    rows += [(s, p) for s in _fit(ts[0], ["\\", "a\\b", "ab", "a%", "A\\B", "a\\"]) for p in _fit(ts[1], LIKE_BAD_ESCAPES)]
    return rows


register(Spec(
    S, "like", _like_model(), duckdb=_like_duckdb, datafusion=_like_duckdb, accept=_accept, rows=_like_rows,
    alternatives=[
        Reading("a backslash escapes the character after it", _like_model(escape=True),
                "the YAML's like names no escape character (the model: every character but % and _ stands "
                "for itself, as in DuckDB); Spark's and DataFusion's LIKE escape with a backslash by default")]
    + _ci_readings(lambda n: _like_model(n), ("full lowercase", "per-character simple lowercase"))
    + [Reading("a backslash escapes the character after it, CASE_INSENSITIVE as full lowercase",
               _like_model("full lowercase", escape=True), CI_WHY)]))


# ---- starts_with, ends_with, contains, strpos, count_substring ---------------------------------------------
CMP_INPUTS = ["", " ", "a", "abc", "ABC", "aBc", "abcabc", "straße", "STRASSE", "ẞ", "İstanbul", "istanbul",
              "ΣΑΣ", "σας", "ǅx", "éé", "e\u0301", "😀a😀b", "a😀b😀", "x\ty", "  padded  ", "ﬁ", "Ω", "ab" * 20]
CMP_SUBS = ["", "a", "A", "b", "c", "ab", "AB", "bc", "BC", "abc", "ß", "SS", "ss", "ẞ", "i", "İ", "i\u0307", "σ",
            "ς", "Σ", "ǆ", "ǅ", "Ǆ", "é", "É", "\u0301", "😀", "😀B", "a😀", " ", "fi", "ω", "ab" * 3, "x"]


def _cmp_edges(call, i, e):
    return _fit(call.value_types[i], [None] + (CMP_INPUTS if i == 0 else CMP_SUBS))


def _predicate(test):
    def model_of(reading=None):
        def model(call, row):
            f = _transform(call, reading)
            return Value(test(f(row[0]), f(row[1])))
        return model
    return model_of


def _ci_sql(fn):
    def template(call):
        mode = _cs(call)
        if mode == "CASE_SENSITIVE":
            return f"{fn}({{0}}, {{1}})"
        if mode == "CASE_INSENSITIVE":
            return f"{fn}(lower({{0}}), lower({{1}}))"
        return None
    return template


for _name, _test, _duck, _df in (
        ("starts_with", lambda s, t: s.startswith(t), "starts_with", "starts_with"),
        ("ends_with", lambda s, t: s.endswith(t), "ends_with", "ends_with"),
        ("contains", lambda s, t: t in s, "contains", "contains")):
    _of = _predicate(_test)
    register(Spec(S, _name, _of(), edges=_cmp_edges, duckdb=_ci_sql(_duck), datafusion=_ci_sql(_df),
                  alternatives=_ci_readings(_of)))


def _strpos_of(reading=None):
    def model(call, row):
        s, sub = row
        f = _transform(call, reading)
        fs, fsub = f(s), f(sub)
        if reading and len(fs) != len(s):
            # positions of a transformed string that is not as long as the input are no positions of it
            return Value(("positions of another string", fs.find(fsub) + 1))
        return Value(fs.find(fsub) + 1)
    return model


def _lowered_positions(call, row, exp, got) -> bool:
    """strpos(lower(s), lower(t)): a position in the lower-cased input, which is longer than the input where
    a character's lower case is two (İ)."""
    s, sub = row
    return _cs(call) == "CASE_INSENSITIVE" and isinstance(got, Value) and got.v == s.lower().find(sub.lower()) + 1


register(Spec(S, "strpos", _strpos_of(), edges=_cmp_edges, duckdb=_ci_sql("strpos"), datafusion=_ci_sql("strpos"),
              alternatives=_ci_readings(_strpos_of),
              engine_notes=[EngineNote(e, _lowered_positions,
                                       "\"Return the position of the first occurrence of a string in another string\": "
                                       "strpos(lower(input), lower(substring)) counts positions of the lower-cased "
                                       "input, one more after each İ (whose lower case is i + U+0307)")
                            for e in ("duckdb", "datafusion")]))


def _count_of(reading=None):
    def model(call, row):
        s, sub = row
        if sub == "":
            return _anything("the number of occurrences of the empty string")
        f = _transform(call, reading)
        return Value(f(s).count(f(sub)))
    return model


def _count_sql(engine):
    def template(call):
        mode = _cs(call)
        if mode == "CASE_INSENSITIVE_ASCII":
            return None
        s, t = ("lower({0})", "lower({1})") if mode == "CASE_INSENSITIVE" else ("{0}", "{1}")
        div = "//" if engine == "duckdb" else "/"
        return f"(length({s}) - length(replace({s}, {t}, ''))) {div} length({t})"
    return template


register(Spec(S, "count_substring", _count_of(), edges=_cmp_edges, accept=_accept,
              duckdb=_count_sql("duckdb"), datafusion=_count_sql("datafusion"),
              alternatives=_ci_readings(_count_of)))


# ---- replace -------------------------------------------------------------------------------------------------
def _replace_of(reading=None):
    def model(call, row):
        s, sub, rep = row
        if sub == "":
            return _anything("replacing every occurrence of the empty string")
        mode = _cs(call)
        if mode == "CASE_SENSITIVE":
            return _fits(call, s.replace(sub, rep))
        f = _transform(call, reading)
        fs, fsub = f(s), f(sub)
        if len(fs) != len(s):
            return Value(("a replacement in another string", fs.replace(fsub, rep)))
        out, i = [], 0
        while True:
            j = fs.find(fsub, i)
            if j < 0:
                break
            out.append(s[i:j] + rep)
            i = j + len(fsub)
        out.append(s[i:])
        return _fits(call, "".join(out))
    return model


def _replace_rows(call, rng, n):
    ts = call.value_types
    rows = []
    for s in _fit(ts[0], CMP_INPUTS[:-1] + ["abcabcabc", "aaaa"]):
        for sub in _fit(ts[1], CMP_SUBS[:24] + ["aa"]):
            rows.append((s, sub, rng.choice(["X", "", "😀", "dd", "$1", "\\1"])))
    rows += [(None, "a", "X"), ("abc", None, "X"), ("abc", "b", None)]
    return rows


register(Spec(S, "replace", _replace_of(), rows=_replace_rows, accept=_accept,
              duckdb=lambda c: "replace({0}, {1}, {2})" if _cs(c) == "CASE_SENSITIVE" else None,
              datafusion=lambda c: "replace({0}, {1}, {2})" if _cs(c) == "CASE_SENSITIVE" else None,
              alternatives=_ci_readings(_replace_of, ("full lowercase", "per-character simple lowercase"))))


# ---- substring -------------------------------------------------------------------------------------------------
def _substring(call, row, unset="WRAP_FROM_END", clamp=False):
    s, start = row[0], row[1]
    length = row[2] if len(row) == 3 else None
    n = len(s)
    mode = opt(call, "negative_start", unset)
    if length is not None and length < 0:
        return _anything("a negative length")
    if start == 0 and mode != "LEFT_OF_BEGINNING":
        return _anything("start 0 is neither a position from the beginning (1, 2, …) nor from the end (-1, -2, …)")
    if start > 0 or mode == "LEFT_OF_BEGINNING":
        first = start
    elif mode == "ERROR":
        return Error("domain", "negative_start ERROR: a negative start")
    else:
        first = n + start + 1
        if clamp:
            first = max(first, 1)
    lo = max(first, 1)
    hi = n if length is None else min(n, first + length - 1)
    return Value(s[lo - 1:hi] if hi >= lo else "")


SUB_TEXTS = ["", "a", "abcdefg", "😀a😀b😀😀", "e\u0301x", "straße", "  padded  ", "ab" * 20]
SUB_STARTS = [1, 2, 3, 7, 8, 10, 0, -1, -2, -3, -7, -8, -10, 2 ** 31 - 1, -2 ** 31]
SUB_LENGTHS = [0, 1, 2, 3, 5, 100, -1, 2 ** 31 - 1, -2 ** 31]


HUGE = (2 ** 31 - 1, -2 ** 31)


def _substring_rows(call, rng, n):
    """Every text with every start (and length); the i32 extremes only with three texts (a row that
    fails a plan is run alone: few of them keep the run short)."""
    ts = call.value_types
    texts = _fit(ts[0], SUB_TEXTS)
    rows = []
    for k, s in enumerate(texts):
        for st in SUB_STARTS:
            if st in HUGE and k > 3:
                continue
            if len(ts) == 3:
                for ln in SUB_LENGTHS:
                    if ln not in HUGE or k <= 3:
                        rows.append((s, st, ln))
            else:
                rows.append((s, st))
    rows += [(None,) + rows[2][1:], (texts[2], None) + rows[2][2:]]
    if len(ts) == 3:
        rows.append((texts[2], 1, None))
    return rows


def _substring_datafusion(call):
    return "substr({0}, {1}, {2})" if len(call.value_types) == 3 else "substr({0}, {1})"


register(Spec(
    S, "substring", _substring, rows=_substring_rows, accept=_accept,
    duckdb=lambda c: (_substring_datafusion(c).replace("substr", "substring")
                      if opt(c, "negative_start", "WRAP_FROM_END") == "WRAP_FROM_END" else None),
    datafusion=lambda c: _substring_datafusion(c) if opt(c, "negative_start") == "LEFT_OF_BEGINNING" else None,
    alternatives=[
        Reading("LEFT_OF_BEGINNING when negative_start is unset", lambda c, r: _substring(c, r, "LEFT_OF_BEGINNING"),
                "the YAML gives negative_start no default; the model takes the session's (Spark's substring wraps "
                "a negative start from the end), SQL's substring (DataFusion) starts left of the beginning"),
        Reading("WRAP_FROM_END: a start before the beginning starts at the first character",
                lambda c, r: _substring(c, r, clamp=True),
                "WRAP_FROM_END says where -1 … -n are; a start beyond -n (before the first character) is not "
                "described: the model counts those positions towards the length and takes nothing of them, as "
                "LEFT_OF_BEGINNING describes positions left of the input (and Spark and DuckDB do)")]))


# ---- regexp_match_substring, regexp_match_substring_all, regexp_strpos, regexp_count_substring ------------------
def _match_substring(call, row, restart=False, unmatched_group=""):
    s, p = row[0], row[1]
    position, occurrence, group = row[2:] if len(row) == 5 else (1, 1, 0)
    try:
        rx = _regex(p, call)
    except RegexError:
        return _anything("the pattern does not compile")
    if not _in_range(s, position) or occurrence < 1 or not 0 <= group <= rx.groups:
        return _anything("position, occurrence or group out of range")
    found = _matches(rx, s, position, restart)
    if len(found) < occurrence:
        return NULL
    g = found[occurrence - 1][1].group(group)
    return Value(unmatched_group if g is None else g)


def _match_substring_rows(call, rng, n):
    five = len(call.value_types) == 5

    def extra(s, p):
        if not five:
            return [()]
        g = _groups(p)
        return [(1, 1, 0), (1, 1, 0), (2, 1, 0), (1, 2, 0), (1, 3, 0), (3, 2, 0), (len(s) + 1, 1, 0),
                (1, 1, min(1, g)), (2, 1, min(2, g)), (1, 2, g)]

    def undefined(inputs, pats):
        rows = [("abc", bad) + ((1, 1, 0) if five else ()) for bad in RX_BAD]
        if five:
            rows += [("abc", "b", 0, 1, 0), ("abc", "b", 1, 0, 0), ("abc", "b", 1, 1, 1), ("abc", "b", 1, 1, -1),
                     ("abc", "b", 5, 1, 0), ("abc", "b", -1, 1, 0)]
        return rows
    return _regex_rows(call, rng, extra, undefined)


def _rx_sql_flags(call) -> str | None:
    mode, multiline, dotall = _regex_flags(call)
    if mode == "CASE_INSENSITIVE_ASCII":
        return None
    flags = ("i" if mode == "CASE_INSENSITIVE" else "") + ("m" if multiline else "") + ("s" if dotall else "")
    return f"'(?{flags})' || {{1}}" if flags else "{1}"


def _rx_duckdb(fmt):
    def template(call):
        p = _rx_sql_flags(call)
        return None if p is None else fmt(call, p)
    return template


def _rx_lookaround(p) -> bool:
    return p is not None and re.search(r"\(\?<?[=!]", p) is not None


def _rx_dollar(call, row) -> bool:
    s, p = row[0], row[1]
    return p is not None and "$" in p and s is not None and s.endswith("\n") and not _regex_flags(call)[1]


def _rx_classes(row) -> bool:
    s, p = row[0], row[1]
    return p is not None and re.search(r"\\[wWdDsS]", p) is not None and s is not None and not s.isascii()


def _rx_notes(*engines):
    out = []
    for e in engines:
        out += [EngineNote(e, lambda c, r, exp, got: _rx_lookaround(r[1]),
                           "\"The regular expression pattern should follow the International Components for Unicode "
                           "implementation\" (ICU has lookahead and lookbehind); RE2 (DuckDB) and Rust's regex "
                           "(DataFusion) have neither: an error, or no match"),
                EngineNote(e, lambda c, r, exp, got: _rx_dollar(c, r),
                           "ICU's $ (the pattern syntax the YAML names) also matches before a line terminator that ends "
                           "the input; RE2's and Rust's $ only at its very end")]
        out.append(EngineNote(e, lambda c, r, exp, got: r[1] is not None and _matches_empty(r[1], c),
                              "ICU (as Java and Python) finds an empty match right where a previous match ended "
                              "(x* in 'xy': 'x', '', ''); RE2 (DuckDB) and Rust's regex (DataFusion) skip it"))
        if e == "duckdb":
            out.append(EngineNote(e, lambda c, r, exp, got: _rx_classes(r),
                                  "ICU's \\w, \\d and \\s are Unicode's (letters and marks of every script, every "
                                  "decimal digit, NO-BREAK SPACE); RE2's (DuckDB) are ASCII"))
    return out


UNMATCHED_WHY = ("the YAML says group 1 returns \"the substring matching only the first capture group\" and "
                 "not what a group that took no part in the match gives: ICU's group() (and Spark's) gives '', "
                 "no substring matched it (NULL) is the other reading")

register(Spec(
    S, "regexp_match_substring", _match_substring, rows=_match_substring_rows, accept=_accept,
    duckdb=_rx_duckdb(lambda c, p: f"regexp_extract({{0}}, {p})" if len(c.value_types) == 2 else None),
    engine_notes=_rx_notes("duckdb") + [
        EngineNote("duckdb", lambda c, r, e, g: e == NULL and g == Value(""),
                   "\"Extract a substring that matches\": with no match there is no substring (NULL); DuckDB's "
                   "regexp_extract gives ''")],
    alternatives=[_position_reading(_match_substring),
                  Reading("a group that took no part in the match gives NULL",
                          lambda c, r: _match_substring(c, r, unmatched_group=None), UNMATCHED_WHY)]))


def _match_all(call, row, restart=False, unmatched_group=""):
    s, p, position, group = row
    try:
        rx = _regex(p, call)
    except RegexError:
        return _anything("the pattern does not compile")
    if not _in_range(s, position) or not 0 <= group <= rx.groups:
        return _anything("position or group out of range")
    out = []
    for _, m in _matches(rx, s, position, restart):
        g = m.group(group)
        out.append(unmatched_group if g is None else g)
    return Value(out)


def _match_all_rows(call, rng, n):
    def extra(s, p):
        g = _groups(p)
        return [(1, 0), (1, 0), (2, 0), (3, 0), (len(s) + 1, 0), (1, min(1, g)), (2, g)]

    def undefined(inputs, pats):
        return [("abc", bad, 1, 0) for bad in RX_BAD] + [("abc", "b", 0, 0), ("abc", "b", 1, 1), ("abc", "b", 5, 0)]
    return _regex_rows(call, rng, extra, undefined)


register(Spec(
    S, "regexp_match_substring_all", _match_all, rows=_match_all_rows, accept=_accept,
    alternatives=[_position_reading(_match_all),
                  Reading("a group that took no part in a match gives a NULL element",
                          lambda c, r: _match_all(c, r, unmatched_group=None), UNMATCHED_WHY)]))


def _strpos_rx(call, row, restart=False):
    s, p, position, occurrence = row
    try:
        rx = _regex(p, call)
    except RegexError:
        return _anything("the pattern does not compile")
    if not _in_range(s, position) or occurrence < 1:
        return _anything("position or occurrence out of range")
    found = _matches(rx, s, position, restart)
    return Value(found[occurrence - 1][0][0] + 1 if len(found) >= occurrence else 0)


def _strpos_rx_rows(call, rng, n):
    def extra(s, p):
        return [(1, 1), (1, 1), (2, 1), (1, 2), (1, 3), (1, 4), (3, 2), (len(s) + 1, 1)]

    def undefined(inputs, pats):
        return [("abc", bad, 1, 1) for bad in RX_BAD] + [("abc", "b", 0, 1), ("abc", "b", 1, 0), ("abc", "b", 5, 1)]
    return _regex_rows(call, rng, extra, undefined)


register(Spec(
    S, "regexp_strpos", _strpos_rx, rows=_strpos_rx_rows, accept=_accept,
    datafusion=_rx_duckdb(lambda c, p: f"regexp_instr({{0}}, {p}, {{2}}, {{3}})"), engine_notes=_rx_notes("datafusion"),
    alternatives=[_position_reading(_strpos_rx)]))


def _count_rx(call, row, restart=False):
    s, p = row[0], row[1]
    position = row[2] if len(row) == 3 else 1
    try:
        rx = _regex(p, call)
    except RegexError:
        return _anything("the pattern does not compile")
    if not _in_range(s, position):
        return _anything("position out of range")
    return Value(len(_matches(rx, s, position, restart)))


def _count_rx_rows(call, rng, n):
    three = len(call.value_types) == 3

    def extra(s, p):
        return [(1,), (1,), (2,), (3,), (len(s) + 1,)] if three else [()]

    def undefined(inputs, pats):
        return [(inputs[2], bad) + ((1,) if three else ()) for bad in RX_BAD] + \
            ([(inputs[2], pats[0], 0), (inputs[2], pats[0], 50)] if three else [])
    return _regex_rows(call, rng, extra, undefined)


register(Spec(
    S, "regexp_count_substring", _count_rx, rows=_count_rx_rows, accept=_accept,
    datafusion=_rx_duckdb(lambda c, p: f"regexp_count({{0}}, {p}, {{2}})" if len(c.value_types) == 3
                          else f"regexp_count({{0}}, {p})"), engine_notes=_rx_notes("datafusion"),
    alternatives=[_position_reading(_count_rx)]))


# ---- regexp_replace ------------------------------------------------------------------------------------------
def _replacement(rep: str, groups: int, icu: bool):
    """The replacement as a list of literal strings and group numbers, or None when undefined:
    the model's syntax (\\n a group, \\\\ a backslash) or ICU's ($n a group, \\x the character x)."""
    out = []
    i = 0
    while i < len(rep):
        c = rep[i]
        if c == "\\":
            if i + 1 == len(rep):
                return None
            nxt = rep[i + 1]
            if icu:
                out.append(nxt)
            elif nxt.isdigit() and nxt.isascii():
                if int(nxt) > groups:
                    return None
                out.append(int(nxt))
            elif nxt == "\\":
                out.append("\\")
            else:
                return None
            i += 2
        elif icu and c == "$" and i + 1 < len(rep) and rep[i + 1].isascii() and rep[i + 1].isdigit():
            j = i + 1
            # ICU takes as many digits as make a group number the pattern has
            while j < len(rep) and rep[j].isascii() and rep[j].isdigit() and int(rep[i + 1:j + 1]) <= groups:
                j += 1
            if j == i + 1:
                return None
            out.append(int(rep[i + 1:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return out


def _regexp_replace(call, row, restart=False, icu=False):
    s, p, rep = row[:3]
    position, occurrence = row[3:] if len(row) == 5 else (1, 0)
    try:
        rx = _regex(p, call)
    except RegexError:
        return _anything("the pattern does not compile")
    parts = _replacement(rep, rx.groups, icu)
    if parts is None:
        if icu and _replacement(rep, rx.groups, False) is not None:
            # undefined in ICU's syntax only: this reading gives no answer the model's does not
            return Value(("no value: the replacement is undefined in ICU's syntax",))
        return _anything("an illegal back-reference (or escape) in the replacement")
    if not _in_range(s, position) or occurrence < 0:
        return _anything("position or occurrence out of range")
    out, last = [], 0
    for k, ((a, b), m) in enumerate(_matches(rx, s, position, restart), 1):
        if occurrence in (0, k):
            out.append(s[last:a])
            out.append("".join(x if isinstance(x, str) else (m.group(x) or "") for x in parts))
            last = b
    out.append(s[last:])
    return _fits(call, "".join(out))


def _regexp_replace_rows(call, rng, n):
    ts = call.value_types
    inputs = _fit(ts[0], RX_INPUTS)
    pats = _rx_patterns(ts[1])
    five = len(ts) == 5
    rows = []
    for s in inputs:
        for p in pats:
            reps = RX_REPLACEMENTS + (RX_GROUP_REPLACEMENTS if _groups(p) else [])
            extra = (rng.choice([(1, 0), (1, 0), (1, 1), (1, 2), (2, 0), (3, 1), (len(s) + 1, 0), (1, 5)]),) \
                if five else ((),)
            rows.append((s, p, rng.choice(reps)) + extra[0])
    rows += [(None, "b", "X") + ((1, 0) if five else ()), ("abc", None, "X") + ((1, 0) if five else ()),
             ("abc", "b", None) + ((1, 0) if five else ())]
    if five:
        rows += [("abc", "b", "X", None, 0), ("abc", "b", "X", 1, None)]
    if not call.options:
        rows += [("abc", bad, "X") + ((1, 0) if five else ()) for bad in RX_BAD]
        rows += [("abc", "b", "\\1") + ((1, 0) if five else ()), ("abc", "(b)", "\\q") + ((1, 0) if five else ())]
        if five:
            rows += [("abc", "b", "X", 0, 0), ("abc", "b", "X", 1, -1), ("abc", "b", "X", 9, 0)]
    return rows


def _regexp_replace_sql(engine):
    def template(call):
        p = _rx_sql_flags(call)
        if p is None or len(call.value_types) == 5:
            return None
        return f"regexp_replace({{0}}, {p}, {{2}}, 'g')"
    return template


register(Spec(
    S, "regexp_replace", _regexp_replace, rows=_regexp_replace_rows, accept=_accept,
    duckdb=_regexp_replace_sql("duckdb"), datafusion=_regexp_replace_sql("datafusion"),
    engine_notes=_rx_notes("duckdb", "datafusion") + [
        EngineNote("datafusion", lambda c, r, e, g: r[2] is not None and ("\\\\" in r[2] or "$" in r[2]),
                   "\"The replacement string can capture groups using numbered backreferences\" (\\1; \\\\ a "
                   "backslash, $ itself, as RE2 and the spec's cases write them); DataFusion keeps \\\\ as two "
                   "backslashes and reads $1 as a group too")],
    alternatives=[
        _position_reading(_regexp_replace),
        Reading("the replacement in ICU's syntax ($n a group, \\x the character x)",
                lambda c, r: _regexp_replace(c, r, icu=True),
                "the YAML names ICU for the pattern and says the replacement \"can capture groups using numbered "
                "backreferences\": backreferences are written \\1 (the spec's own cases, RE2, Rust's regex), "
                "ICU's replacement text writes groups $1 and reads \\1 as the character 1"),
        Reading("ICU's replacement syntax, matching from `position` as if the string began there",
                lambda c, r: _regexp_replace(c, r, restart=True, icu=True), POSITION_WHY)]))


# ---- regexp_string_split, string_split ----------------------------------------------------------------------------
def _matches_empty(pattern, call) -> bool:
    rx = _compile(pattern, call)
    return not isinstance(rx, RegexError) and rx.fullmatch("") is not None


def _rx_split(call, row, drop_leading_empty=False):
    s, p = row
    try:
        rx = _regex(p, call)
    except RegexError:
        return _anything("the pattern does not compile")
    out, last = [], 0
    for (a, b), _ in _matches(rx, s, 1, False):
        if drop_leading_empty and a == b == 0:
            continue
        out.append(s[last:a])
        last = b
    out.append(s[last:])
    return Value(out)


def _rx_split_rows(call, rng, n):
    def undefined(inputs, pats):
        return [("abc", bad) for bad in RX_BAD]
    return _regex_rows(call, rng, lambda s, p: [()], undefined)


register(Spec(
    S, "regexp_string_split", _rx_split, rows=_rx_split_rows, accept=_accept,
    duckdb=_rx_duckdb(lambda c, p: f"string_split_regex({{0}}, {p})"),
    engine_notes=_rx_notes("duckdb") + [
        EngineNote("duckdb", lambda c, r, e, g: r[1] is not None and (r[1].startswith(("^", "\\A")) or
                                                                    _matches_empty(r[1], c)),
                   "\"The substrings matched by the pattern will be used as the separators\" (the matches in the "
                   "whole input); DuckDB's string_split_regex searches each remainder as a new string (^ and \\A "
                   "match again after every separator) and drops the empty pieces of empty matches at the ends"),
        EngineNote("duckdb", lambda c, r, e, g: r[1] is None and g == Value([r[0]]),
                   "the YAML's nullability MIRROR (a NULL pattern, a NULL list); DuckDB's string_split_regex with a "
                   "NULL pattern gives the input as the one element")],
    alternatives=[Reading("a zero-width match at the very start separates nothing",
                          lambda c, r: _rx_split(c, r, True),
                          "the YAML says the substrings the pattern matches are the separators; an empty match "
                          "at the start makes an empty first piece in the model (as a non-empty one does), Java's "
                          "split (Spark's) leaves that empty piece out")]))


def _string_split(call, row, null_separator_whole=False):
    s, sep = row
    if s is None:
        return NULL
    if sep is None:
        return Value([s]) if null_separator_whole else NULL
    if sep == "":
        return _anything("an empty separator")
    return Value(s.split(sep))


register(Spec(
    S, "string_split", _string_split, nulls="own", accept=_accept,
    edges=lambda c, i, e: _fit(c.value_types[i], [None] + (
        ["", "a", "abc", "a b c d", "bacad", "a,b,,c,", ",", "a😀b😀", "straße", "x\ty", "ab" * 10] if i == 0
        else ["", " ", ",", "a", "😀", "ab", "ß", ",,", "b c"])),
    duckdb=lambda c: "string_split({0}, {1})", datafusion=lambda c: "string_to_array({0}, {1})",
    alternatives=[Reading("a NULL separator gives the input as the one element", lambda c, r: _string_split(c, r, True),
                          "the spec's own case string_split('a b c d', null) = ['a b c d'] against the YAML's "
                          "default nullability MIRROR (a NULL argument, a NULL result), which the model follows")],
    engine_notes=[EngineNote("datafusion", lambda c, r, e, g: r[0] == "" and isinstance(g, Value) and g.v == [],
                             "\"Split a string into a list of strings\": the empty string is one empty piece; "
                             "DataFusion's string_to_array gives an empty list"),
                  EngineNote("datafusion", lambda c, r, e, g: r[1] is None and isinstance(g, Value)
                             and g.v == list(r[0] or ""),
                             "the YAML's nullability MIRROR (a NULL separator, a NULL list); DataFusion's "
                             "string_to_array with a NULL separator splits into characters (PostgreSQL's rule)")]))


# ---- left, right, lpad, rpad, center, repeat, reverse, replace_slice -------------------------------------------
TEXTS = ["", "a", "abcdef", "😀a😀b", "e\u0301x", "straße", "  padded  ", "ΣΑΣ", "ab" * 15]
COUNTS = [None, 0, 1, 2, 5, 6, 10, 30, -1, -5, 2 ** 31 - 1, -2 ** 31]


def _left_right(side):
    def model(call, row):
        s, k = row
        if k < 0:
            return _anything("a negative count")
        return Value(s[:k] if side == "left" else s[max(len(s) - k, 0):])
    return model


for _side in ("left", "right"):
    register(Spec(S, _side, _left_right(_side), accept=_accept,
                  edges=lambda c, i, e: _fit(c.value_types[0], [None] + TEXTS) if i == 0 else COUNTS,
                  duckdb=(lambda f: lambda c: f"{f}({{0}}, {{1}})")(_side),
                  datafusion=(lambda f: lambda c: f"{f}({{0}}, {{1}})")(_side)))


def _pad(side, rpad_cut_right=False):
    def model(call, row):
        s, n, chars = row
        if n <= len(s):
            if n <= 0:
                return Value("")
            cut_left = side == "right" and not rpad_cut_right
            return _fits(call, s[len(s) - n:] if cut_left else s[:n])
        if chars == "":
            return _anything("padding with no characters")
        need = n - len(s)
        pad = (chars * (need // len(chars) + 1))[:need]
        return _fits(call, pad + s if side == "left" else s + pad)
    return model


def _pad_rows(call, rng, n):
    ts = call.value_types
    rows = []
    for s in _fit(ts[0], TEXTS):
        for k in [0, 1, 4, 6, 10, 20, 30, -1, -2 ** 31]:
            rows.append((s, k, rng.choice(_fit(ts[2], [" ", "1", "aabb", "😀", "xy😀", "", "e\u0301"]))))
    rows += [(None, 4, " "), ("abc", None, " "), ("abc", 5, None)]
    return rows


# DataFusion 55 panics (capacity overflow) on a negative length in a column: the template
# asks it for length 0 there, whose answer ('') is the model's for every length <= 0.
register(Spec(S, "lpad", _pad("left"), rows=_pad_rows, accept=_accept,
              duckdb=lambda c: "lpad({0}, {1}, {2})", datafusion=lambda c: "lpad({0}, CASE WHEN {1} < 0 THEN 0 ELSE {1} END, {2})"),
         Spec(S, "rpad", _pad("right"), rows=_pad_rows, accept=_accept,
              duckdb=lambda c: "rpad({0}, {1}, {2})", datafusion=lambda c: "rpad({0}, CASE WHEN {1} < 0 THEN 0 ELSE {1} END, {2})",
              alternatives=[Reading("a longer input is cut on the right, as lpad's", _pad("right", True),
                                    "the YAML's rpad says \"If the input string is longer than 'length', remove "
                                    "characters from the left-side\"; the spec's own case rpad('abcdef', 4, ' ') = "
                                    "'abcd' removes them from the right, as every engine does")]))


def _center(call, row):
    s, n, ch = row
    if len(ch) != 1:
        return _anything("a padding argument that is not one character")
    need = n - len(s)
    if need <= 0:
        return Value(s)
    left = need - need // 2 if opt(call, "padding", "RIGHT") == "LEFT" else need // 2
    return _fits(call, ch * left + s + ch * (need - left))


def _center_rows(call, rng, n):
    ts = call.value_types
    rows = []
    for s in _fit(ts[0], TEXTS):
        for k in [0, 1, 4, 5, 6, 7, 10, 11, 30, -1]:
            rows.append((s, k, rng.choice(_fit(ts[2], [" ", "*", "😀", "*", "é"]))))
    rows += [(None, 4, " "), ("abc", None, " "), ("abc", 5, None)]
    if not call.options:
        rows += [("abc", 7, ""), ("abc", 8, "xy")]
    return rows


register(Spec(S, "center", _center, rows=_center_rows, accept=_accept))


def _repeat(call, row):
    s, k = row
    if k < 0:
        return _anything("a negative count")
    if s == "":
        return Value("")
    if len(s) * k >= 2 ** 31:
        return Error(None, "a string of more than 2^31 characters")
    return _fits(call, s * k)


def _repeat_rows(call, rng, n):
    """Every text with small counts; counts beyond i32 with '' (still ''), and with text only negative: DuckDB and
    DataFusion run in this process and would build the 2 GiB string a huge count asks for (ours refuses it before
    allocating, StringOptionsSuite)."""
    t = call.value_types[0]
    rows = [(s, k) for s in _fit(t, [None] + TEXTS) for k in [None, 0, 1, 2, 3, 10, -1, -100]]
    rows += [(s, k) for s in _fit(t, [""]) for k in [2 ** 31, 2 ** 63 - 1, -2 ** 63]]
    rows += [(s, k) for s in _fit(t, ["a", "ab" * 15]) for k in [-2 ** 63]]
    return rows


register(Spec(S, "repeat", _repeat, accept=_accept, rows=_repeat_rows,
              duckdb=lambda c: "repeat({0}, {1})", datafusion=lambda c: "repeat({0}, {1})"))

register(Spec(S, "reverse", lambda c, r: Value(r[0][::-1]),
              edges=lambda c, i, e: _text_edges(c, i, e, ["a\u0301b", "😀😁", "ab\u200dc"]),
              duckdb=lambda c: "reverse({0})", datafusion=lambda c: "reverse({0})",
              engine_notes=[EngineNote("duckdb", lambda c, r, e, g: any("\u0300" <= ch <= "\u036f" or ch == "\u200d"
                                                                        for ch in r[0] or ""),
                                       "\"Returns the string in reverse order\" (of characters, code points, as "
                                       "char_length counts them); DuckDB reverses grapheme clusters, keeping a "
                                       "combining mark after its base")]))


def _replace_slice(call, row):
    s, start, length, rep = row
    if start <= 0 or start > len(s) or length < 0:
        return NULL
    return _fits(call, s[:start - 1] + rep + s[start - 1 + length:])


def _replace_slice_rows(call, rng, n):
    ts = call.value_types
    rows = []
    huge = (2 ** 31, 2 ** 63 - 1, -2 ** 63)
    for k, s in enumerate(_fit(ts[0], ["", "a", "abcdef", "😀a😀b", "e\u0301x"])):
        for st in [1, 2, 3, 6, 7, 0, -1] + list(huge):
            for ln in [0, 1, 2, 10, -1, 2 ** 31, 2 ** 63 - 1]:
                # beyond i32 (each such row fails a plan in ours): with two texts only
                if (st in huge or ln in huge) and k not in (0, 2):
                    continue
                rows.append((s, st, ln, rng.choice(_fit(ts[3], ["X", "", "😀😀", "yz"]))))
    rows += [(None, 1, 1, "X"), ("abc", None, 1, "X"), ("abc", 1, None, "X"), ("abc", 1, 1, None)]
    return rows


register(Spec(S, "replace_slice", _replace_slice, rows=_replace_slice_rows, accept=_accept,
              datafusion=lambda c: "CASE WHEN {1} < 1 OR {1} > character_length({0}) OR {2} < 0 THEN NULL "
                                   "ELSE overlay({0} placing {3} from {1} for {2}) END"))


# ---- lower, upper, swapcase, capitalize, title, initcap ----------------------------------------------------------
CASE_EXTRA = ["ǆ", "ẞ", "ı", "ﬁx", "ΣΑΣ σας", "ŉ", "ǰ", "ǅungla", "hello world", "the cat and a dog",
              "A tale of the city", "x\ty\nz", "a.b c-d", "1st place", "ǆx ßa", "aBC déF", "e\u0301te", "ÀÉÎõü"]


def _ascii(s: str, f) -> str:
    return "".join(f(c) if c.isascii() and c.isalpha() else c for c in s)


def _char_set(call) -> str:
    # No default in the YAML: the session's behaviour, every letter (UTF8).
    return opt(call, "char_set", "UTF8")


def _case_spec(name, utf8, ascii_only, alternatives=(), duck=None, df=None, notes=()):
    def model(call, row):
        (s,) = row
        return _fits(call, ascii_only(s) if _char_set(call) == "ASCII_ONLY" else utf8(s))

    def sql(fn):
        return (lambda c: fn if _char_set(c) == "UTF8" else None) if fn else None
    register(Spec(S, name, model, accept=_accept, edges=lambda c, i, e: _text_edges(c, i, e, CASE_EXTRA),
                  duckdb=sql(duck), datafusion=sql(df), engine_notes=list(notes),
                  alternatives=[Reading(n, lambda c, r, f=f: _fits(c, f(r[0])) if _char_set(c) == "UTF8"
                                        else model(c, r), why) for n, f, why in alternatives]))


SIMPLE_WHY = ("the YAML says only \"utf8_unicode_ci collations\" (a collation, which defines no case mapping); "
              "Unicode's full case mappings (ß → SS, İ → i + U+0307) are the model, the simple one-to-one "
              "mappings of UnicodeData.txt (Java's Character methods, which ours use) the other reading")


def _simple_swap(c):
    if c.isupper() or c.istitle():
        return _simple_lower(c)
    if c.islower():
        return _simple_upper(c)
    return c


def _swapcase(s: str) -> str:
    # Full mappings, Greek final sigma in context (Python's swapcase); a titlecase letter (ǅ) is
    # neither lower nor upper case and stays.
    return s.swapcase()


def _capitalize(s: str, first) -> str:
    return first(s[0]) + s[1:] if s else s


def _words(s: str, titled, rest, articles=False, separators=None):
    """Each word's first character through ``titled``, the rest through ``rest``; words are
    runs of characters that are not white space (or not in ``separators``)."""
    sep = (lambda c: c in separators) if separators is not None else str.isspace
    out, word = [], []

    def flush():
        if word:
            w = "".join(word)
            if articles and w.lower() in ("a", "an", "the"):
                out.append(w)
            else:
                out.append(titled(w[0]) + rest(w[1:]))
            word.clear()
    for c in s:
        if sep(c):
            flush()
            out.append(c)
        else:
            word.append(c)
    flush()
    return "".join(out)


def _full_lower_rest(w: str) -> str:
    return w.lower()


def _ascii_title(c):
    return c.upper() if "a" <= c <= "z" else c


_case_spec("lower", str.lower, lambda s: _ascii(s, str.lower),
           [("simple (one-to-one) case mappings", lambda s: "".join(_simple_lower(c) for c in s), SIMPLE_WHY)],
           duck="lower({0})", df="lower({0})")
_case_spec("upper", str.upper, lambda s: _ascii(s, str.upper),
           [("simple (one-to-one) case mappings", lambda s: "".join(_simple_upper(c) for c in s), SIMPLE_WHY)],
           duck="upper({0})", df="upper({0})",
           notes=[EngineNote("duckdb", lambda c, r, e, g: "ß" in (r[0] or ""),
                             "\"Transform the string to upper case characters\" (ß's upper case is SS, Unicode's "
                             "SpecialCasing; it has no one-character upper case); DuckDB writes ẞ (U+1E9E)")])
_case_spec("swapcase", _swapcase, lambda s: _ascii(s, str.swapcase),
           [("simple (one-to-one) case mappings, titlecase letters lower-cased",
             lambda s: "".join(_simple_swap(c) for c in s),
             SIMPLE_WHY + "; the YAML swaps lowercase and uppercase characters and says nothing of titlecase ones "
                          "(ǅ), which the model leaves")])
_case_spec("capitalize", lambda s: _capitalize(s, str.title), lambda s: _capitalize(s, _ascii_title),
           [("the first character upper-cased by its simple mapping", lambda s: _capitalize(s, _simple_upper),
             "\"Capitalize the first character\": Unicode's capitalization is the titlecase mapping (ǆ → ǅ, "
             "ß → Ss), the model; upper-casing it one to one (Java's Character.toUpperCase, which ours use) is "
             "the other reading"),
            ("the first character upper-cased (full mapping)", lambda s: _capitalize(s, str.upper),
             "as above: the full uppercase mapping of the first character (ß → SS, ǆ → Ǆ)")])
_case_spec("title", lambda s: _words(s, str.title, lambda w: w, articles=True),
           lambda s: _words(s, _ascii_title, lambda w: w, articles=True),
           [("the rest of each word lower-cased", lambda s: _words(s, str.title, str.lower, articles=True),
             "\"Converts the input string into titlecase. Capitalize the first character of each word\": the "
             "model changes only the first characters (initcap's description adds 'and lowercases the rest', "
             "title's does not); titlecase as a style lower-cases the rest")])
_case_spec("initcap", lambda s: _words(s, str.title, _full_lower_rest),
           lambda s: _words(s, _ascii_title, lambda w: _ascii(w, str.lower)),
           [("words are separated by spaces only", lambda s: _words(s, str.title, _full_lower_rest, separators=" "),
             "the YAML does not say what separates words: the model takes white space; Spark's initcap only the "
             "space character"),
            ("words are runs of letters and digits", lambda s: _words(
                s, str.upper, _full_lower_rest, separators=set(c for c in s if not c.isalnum())),
             "the YAML does not say what separates words (DataFusion's initcap: any character that is not a "
             "letter or digit, the first upper-cased)")],
           df="initcap({0})",
           notes=[EngineNote("datafusion", lambda c, r, e, g: "Σ" in (r[0] or ""),
                             "\"lowercases the rest\" (Unicode's lowercase mapping, in which a capital sigma "
                             "ending a word becomes ς); DataFusion's initcap lower-cases each character alone (σ)")])


# ---- char_length, bit_length, octet_length ------------------------------------------------------------------------
register(
    Spec(S, "char_length", lambda c, r: Value(len(r[0])),
         edges=lambda c, i, e: _text_edges(c, i, e, ["😄", "à", "   456"]),
         duckdb=lambda c: "length({0})", datafusion=lambda c: "char_length({0})"),
    Spec(S, "octet_length", lambda c, r: Value(len(r[0].encode("utf-8"))),
         edges=lambda c, i, e: _text_edges(c, i, e, ["😄", "à"]),
         duckdb=lambda c: "strlen({0})", datafusion=lambda c: "octet_length({0})"),
    Spec(S, "bit_length", lambda c, r: Value(8 * len(r[0].encode("utf-8"))),
         edges=lambda c, i, e: _text_edges(c, i, e, ["😄", "à"]),
         duckdb=lambda c: "bit_length({0})", datafusion=lambda c: "bit_length({0})"))


# ---- ltrim, rtrim, trim ------------------------------------------------------------------------------------------
TRIM_INPUTS = ["", " ", "abc", "   abc   ", "aaaaabcccccaaa", "abcabcdef", "xxaxx", "😀a😀", "e\u0301e\u0301",
               "\tx\t", "ßaß"]
TRIM_CHARS = ["", " ", "a", "abc", "x", "😀", "\u0301", "ß", " \t", "ca"]

for _name, _fn, _duck, _df in (("ltrim", str.lstrip, "ltrim", "ltrim"), ("rtrim", str.rstrip, "rtrim", "rtrim"),
                               ("trim", str.strip, "trim", "btrim")):
    register(Spec(S, _name, (lambda f: lambda c, r: Value(f(r[0], r[1])))(_fn),
                  edges=lambda c, i, e: _fit(c.value_types[i], [None] + (TRIM_INPUTS if i == 0 else TRIM_CHARS)),
                  duckdb=(lambda f: lambda c: f"{f}({{0}}, {{1}})")(_duck),
                  datafusion=(lambda f: lambda c: f"{f}({{0}}, {{1}})")(_df)))


# ---- string_agg ------------------------------------------------------------------------------------------------------
AGG_SEPARATORS = [",", "", " | ", "😀", None]


def _agg_separator(call):
    return next(a.value for a in call.args if a.literal)


def _string_agg(call, rows):
    sep = _agg_separator(call)
    vals = [r[0] for r in rows if r[0] is not None]
    if sep is None or not vals:
        return NULL
    return Value(sep.join(vals))


def _joined_somehow(got: str, vals: list[str], sep: str) -> bool:
    """Whether ``got`` is the values in some order joined by ``sep`` (no sort fields: any order)."""
    if len(got) != sum(map(len, vals)) + len(sep) * (len(vals) - 1):
        return False
    counts = {}
    for v in vals:
        counts[v] = counts.get(v, 0) + 1
    budget = [200_000]

    def go(pos, left):
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if left == 0:
            return pos == len(got)
        if pos and not got.startswith(sep, pos):
            return False
        at = pos + (len(sep) if pos else 0)
        for v in list(counts):
            if counts[v] and got.startswith(v, at):
                counts[v] -= 1
                ok = go(at + len(v), left - 1)
                counts[v] += 1
                if ok:
                    return True
        return False
    return go(0, len(vals))


def _agg_accept(call, rows, exp, got) -> bool:
    if not (isinstance(exp, Value) and isinstance(got, Value) and isinstance(got.v, str)):
        return False
    vals = [r[0] for r in rows if r[0] is not None]
    return _joined_somehow(got.v, vals, _agg_separator(call))


def _agg_variants(call, full):
    out = []
    for sep in AGG_SEPARATORS if full else AGG_SEPARATORS[:2] + [None]:
        args = list(call.args)
        args[1] = Arg(type=args[1].type, literal=True, value=sep)
        out.append(dataclasses.replace(call, args=args))
    return out


def _agg_sql(call):
    sep = _agg_separator(call)
    if sep is None:
        return None
    return "string_agg({0}, '" + sep.replace("'", "''") + "')"


register(Spec(S, "string_agg", _string_agg, kind="aggregate", variants=_agg_variants, accept=_agg_accept,
              duckdb=_agg_sql, datafusion=_agg_sql))
