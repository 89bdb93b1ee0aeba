"""functions_datetime: extract, extract_boolean, date-time arithmetic with intervals, the
comparisons of date-time types, time zone conversions, strftime / strptime, round_temporal /
round_calendar and the min / max aggregates.

Values (stypes): dates are days since 1970-01-01, times microseconds of the day, timestamps
microseconds since the epoch: a precision_timestamp is a wall clock (no zone), a
precision_timestamp_tz an instant (UTC). The models work on Python's proleptic Gregorian
datetime and the IANA database of ``zoneinfo``.

Time zones are literal arguments (Arg.literal): each call names one zone of ``ZONES`` (a few in
CI), and, in the full run, an invalid name ("an error is thrown"), a NULL zone, a fixed UTC
offset (no IANA name) and the zone as a column. Timestamp edges add each zone's daylight-saving
transitions (the instants around them; wall clocks in the gap and in the overlap; instants a
month and a year before those wall clocks, for month arithmetic).

Substrait's type classes give dates and timestamps the range [1000-01-01 .. 9999-12-31]
("operating on values outside the specified range is unspecified behavior"): an input or a
result outside it accepts any value, NULL or error (never a foreign error).
"""

import calendar
import contextlib
import dataclasses
import datetime as dt
import functools
import itertools
import re

import values as values_mod
from outcomes import NULL, Error, Undefined, Value
from plans import Arg, Call
from spec import EngineNote, Reading, Spec, register
from stypes import SType

D = "functions_datetime"
DAY_US = 86_400_000_000
EPOCH = dt.datetime(1970, 1, 1)
EPOCH_DATE = dt.date(1970, 1, 1)
UTC = dt.UTC
RANGE = "outside the type class range [1000-01-01 .. 9999-12-31]"
LO_DAYS = (dt.date(1000, 1, 1) - EPOCH_DATE).days
HI_DAYS = (dt.date(9999, 12, 31) - EPOCH_DATE).days
LO_US = LO_DAYS * DAY_US
HI_US = (HI_DAYS + 1) * DAY_US - 1
IDAY_MAX = 3_650_000 * DAY_US        # interval_day: [-3,650,000 .. 3,650,000] days
IYEAR_MAX = 120_000                  # interval_year: [-120,000 .. 120,000] months

ZONES = ("UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Marquesas",
         "Etc/GMT+1", "Europe/Dublin")
ZONES_CI = ("Europe/Berlin", "Australia/Lord_Howe")
INVALID_ZONE = "Mars/Olympus_Mons"
OFFSET_ZONE = "+05:30"


# ---- time zones ----------------------------------------------------------------------------------------
@functools.cache
def zone_info(name: str | None, lenient: bool = False):
    """The IANA zone ``name``; None when it is no IANA name (an offset only when ``lenient``)."""
    from zoneinfo import ZoneInfo
    if name is None:
        return None
    m = re.fullmatch(r"([+-])(\d\d):(\d\d)", name)
    if m:
        if not lenient:
            return None
        sign = 1 if m.group(1) == "+" else -1
        return dt.timezone(sign * dt.timedelta(hours=int(m.group(2)), minutes=int(m.group(3))))
    try:
        return ZoneInfo(name)
    except Exception:  # noqa: BLE001 - no such zone
        return None


def naive(us: int) -> dt.datetime:
    return EPOCH + dt.timedelta(microseconds=us)


def naive_us(d: dt.datetime) -> int:
    return (d - EPOCH) // dt.timedelta(microseconds=1)


def to_local(us: int, tz) -> dt.datetime:
    """The wall clock of instant ``us`` in ``tz`` (naive)."""
    aware = dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=us)
    return aware.astimezone(tz).replace(tzinfo=None)


def offset_us(us: int, tz) -> int:
    aware = dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=us)
    return aware.astimezone(tz).utcoffset() // dt.timedelta(microseconds=1)


def from_local(d: dt.datetime, tz, fold: int = 0) -> int:
    """The instant of wall clock ``d`` in ``tz``. A wall clock in a gap is read with the offset
    before the transition (moved forward by the gap), one in an overlap with the earlier offset
    (``fold`` 1: the later ones)."""
    off = d.replace(tzinfo=tz, fold=fold).utcoffset()
    return naive_us(d) - off // dt.timedelta(microseconds=1)


def in_gap(d: dt.datetime, tz) -> bool:
    """Whether wall clock ``d`` does not exist in ``tz`` (a DST gap)."""
    try:
        return to_local(from_local(d, tz, 0), tz) != d
    except OverflowError:
        return False


def from_local_keeping(d: dt.datetime, tz, offset: int) -> int:
    """The instant of wall clock ``d``, keeping ``offset`` (µs) where the wall clock has it (an
    overlap); the earlier offset otherwise, a gap's wall clock moved forward by the gap."""
    for fold in (0, 1):
        t = from_local(d, tz, fold)
        if naive_us(d) - t == offset and to_local(t, tz) == d:
            return t
    return from_local(d, tz, 0)


def from_local_standard(d: dt.datetime, tz) -> int:
    """A gap's wall clock moved forward, an overlap's read with the later (standard) offset: the
    instant whose offset is the smaller of the candidates (DuckDB's ICU)."""
    a, b = from_local(d, tz, 0), from_local(d, tz, 1)
    return max(a, b)


@functools.cache
def transitions(name: str, years=(2023, 2024)) -> list[tuple]:
    """(instant in µs, offset before, offset after) of the zone's offset changes in ``years``."""
    tz = zone_info(name)
    out = []
    if tz is None:
        return out

    def off(sec):
        return offset_us(sec * 1_000_000, tz)
    for y in years:
        start = int((dt.datetime(y, 1, 1) - EPOCH).total_seconds())
        end = int((dt.datetime(y + 1, 1, 1) - EPOCH).total_seconds())
        t = start
        while t < end:
            nxt = min(t + 3600, end)
            if off(t) != off(nxt):
                lo, hi = t, nxt
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if off(mid) == off(t):
                        lo = mid
                    else:
                        hi = mid
                out.append((hi * 1_000_000, off(lo), off(hi)))
            t = nxt
    return out


def add_months(d, months: int):
    """``d`` (date or datetime) moved by whole months, the day clamped to the month's last day."""
    m = d.month - 1 + months
    y, m = d.year + m // 12, m % 12 + 1
    if not 1 <= y <= 9999:
        raise OverflowError
    return d.replace(year=y, month=m, day=min(d.day, calendar.monthrange(y, m)[1]))


def add_months_carry(d, months: int):
    """Months added with days beyond the month's end carried into the next month (mktime)."""
    m = d.month - 1 + months
    y, m = d.year + m // 12, m % 12 + 1
    if not 1 <= y <= 9999:
        raise OverflowError
    last = calendar.monthrange(y, m)[1]
    return d.replace(year=y, month=m, day=min(d.day, last)) + dt.timedelta(days=max(0, d.day - last))


def days_date(days: int) -> dt.date:
    return EPOCH_DATE + dt.timedelta(days=days)


def ts_ok(us) -> bool:
    return LO_US <= us <= HI_US


def date_ok(days) -> bool:
    return LO_DAYS <= days <= HI_DAYS


def out_of_range(why: str = RANGE) -> Undefined:
    return Undefined(why)


def _range_accept(call, row, exp, got) -> bool:
    """An input or result outside the type classes' range: any value, NULL or error."""
    return isinstance(exp, Undefined) and exp.why.startswith("outside") and isinstance(got, Error)


# ---- calls: literal arguments (zones, formats, precisions) ----------------------------------------------------
def _roles(call: Call) -> list[str | None]:
    """The role of each argument: 'tz', 'format', 'precision', 'text' or None."""
    roles = []
    strings = 0
    for a in call.args:
        if a.type is None:
            roles.append(None)
            continue
        k = a.type.kind
        if k == "string":
            strings += 1
            if call.name.startswith("strptime"):
                roles.append({1: "text", 2: "format", 3: "tz"}[strings])
            elif call.name == "strftime":
                roles.append({1: "format", 2: "tz"}[strings])
            else:
                roles.append("tz")
        elif k == "i8" and call.name in ("assume_timezone", "strptime_time", "strptime_timestamp"):
            roles.append("precision")
        else:
            roles.append(None)
    return roles


def literal_of(call: Call, role: str, default=None):
    for a, r in zip(call.args, _roles(call), strict=True):
        if r == role and a.literal:
            return a.value
    return default


def has_role(call: Call, role: str) -> bool:
    return role in _roles(call)


def _zone_choices(call: Call, full: bool):
    unmapped = call.name.startswith("round_") or call.name == "strptime_time"
    if unmapped:
        return list(ZONES_CI[:1]) + (["America/New_York"] if full else [])
    if call.name == "strptime_timestamp":
        return list(ZONES_CI[:1]) + (["UTC", "America/New_York", INVALID_ZONE, None, OFFSET_ZONE] if full else [])
    base = list(ZONES if full else ZONES_CI)
    return base + ([INVALID_ZONE, None, OFFSET_ZONE] if full else [])


PRECISIONS = (0, 3, 6, 9)


def _variants(call: Call, full: bool) -> list[Call]:
    roles = _roles(call)
    choice_lists = []
    for r in roles:
        if r == "tz":
            choice_lists.append(_zone_choices(call, full))
        elif r == "format":
            choice_lists.append(formats_for(call, full))
        elif r == "precision":
            choice_lists.append(list(PRECISIONS if full or call.name != "assume_timezone" else (6,)))
        else:
            choice_lists.append([Ellipsis])
    out = []
    fmt_i = roles.index("format") if "format" in roles else None
    for combo in itertools.product(*choice_lists):
        if call.name == "strptime_timestamp" and "precision" in roles:
            # precisions other than microseconds matter with a fraction (%f) only, and once for whole seconds
            p, f = combo[roles.index("precision")], combo[fmt_i]
            tz = combo[roles.index("tz")] if "tz" in roles else "UTC"
            if p != 6 and "%f" not in f and not (tz in ("UTC", ZONES_CI[0]) and f == formats_for(call, full)[0]):
                continue
            if tz not in (ZONES if full else ZONES_CI)[:4] + (INVALID_ZONE, None, OFFSET_ZONE, "UTC") and p != 6:
                continue
        args = [Arg(type=a.type, literal=True, value=v) if v is not Ellipsis else a
                for a, v in zip(call.args, combo, strict=True)]
        c = dataclasses.replace(call, args=args)
        p = literal_of(c, "precision")
        if p is not None:
            kind = "precision_time" if call.name == "strptime_time" else "precision_timestamp_tz"
            c.out = SType(kind, p)
        out.append(c)
    # the zone as a column (no literal): once per signature (our reader takes literal zones only)
    if "tz" in roles and not call.name.startswith("round_") and (call.name, call.signature()) not in _COLUMN_ZONE_SEEN:
        _COLUMN_ZONE_SEEN.add((call.name, call.signature()))
        args = list(out[0].args)
        args[roles.index("tz")] = Arg(type=SType("string"))
        out.append(dataclasses.replace(out[0], args=args))
    return out


_COLUMN_ZONE_SEEN: set = set()


def _value_roles(call: Call) -> list[str | None]:
    return [r for a, r in zip(call.args, _roles(call), strict=True) if a.type is not None and not a.literal]


def _tz_arg(call: Call, row=None):
    """(present, zone name) of the call: a literal zone, or the zone column's value in ``row``."""
    roles = _roles(call)
    if "tz" not in roles:
        return False, None
    a = call.args[roles.index("tz")]
    if a.literal:
        return True, a.value
    vroles = _value_roles(call)
    return True, row[vroles.index("tz")] if row is not None else None


# ---- rows ------------------------------------------------------------------------------------------------------
def _zone_edges(call: Call, kind: str) -> list[int]:
    """Timestamp edges around the daylight-saving transitions of the call's zone."""
    present, name = _tz_arg(call)
    names = [name] if present and name in ZONES else (["Europe/Berlin", "America/New_York"] if not present else [])
    out = []
    for n in names:
        tz = zone_info(n)
        for t, before, after in transitions(n):
            if kind == "instant":
                out += [t - 1, t, t + 1_800_000_000, t - 1_800_000_000]
                # instants whose wall clock lands in the gap / overlap a month or a year later or earlier
                wall = naive(t + (before + after) // 2)
                for months in (-1, -12, 1, 12):
                    with contextlib.suppress(OverflowError):
                        out.append(from_local(add_months(wall, months), tz))
            else:   # wall clocks in and at the edges of the gap / overlap
                l1, l2 = t + before, t + after
                a, b = min(l1, l2), max(l1, l2)
                out += [a - 1, a, (a + b) // 2, b - 1, b]
    return list(dict.fromkeys(out))


def _edges(call: Call, i: int, edges: list) -> list:
    vroles = _value_roles(call)
    t = call.value_types[i]
    if vroles[i] == "tz":
        return [None] + list(ZONES) + [INVALID_ZONE]
    if t.kind == "precision_timestamp_tz":
        return edges + _zone_edges(call, "instant")
    if t.kind == "precision_timestamp" and has_role(call, "tz"):
        return edges + _zone_edges(call, "wall")
    if t.kind == "precision_timestamp" and call.name in ("add", "subtract"):
        return edges + [values_mod._micros(2024, 1, 31, 12), values_mod._micros(2023, 1, 31), values_mod._micros(2024, 3, 31, 23, 59, 59, 999999)]
    if t.kind == "date" and call.name in ("add", "subtract"):
        return edges + [values_mod._days(2024, 1, 31), values_mod._days(2023, 3, 31), values_mod._days(2023, 5, 31)]
    if t.kind == "date":
        # every weekday of the first and last weeks of a few years (week numbering)
        extra = [values_mod._days(y, 1, d) for y in (2021, 2022, 2026) for d in range(1, 8)]
        extra += [values_mod._days(y, 12, d) for y in (2020, 2024) for d in range(25, 32)]
        return edges + extra
    return edges


def _rows(call: Call, rng, n_random: int) -> list[tuple]:
    types = call.value_types
    present, zone = _tz_arg(call)
    lists = [_edges(call, i, values_mod.edges(t) if t.kind != "string" else [None]) for i, t in enumerate(types)]
    vroles = _value_roles(call)
    for i, r in enumerate(vroles):
        if r == "text":
            lists[i] = text_edges(call)
        if types[i].kind == "i64" and call.name.startswith("round_"):
            lists[i] = [None, 1, 2, 3, 7, 0, -1]
    if call.name.startswith("round_"):
        n_random = min(n_random, 12)
    if present and zone is not None and zone in (INVALID_ZONE, OFFSET_ZONE) and all(
            a.literal for a, r in zip(call.args, _roles(call), strict=True) if r == "tz"):
        # every row fails (or all alike): a few suffice
        return [tuple(l[min(k, len(l) - 1)] for l in lists) for k in (1, 2, 3)]
    if "tz" in vroles:
        # the zone as a column: refused at conversion by a reader taking literal zones only; a few rows
        return [tuple(l[(k * 7 + 1) % len(l)] if r != "tz" else l[k % len(l)]
                      for l, r in zip(lists, vroles, strict=True))
                for k in range(1, 10)]
    if len(types) == 1:
        out = [(v,) for v in lists[0]]
    elif len(types) == 2:
        out = list(itertools.product(*lists))
    else:
        out = [tuple(rng.choice(v) for v in lists) for _ in range(150)]
        out += [tuple(v[k % len(v)] for v in lists) for k in range(max(len(v) for v in lists))]
    for _ in range(n_random):
        row = []
        for i, t in enumerate(types):
            if vroles[i] in ("tz", "text") or (t.kind == "i64" and call.name.startswith("round_")):
                row.append(rng.choice(lists[i]))
            else:
                row.append(_random(t, rng))
        out.append(tuple(row))
    return out


def _random(t: SType, rng):
    """Random values inside the type classes' range (mostly), as values.random_value."""
    if t.kind in ("precision_timestamp", "precision_timestamp_tz") and rng.random() < 0.9:
        return None if rng.random() < 0.1 else rng.randint(LO_US, HI_US)
    if t.kind == "date" and rng.random() < 0.9:
        return None if rng.random() < 0.1 else rng.randint(LO_DAYS, HI_DAYS)
    return values_mod.random_value(t, rng)


# ---- extract -------------------------------------------------------------------------------------------------
INDEXED = {"QUARTER", "MONTH", "DAY", "DAY_OF_YEAR", "MONDAY_DAY_OF_WEEK", "SUNDAY_DAY_OF_WEEK", "MONDAY_WEEK",
           "SUNDAY_WEEK", "ISO_WEEK", "US_WEEK"}


def _first_weekday(year: int, weekday: int) -> dt.date:
    """The first ``weekday`` (Monday 0 .. Sunday 6) of January of ``year``."""
    jan1 = dt.date(year, 1, 1)
    return jan1 + dt.timedelta(days=(weekday - jan1.weekday()) % 7)


def _week_from_first(d: dt.date, weekday: int) -> int:
    """The week of ``d`` counting from the first ``weekday`` of January (1); days before it are in
    the last week of the year before (the only reading that keeps the YAML's range 1-53)."""
    first = _first_weekday(d.year, weekday)
    if d < first:
        first = _first_weekday(d.year - 1, weekday)
    return (d - first).days // 7 + 1


def _c_week(d: dt.date, weekday: int) -> int:
    """C's %W (weekday 0) / %U (weekday 6): days before the first Monday / Sunday are week 0."""
    first = _first_weekday(d.year, weekday)
    return 0 if d < first else (d - first).days // 7 + 1


def _us_wednesday(d: dt.date) -> dt.date:
    """The Wednesday of ``d``'s Sunday-to-Saturday week."""
    sunday_based = (d.weekday() + 1) % 7
    return d - dt.timedelta(days=sunday_based) + dt.timedelta(days=3)


@dataclasses.dataclass(frozen=True)
class ExtractReading:
    weeks_c: bool = False          # MONDAY_WEEK / SUNDAY_WEEK as C's %W / %U
    unix_trunc: bool = False       # UNIX_TIME truncated toward zero
    lenient_zone: bool = False     # fixed offsets accepted as zones


def _date_part(part: str, d: dt.date, r: ExtractReading) -> int:
    if part == "YEAR":
        return d.year
    if part == "ISO_YEAR":
        return d.isocalendar()[0]
    if part == "US_YEAR":
        return _us_wednesday(d).year
    if part == "QUARTER":
        return (d.month - 1) // 3 + 1
    if part == "MONTH":
        return d.month
    if part == "DAY":
        return d.day
    if part == "DAY_OF_YEAR":
        return d.timetuple().tm_yday
    if part == "MONDAY_DAY_OF_WEEK":
        return d.isoweekday()
    if part == "SUNDAY_DAY_OF_WEEK":
        return d.isoweekday() % 7 + 1
    if part == "MONDAY_WEEK":
        return _c_week(d, 0) if r.weeks_c else _week_from_first(d, 0)
    if part == "SUNDAY_WEEK":
        return _c_week(d, 6) if r.weeks_c else _week_from_first(d, 6)
    if part == "ISO_WEEK":
        return d.isocalendar()[1]
    if part == "US_WEEK":
        return (_us_wednesday(d).timetuple().tm_yday - 1) // 7 + 1
    raise KeyError(part)


def _clock_part(part: str, micros_of_day: int) -> int:
    sec, us = divmod(micros_of_day, 1_000_000)
    return {"HOUR": sec // 3600, "MINUTE": sec // 60 % 60, "SECOND": sec % 60, "MILLISECOND": us // 1000,
            "MICROSECOND": us % 1000, "NANOSECOND": 0, "PICOSECOND": 0, "SUBSECOND": us}[part]


def _enums(call: Call) -> list[str]:
    return [a.enum for a in call.args if a.enum is not None]


def _extract(r: ExtractReading = ExtractReading()):
    def model(call, row):
        enums = _enums(call)
        part = enums[0]
        zero = len(enums) > 1 and enums[1] == "ZERO"
        x = row[0]
        kind = call.value_types[0].kind
        present, zone_name = _tz_arg(call, row)
        if present and zone_name is None:
            return NULL
        tz = zone_info(zone_name, r.lenient_zone) if present else None
        if present and tz is None:
            return Error(None, "invalid time zone")
        if kind == "precision_time":
            return Value(_clock_part(part, x))
        if kind == "date":
            if not date_ok(x):
                return out_of_range()
            d = days_date(x)
            if part == "UNIX_TIME":
                return Value(x * 86400)
            v = _date_part(part, d, r)
            return Value(v - 1 if zero and part in INDEXED else v)
        if not ts_ok(x):
            return out_of_range()
        if part == "UNIX_TIME":
            # the instant's seconds; a wall clock without zone read as UTC
            return Value(x // 1_000_000 if not r.unix_trunc else -(-x // 1_000_000) if x < 0 else x // 1_000_000)
        if part == "TIMEZONE_OFFSET":
            try:
                return Value(offset_us(x, tz) // 1_000_000)
            except OverflowError:
                return out_of_range()
        try:
            local = to_local(x, tz) if tz is not None else naive(x)
        except OverflowError:
            return out_of_range()
        if not (LO_US <= naive_us(local) <= HI_US):
            return out_of_range()
        if part in ("HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND", "PICOSECOND", "SUBSECOND"):
            return Value(_clock_part(part, naive_us(local) % DAY_US))
        try:
            v = _date_part(part, local.date(), r)
        except (OverflowError, ValueError):
            return out_of_range()
        return Value(v - 1 if zero and part in INDEXED else v)
    return model


def _local_sql(engine: str, call: Call) -> str | None:
    """The wall clock of argument {0} in SQL (None: the engine cannot say it)."""
    kind = call.value_types[0].kind
    present, zone = _tz_arg(call)
    if present:
        if zone not in ZONES or not call.args[_roles(call).index("tz")].literal:
            return None
        return f"timezone('{zone}', {{0}})" if engine == "duckdb" else f"({{0}} AT TIME ZONE '{zone}')"
    return "{0}" if kind in ("precision_timestamp", "date", "precision_time") else None


def _extract_sql(engine: str):
    duck = {"YEAR": "year({l})", "ISO_YEAR": "isoyear({l})", "QUARTER": "quarter({l})", "MONTH": "month({l})",
            "DAY": "day({l})", "DAY_OF_YEAR": "dayofyear({l})", "MONDAY_DAY_OF_WEEK": "isodow({l})",
            "SUNDAY_DAY_OF_WEEK": "(dayofweek({l}) + 1)", "ISO_WEEK": "week({l})",
            "MONDAY_WEEK": "CAST(strftime({l}, '%W') AS BIGINT)", "SUNDAY_WEEK": "CAST(strftime({l}, '%U') AS BIGINT)",
            "HOUR": "hour({l})", "MINUTE": "minute({l})", "SECOND": "second({l})",
            "MILLISECOND": "(millisecond({l}) % 1000)", "MICROSECOND": "(microsecond({l}) % 1000)",
            "SUBSECOND": "(microsecond({l}) % 1000000)",
            # whole seconds, down: in integers (a double loses the last microsecond of 9999)
            "UNIX_TIME": "((epoch_us({0}) - ((epoch_us({0}) % 1000000) + 1000000) % 1000000) // 1000000)"}
    df = {"YEAR": "date_part('year', {l})", "ISO_YEAR": "date_part('isoyear', {l})",
          "QUARTER": "date_part('quarter', {l})", "MONTH": "date_part('month', {l})", "DAY": "date_part('day', {l})",
          "DAY_OF_YEAR": "date_part('doy', {l})", "MONDAY_DAY_OF_WEEK": "((date_part('dow', {l}) + 6) % 7 + 1)",
          "SUNDAY_DAY_OF_WEEK": "(date_part('dow', {l}) + 1)", "ISO_WEEK": "date_part('week', {l})",
          "HOUR": "date_part('hour', {l})", "MINUTE": "date_part('minute', {l})",
          "SECOND": "date_part('second', {l})", "MILLISECOND": "(date_part('millisecond', {l}) % 1000)",
          "MICROSECOND": "(date_part('microsecond', {l}) % 1000)",
          "SUBSECOND": "(date_part('microsecond', {l}) % 1000000)",
          "UNIX_TIME": "((arrow_cast({0}, 'Int64') - ((arrow_cast({0}, 'Int64') % 1000000) + 1000000) % 1000000) "
                       "/ 1000000)"}
    table = duck if engine == "duckdb" else df

    def template(call):
        enums = _enums(call)
        part = enums[0]
        local = _local_sql(engine, call)
        if local is None or part not in table:
            return None
        if part == "UNIX_TIME" and call.value_types[0].kind == "date":
            expr = "(epoch_us(CAST({0} AS TIMESTAMP)) // 1000000)" if engine == "duckdb" \
                else "(arrow_cast({0}, 'Int32') * 86400)"
            return expr
        expr = table[part].replace("{l}", local)
        if len(enums) > 1 and enums[1] == "ZERO":
            expr = f"({expr} - 1)"
        return expr
    return template


def _engine_week_note(call, row, exp, got) -> bool:
    return _enums(call)[0] in ("MONDAY_WEEK", "SUNDAY_WEEK")


def _duckdb_second_fraction(call, row, exp, got) -> bool:
    return False


EXTRACT_READINGS = [
    Reading("MONDAY_WEEK / SUNDAY_WEEK as C's %W / %U: the days before the first Monday (Sunday) are week 0 "
            "(ONE: %W itself, ZERO: one less)",
            lambda c, r: _extract_c_weeks(c, r),
            "'First week starts on first Monday of January' leaves the days before it unnumbered; the model puts "
            "them in the last week of the year before, the only way to keep the YAML's ranges (1-53 / 0-52); "
            "C's strftime %W / %U numbers them 0"),
    Reading("UNIX_TIME truncated toward zero before 1970", _extract(ExtractReading(unix_trunc=True)),
            "'number of seconds that have elapsed since 1970-01-01' of a time with a fraction: the model takes "
            "whole seconds down (floor), consistent with SECOND; truncation gives one more before 1970"),
    Reading("fixed UTC offsets (+05:30) accepted as time zones", _extract(ExtractReading(lenient_zone=True)),
            "'Timezone strings must be specified as defined by IANA timezone database ... If timezone is invalid "
            "an error is thrown': an offset is no IANA name (an error in the model); Java's ZoneId and Arrow "
            "accept it"),
]


def _extract_c_weeks(call, row):
    out = _extract(ExtractReading(weeks_c=True))(call, row)
    enums = _enums(call)
    if enums[0] in ("MONDAY_WEEK", "SUNDAY_WEEK") and isinstance(out, Value) and len(enums) > 1:
        # ONE: %W itself; ZERO: %W - 1 (the model already took one off)
        return Value(out.v + 1) if enums[1] == "ONE" else out
    return out


NS_US = 9_223_372_036_854_775     # microseconds a 64-bit nanosecond count holds (1677-09-21 .. 2262-04-11)


def _df_nanos(call, row, exp, got) -> bool:
    stamps = [v for v, t in zip(row, call.value_types, strict=True)
              if t.kind.startswith("precision_timestamp") and v is not None]
    stamps += [v * DAY_US for v, t in zip(row, call.value_types, strict=True) if t.kind == "date" and v is not None]
    if isinstance(exp, Value) and call.out.kind.startswith("precision_timestamp"):
        stamps.append(exp.v)
    return isinstance(got, Error) and any(abs(v) > NS_US for v in stamps)


DF_NANOS = EngineNote("datafusion", _df_nanos,
                      "precision_timestamp<6> / precision_timestamp_tz<6> hold [1000-01-01 .. 9999-12-31] (type "
                      "classes); DataFusion 55's AT TIME ZONE, to_local_time and to_char work in 64-bit nanoseconds "
                      "and fail outside 1677-09-21 .. 2262-04-11")


Y2038_US = 2_145_916_800_000_000       # 2038-01-01


def _df_2038(call, row, exp, got) -> bool:
    """A zone with daylight saving time and an instant (argument or result) after 2037."""
    present, zone = _tz_arg(call, row)
    if not present or zone not in ZONES or not transitions(zone):
        return False
    stamps = [v for v, t in zip(row, call.value_types, strict=True)
              if t.kind == "precision_timestamp_tz" and v is not None]
    if isinstance(exp, Value) and call.out.kind == "precision_timestamp_tz":
        stamps.append(exp.v)
    return any(v >= Y2038_US for v in stamps)


DF_2038 = EngineNote("datafusion", _df_2038,
                     "Timezone strings ... as defined by IANA timezone database: the zone's rules hold in every year "
                     "(the database's rule for the future); DataFusion 55 (chrono-tz) applies no daylight saving "
                     "time after 2037")


def _extract_engine_notes():
    return [DF_NANOS, DF_2038, 
        EngineNote("duckdb", lambda c, r, e, g: _enums(c)[0] in ("MONDAY_WEEK", "SUNDAY_WEEK"),
                   "MONDAY_WEEK: \"Return the number of the week within the year. First week starts on first Monday "
                   "of January.\" with ONE in 1-53: DuckDB's strftime %W / %U number the days before it 0"),
    ]


register(Spec(D, "extract", _extract(), edges=None, rows=_rows, variants=_variants, accept=_range_accept,
              duckdb=_extract_sql("duckdb"), datafusion=_extract_sql("datafusion"),
              alternatives=EXTRACT_READINGS, engine_notes=_extract_engine_notes()))


# ---- extract_boolean ------------------------------------------------------------------------------------------------
def _standard_offset(local_year: int, tz, years: int = 0) -> int:
    """The zone's standard offset in a year: the smallest offset it takes that year (and in the
    ``years`` before and after it)."""
    offs = set()
    for k in range(-12 * years, 12 + 12 * years):
        year, m = local_year + k // 12, k % 12 + 1
        for day in (1, 15):
            with contextlib.suppress(OverflowError, ValueError):
                offs.add(dt.datetime(year, m, day, 12, tzinfo=tz).utcoffset())
    return min(offs) // dt.timedelta(microseconds=1) if offs else 0


def _extract_boolean(isdst_flag: bool = False, lenient: bool = False, standard_years: int = 0):
    def model(call, row):
        part = _enums(call)[0]
        x = row[0]
        kind = call.value_types[0].kind
        present, zone_name = _tz_arg(call, row)
        if present and zone_name is None:
            return NULL
        tz = zone_info(zone_name, lenient) if present else None
        if present and tz is None:
            return Error(None, "invalid time zone")
        if kind == "date":
            if not date_ok(x):
                return out_of_range()
            return Value(calendar.isleap(days_date(x).year))
        if not ts_ok(x):
            return out_of_range()
        try:
            local = to_local(x, tz) if tz is not None else naive(x)
        except OverflowError:
            return out_of_range()
        if part == "IS_LEAP_YEAR":
            return Value(calendar.isleap(local.year))
        # IS_DST: daylight saving time observed: the clocks ahead of the zone's standard time
        aware = dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=x)
        if isdst_flag:
            return Value(bool(aware.astimezone(tz).dst()))
        return Value(offset_us(x, tz) > _standard_offset(local.year, tz, standard_years))
    return model


def _leap_sql(engine):
    def template(call):
        part = _enums(call)[0]
        if part != "IS_LEAP_YEAR":
            return None
        local = _local_sql(engine, call)
        if local is None:
            return None
        y = f"year({local})" if engine == "duckdb" else f"date_part('year', {local})"
        return f"(({y} % 4 = 0 AND {y} % 100 <> 0) OR {y} % 400 = 0)"
    return template


register(Spec(D, "extract_boolean", _extract_boolean(), rows=_rows, variants=_variants, accept=_range_accept,
              duckdb=_leap_sql("duckdb"), datafusion=_leap_sql("datafusion"), engine_notes=[DF_NANOS, DF_2038],
              alternatives=[Reading("IS_DST as the IANA database's isdst flag (Europe/Dublin's negative winter DST "
                                    "is daylight saving)", _extract_boolean(isdst_flag=True),
                                    "'true if DST (Daylight Savings Time) is observed': the model reads it as the "
                                    "clocks set ahead of the zone's standard (smallest) offset; tzdata's main format "
                                    "flags Ireland's winter time (GMT, one hour behind its standard IST) as DST"),
                            Reading("IS_DST as Java's tz rules (tzdata's rearguard format) give it: a year-round "
                                    "offset counts as daylight saving when the years around it are an hour behind",
                                    _extract_boolean(standard_years=1),
                                    "'true if DST (Daylight Savings Time) is observed': Ireland kept Irish Standard "
                                    "Time (UTC+1) all year from 1968 to 1971 by law; the rearguard data Java (and so "
                                    "Spark) reads calls it GMT plus one hour of DST"),
                            Reading("fixed UTC offsets (+05:30) accepted as time zones",
                                    _extract_boolean(lenient=True), "an offset is no IANA name")]))


# ---- add / subtract --------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ShiftReading:
    carry: bool = False           # days beyond the month's end carried over
    fold: int | None = None       # an overlap's wall clock read with the earlier (0) / later (1) offset, not x's
    standard: bool = False        # DuckDB's ICU: the standard offset in an overlap
    lenient_zone: bool = False


def _shift(sign: int, r: ShiftReading = ShiftReading()):
    months_fn = add_months_carry if r.carry else add_months

    def model(call, row):
        x, y = row[0], row[1]
        xk, yk = call.value_types[0].kind, call.value_types[1].kind
        present, zone_name = _tz_arg(call, row)
        if present and zone_name is None:
            return NULL
        tz = zone_info(zone_name, r.lenient_zone) if present else None
        if present and tz is None:
            return Error(None, "invalid time zone")
        y = sign * y
        try:
            if xk == "date":
                if not date_ok(x):
                    return out_of_range()
                if yk == "interval_year":
                    res = (months_fn(days_date(x), y) - EPOCH_DATE).days
                    return Value(res) if date_ok(res) else out_of_range()
                res = x * DAY_US + y
                return Value(res) if ts_ok(res) else out_of_range()
            if not ts_ok(x):
                return out_of_range()
            if yk == "interval_day":
                res = x + y
            elif tz is not None:
                wall = months_fn(to_local(x, tz), y)
                if r.standard:
                    res = from_local_standard(wall, tz)
                elif r.fold is not None:
                    res = from_local(wall, tz, r.fold)
                else:
                    res = from_local_keeping(wall, tz, offset_us(x, tz))
            else:
                res = naive_us(months_fn(naive(x), y))
        except (OverflowError, ValueError):
            return out_of_range()
        return Value(res) if ts_ok(res) else out_of_range()
    return model


def _shift_sql(engine, op):
    def template(call):
        xk, yk = call.value_types[0].kind, call.value_types[1].kind
        present, zone = _tz_arg(call)
        if present:
            if zone not in ZONES:
                return None
            if engine == "duckdb":
                return f"timezone('{zone}', timezone('{zone}', {{0}}) {op} {{1}})"
            return f"(({{0}} AT TIME ZONE '{zone}') {op} {{1}})"
        if xk == "date" and yk == "interval_year":
            return f"CAST({{0}} {op} {{1}} AS DATE)"
        if xk == "date":
            return f"CAST({{0}} AS TIMESTAMP) {op} {{1}}"
        return f"{{0}} {op} {{1}}"
    return template


def _shift_readings(sign):
    why_end = ("the YAML does not say where a month's day beyond the target month's end goes; the model clamps it "
               "to the month's last day (SQL's, Java's), C's mktime carries it into the next month")
    why_fold = ("'add an interval to a date/time type' in a zone's calendar: a wall clock in a DST overlap has two "
                "instants and the YAML picks none; the model keeps x's offset where it can (so adding 0 months is "
                "the identity), the earlier offset otherwise, and moves a gap's wall clock forward by the gap")
    return [Reading("days beyond the month's end carried into the next month", _shift(sign, ShiftReading(carry=True)),
                    why_end),
            Reading("a wall clock in a DST overlap read with the later offset", _shift(sign, ShiftReading(fold=1)),
                    why_fold),
            Reading("a wall clock in a DST overlap read with the earlier offset", _shift(sign, ShiftReading(fold=0)),
                    why_fold),
            Reading("a wall clock in a DST overlap read with the zone's standard offset (ICU)",
                    _shift(sign, ShiftReading(standard=True)), why_fold),
            Reading("fixed UTC offsets (+05:30) accepted as time zones", _shift(sign, ShiftReading(lenient_zone=True)),
                    "an offset is no IANA name")]


def _df_gap(sign):
    def when(call, row, exp, got):
        present, zone = _tz_arg(call, row)
        tz = zone_info(zone) if present else None
        if tz is None or not isinstance(got, Error) or call.value_types[1].kind != "interval_year" or None in row:
            return False
        try:
            wall = add_months(to_local(row[0], tz), sign * row[1])
            return in_gap(wall, tz) or from_local(wall, tz, 0) != from_local(wall, tz, 1)
        except (OverflowError, ValueError):
            return False
    return when


def _shift_notes(sign):
    return [DF_NANOS,
            EngineNote("datafusion", _df_gap(sign),
                       "add: \"Add an interval to a date/time type\" (in the zone's calendar for interval_year): "
                       "DataFusion 55 raises an error where the resulting wall clock falls in a DST gap or overlap"),
            DF_2038]


for _name, _sign, _op in (("add", 1, "+"), ("subtract", -1, "-")):
    register(Spec(D, _name, _shift(_sign), rows=_rows, variants=_variants, accept=_range_accept,
                  duckdb=_shift_sql("duckdb", _op), datafusion=_shift_sql("datafusion", _op),
                  alternatives=_shift_readings(_sign), engine_notes=_shift_notes(_sign)))


# ---- multiply, add_intervals -----------------------------------------------------------------------------------------
def _interval_result(call, v):
    limit = IYEAR_MAX if call.out.kind == "interval_year" else IDAY_MAX
    return Value(v) if -limit <= v <= limit else out_of_range("outside the interval type class range")


def _interval_accept(call, row, exp, got) -> bool:
    return isinstance(exp, Undefined) and isinstance(got, Error)


def _duckdb_nanos_wrap(call, row, exp, got) -> bool:
    return isinstance(exp, Value) and abs(exp.v) * 1000 >= 2 ** 63


def _duckdb_int32_min(call, row, exp, got) -> bool:
    # the interval reaches DuckDB as Arrow (months, days, nanoseconds): its days field is multiplied in 32 bits
    return isinstance(got, Error) and (abs(row[0]) >= 2 ** 31 - 1 or abs((row[1] // DAY_US) * row[0]) >= 2 ** 31
                                       or abs((row[1] % DAY_US) * row[0]) * 1000 >= 2 ** 63)


DUCKDB_INTERVAL_NOTES = [
    EngineNote("duckdb", _duckdb_nanos_wrap,
               "multiply: \"Multiply an interval by an integral number\" (interval_day holds +-3,650,000 days); DuckDB "
               "1.1.3 hands INTERVAL to Arrow in 64-bit nanoseconds: beyond +-106,751 days the value comes back wrapped"),
    EngineNote("duckdb", _duckdb_int32_min,
               "multiply: \"Multiply an interval by an integral number\"; DuckDB 1.1.3 multiplies the INTERVAL's "
               "fields apart (days in 32 bits, the day's rest in 64-bit nanoseconds: a negative interval arrives as "
               "-1 day + a positive rest) and raises an overflow beyond them, and for any factor beyond 32 bits "
               "(a BIGINT factor of 2^31 or more even times a zero interval)"),
]

register(
    Spec(D, "multiply", lambda c, r: _interval_result(c, r[0] * r[1]), accept=_interval_accept,
         engine_notes=DUCKDB_INTERVAL_NOTES,
         duckdb=lambda c: "{0} * {1}" if c.out.kind == "interval_day" else None,
         datafusion=lambda c: None),
    Spec(D, "add_intervals", lambda c, r: _interval_result(c, r[0] + r[1]), accept=_interval_accept,
         duckdb=lambda c: "{0} + {1}", datafusion=lambda c: "{0} + {1}"),
)


# ---- comparisons of date-time types --------------------------------------------------------------------------------------
for _name, _test, _op in (("lt", lambda a, b: a < b, "<"), ("gt", lambda a, b: a > b, ">"),
                          ("lte", lambda a, b: a <= b, "<="), ("gte", lambda a, b: a >= b, ">=")):
    register(Spec(D, _name, (lambda t: lambda c, r: Value(t(r[0], r[1])))(_test),
                  duckdb=(lambda o: lambda c: f"{{0}} {o} {{1}}")(_op),
                  datafusion=(lambda o: lambda c: f"{{0}} {o} {{1}}")(_op)))


# ---- assume_timezone, local_timestamp -----------------------------------------------------------------------------------
def _assume(fold: int = 0, standard: bool = False, lenient: bool = False):
    def model(call, row):
        x = row[0]
        present, zone_name = _tz_arg(call, row)
        if zone_name is None:
            return NULL
        tz = zone_info(zone_name, lenient)
        if tz is None:
            return Error(None, "invalid time zone")
        if call.value_types[0].kind == "date":
            if not date_ok(x):
                return out_of_range()
            wall = naive(x * DAY_US)
        else:
            if not ts_ok(x):
                return out_of_range()
            wall = naive(x)
        try:
            res = from_local_standard(wall, tz) if standard else from_local(wall, tz, fold)
        except OverflowError:
            return out_of_range()
        return Value(res) if ts_ok(res) else out_of_range()
    return model


def _local_timestamp(lenient: bool = False):
    def model(call, row):
        x = row[0]
        present, zone_name = _tz_arg(call, row)
        if zone_name is None:
            return NULL
        tz = zone_info(zone_name, lenient)
        if tz is None:
            return Error(None, "invalid time zone")
        if not ts_ok(x):
            return out_of_range()
        try:
            res = naive_us(to_local(x, tz))
        except OverflowError:
            return out_of_range()
        return Value(res) if ts_ok(res) else out_of_range()
    return model


def _zone_sql(engine, fn):
    def template(call):
        present, zone = _tz_arg(call)
        if zone not in ZONES:
            return None
        return fn(engine, zone, call)
    return template


def _assume_sql(engine, zone, call):
    x = "CAST({0} AS TIMESTAMP)" if call.value_types[0].kind == "date" else "{0}"
    if engine == "duckdb":
        return f"timezone('{zone}', {x})"
    return None


def _local_ts_sql(engine, zone, call):
    if engine == "duckdb":
        return f"timezone('{zone}', {{0}})"
    return f"to_local_time({{0}} AT TIME ZONE '{zone}')"


WHY_ASSUME = ("'Convert local timestamp to UTC-relative timestamp_tz using given local time's timezone': a wall clock "
              "in a DST gap has no instant and one in an overlap two; the YAML picks none. The model moves a gap's "
              "wall clock forward by the gap and takes an overlap's earlier instant (Java's, Python's fold=0)")
register(
    Spec(D, "assume_timezone", _assume(), rows=_rows, variants=_variants, accept=_range_accept,
         duckdb=_zone_sql("duckdb", _assume_sql), datafusion=None,
         alternatives=[Reading("an overlap's wall clock read with the later offset", _assume(fold=1), WHY_ASSUME),
                       Reading("an overlap's wall clock read with the zone's standard offset (ICU)",
                               _assume(standard=True), WHY_ASSUME),
                       Reading("fixed UTC offsets (+05:30) accepted as time zones", _assume(lenient=True),
                               "an offset is no IANA name")]),
    Spec(D, "local_timestamp", _local_timestamp(), rows=_rows, variants=_variants, accept=_range_accept,
         duckdb=_zone_sql("duckdb", _local_ts_sql), datafusion=_zone_sql("datafusion", _local_ts_sql),
         engine_notes=[DF_NANOS, DF_2038],
         alternatives=[Reading("fixed UTC offsets (+05:30) accepted as time zones", _local_timestamp(lenient=True),
                               "an offset is no IANA name")]),
)


# ---- min / max ---------------------------------------------------------------------------------------------------------
def _extreme(pick):
    def model(call, rows):
        vals = [r[0] for r in rows if r[0] is not None]
        return Value(pick(vals)) if vals else NULL
    return model


register(Spec(D, "min", _extreme(min), kind="aggregate", duckdb=lambda c: "min({0})", datafusion=lambda c: "min({0})"),
         Spec(D, "max", _extreme(max), kind="aggregate", duckdb=lambda c: "max({0})", datafusion=lambda c: "max({0})"))


# ---- strftime / strptime -----------------------------------------------------------------------------------------------
# The YAML points at strftime(3) / strptime(3): the models call the C library's own functions
# (glibc, C locale) on a struct tm of the value's wall clock. %f is no conversion of either
# (glibc writes it as is and strptime fails on it): a format with %f is open (any answer), with
# Python's reading (six digits of microseconds) as a documented alternative.
import ctypes  # noqa: E402
import ctypes.util  # noqa: E402
import time as time_mod  # noqa: E402

_LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


class _TM(ctypes.Structure):
    _fields_ = [(n, ctypes.c_int) for n in
                ["tm_sec", "tm_min", "tm_hour", "tm_mday", "tm_mon", "tm_year", "tm_wday", "tm_yday", "tm_isdst"]] + \
               [("tm_gmtoff", ctypes.c_long), ("tm_zone", ctypes.c_char_p)]


_LIBC.strftime.restype = ctypes.c_size_t
_LIBC.strftime.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(_TM)]
_LIBC.strptime.restype = ctypes.c_void_p
_LIBC.strptime.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(_TM)]
_NO_OFFSET = 999_999_999

STRFTIME_FORMATS = {
    # value kind -> (CI formats, further formats of the full run)
    "date": (["%Y-%m-%d", "%j %a %A %b %B %h", "%e"],
             ["%F", "%y %D", "%d/%m/%Y 'q' 100%%", "%H:%M:%S", "%U %W %u %w %G %V", "%C %g", "%f"]),
    "precision_timestamp": (["%Y-%m-%d %H:%M:%S", "%I:%M:%S %p", "%f"],
                            ["%F %T", "%R %y %D", "%j %a %A %b %B %h", "%z", "%e %k %l %P", "%U %W %u %w",
                             "%Y-%m-%dT%H:%M:%S.%f"]),
    "precision_timestamp_tz": (["%Y-%m-%d %H:%M:%S %z", "%I:%M %p"],
                               ["%F %T", "%j %a %b", "%Z", "%e %k", "%H:%M:%S.%f"]),
    "precision_time": (["%H:%M:%S"], ["%I:%M %p", "%R %T", "%f"]),
}
STRPTIME_FORMATS = {
    "strptime_date": (["%Y-%m-%d", "%d/%m/%Y"], ["%d-%b-%Y", "%Y%m%d", "%j/%Y", "%e.%m.%Y"]),
    "strptime_timestamp": (["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S%z"],
                           ["%d/%m/%Y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S.%f", "%F %T", "%Y-%m-%d %H:%M"]),
    "strptime_time": (["%H:%M:%S"], ["%I:%M %p", "%T", "%H:%M:%S.%f"]),
}
TEXT_EDGES = {
    "strptime_date": ["2024-02-29", "2023-02-29", "2024-3-5", " 2024-03-05", "2024-03-05 ", "2024-03-05x", "0999-01-01",
                      "1000-01-01", "9999-12-31", "10000-01-01", "", "abcd", "2024/03/05", "2024-13-01", "2024-00-10",
                      "2024-01-32", "29/02/2024", "5/3/2024", "31/04/2024", "05-Mar-2024", "05-mar-2024",
                      "05-March-2024", "20240305", "060/2024", "366/2023", "5.3.2024", " 5.03.2024", "１２/03/2024"],
    "strptime_timestamp": ["2024-03-10 02:30:00", "2023-10-29 02:30:00", "2023-03-26 02:30:00", "2024-02-29 23:59:59",
                           "2024-02-29 24:00:00", "2024-03-05 1:2:3", "2024-03-05 10:00:60", "1969-12-31 23:59:59",
                           "2024-03-05T10:00:00+0530", "2024-03-05T10:00:00+05:30", "2024-03-05T10:00:00Z",
                           "2024-03-05T10:00:00-0800", "2024-03-05T10:00:00", "2024-03-05 10:00:00.123456",
                           "2024-03-05 10:00:00.5", "2024-03-05 10:00:00.123456789", "05/03/2024 12:00:00 AM",
                           "05/03/2024 12:30:00 pm", "2024-03-05 10:00", "", "x", "9999-12-31 23:59:59"],
    "strptime_time": ["00:00:00", "23:59:59", "24:00:00", "1:2:3", "12:30 AM", "12:30 pm", "10:00:00.123456",
                      "10:00:60", "", "x"],
}


def formats_for(call: Call, full: bool) -> list[str]:
    if call.name == "strftime":
        ci, more = STRFTIME_FORMATS[call.value_types[0].kind if call.value_types else "date"]
    else:
        ci, more = STRPTIME_FORMATS[call.name]
    return ci + (more if full else [])


_TEXT_SAMPLES = [(2024, 2, 29, 13, 4, 5), (2023, 10, 29, 2, 30, 0), (2024, 3, 10, 2, 30, 0), (2023, 3, 26, 2, 30, 0),
                 (1969, 12, 31, 23, 59, 59), (1000, 1, 1, 0, 0, 0), (9999, 12, 31, 23, 59, 59), (2024, 1, 1, 0, 0, 7),
                 (2023, 2, 29, 10, 0, 0), (2024, 3, 5, 24, 0, 0), (2024, 3, 5, 10, 0, 60)]


def _c_format(fmt: str, fields, offset: str = "+0530") -> str:
    y, mo, d, h, mi, sec = fields
    try:
        yday = (dt.date(y, mo, min(d, 28)) - dt.date(y, 1, 1)).days + 1 + (d - min(d, 28))
        wday = (dt.date(y, mo, min(d, 28)).weekday() + (d - min(d, 28))) % 7
    except ValueError:
        yday, wday = 1, 0
    f = fmt.replace("%f", "123456").replace("%z", offset)
    tm = _TM(tm_sec=sec, tm_min=mi, tm_hour=h, tm_mday=d, tm_mon=mo - 1, tm_year=y - 1900, tm_wday=wday,
             tm_yday=yday - 1, tm_isdst=0)
    buf = ctypes.create_string_buffer(256)
    n = _LIBC.strftime(buf, 256, f.encode(), ctypes.byref(tm))      # C's own: no range checks (hour 24)
    return buf.raw[:n].decode()


def text_edges(call: Call) -> list:
    """Texts of the call's format: several date-times written by C's strftime with it (DST gaps and
    overlaps, range ends, an impossible date, hour 24, a leap second), and variations of one: without
    leading zeros, with leading / trailing space and trailing text, lower case; offsets written
    +hhmm, +hh:mm and Z; fractions of 1, 6 and 9 digits; and text of no format."""
    fmt = literal_of(call, "format")
    if fmt is None:
        return [None] + TEXT_EDGES[call.name]
    out = [_c_format(fmt, f) for f in _TEXT_SAMPLES]
    base = out[0]
    out += [re.sub(r"(?<!\d)0(\d)", r"\1", base), " " + base, base + " ", base + "x", base.lower(), "", "x"]
    if "%z" in fmt:
        out += [_c_format(fmt, _TEXT_SAMPLES[0], o) for o in ("-0800", "+0000", "Z", "+05:30", "+05")]
    if "%f" in fmt:
        out += [base.replace("123456", "5"), base.replace("123456", "123456789"), base.replace(".123456", "")]
    if "%b" in fmt:
        out.append(_c_format(fmt.replace("%b", "%B"), _TEXT_SAMPLES[0]))       # the full month name
    if "%j" in fmt:
        out.append(_c_format(fmt, (2023, 12, 32, 0, 0, 0)))                       # day 366 of 2023
    return [None] + list(dict.fromkeys(out))


def _c_strftime(fmt: str, wall: dt.datetime, zone: tuple | None) -> str:
    """C's strftime of a wall clock; ``zone``: (offset seconds, abbreviation, isdst) or None."""
    tt = wall.timetuple()
    if zone is None:
        st = time_mod.struct_time((tt.tm_year, tt.tm_mon, tt.tm_mday, tt.tm_hour, tt.tm_min, tt.tm_sec,
                                   tt.tm_wday, tt.tm_yday, 0))
    else:
        st = time_mod.struct_time((tt.tm_year, tt.tm_mon, tt.tm_mday, tt.tm_hour, tt.tm_min, tt.tm_sec,
                                   tt.tm_wday, tt.tm_yday, zone[2], zone[1], zone[0]))
    return time_mod.strftime(fmt, st)


def _strftime(micro_f: bool = False, naive_utc: bool = False, lenient: bool = False):
    def model(call, row):
        x = row[0]
        kind = call.value_types[0].kind
        fmt = literal_of(call, "format")
        present, zone_name = _tz_arg(call, row)
        if fmt is None or (present and zone_name is None):
            return NULL
        tz = zone_info(zone_name, lenient) if present else None
        if present and tz is None:
            return Error(None, "invalid time zone")
        zone = None
        if kind == "date":
            if not date_ok(x):
                return out_of_range()
            wall = naive(x * DAY_US)
        elif kind == "precision_time":
            wall = naive(x)    # 1970-01-01 and the time
        else:
            if not ts_ok(x):
                return out_of_range()
            try:
                wall = to_local(x, tz) if tz is not None else naive(x)
            except OverflowError:
                return out_of_range()
            if tz is not None:
                aware = (dt.datetime(1970, 1, 1, tzinfo=UTC) + dt.timedelta(microseconds=x)).astimezone(tz)
                zone = (offset_us(x, tz) // 1_000_000, aware.tzname() or "", 1 if aware.dst() else 0)
        if not LO_US <= naive_us(wall) <= HI_US:
            return out_of_range()
        if zone is None and re.search(r"%[zZ]", fmt):
            if not naive_utc:
                return Undefined("%z / %Z of a value without time zone")
            zone = (0, "UTC", 0)
        if kind == "precision_time" and re.search(r"%[YyCGgmdjbBhaAeUWuwVDFs]", fmt):
            return Undefined("a date conversion of a time")
        if "%f" in fmt:
            if not micro_f:
                return Undefined("%f is no strftime(3) conversion")
            fmt = fmt.replace("%f", f"{wall.microsecond:06d}")
        return Value(_c_strftime(fmt, wall, zone))
    return model


def _duckdb_strftime(call):
    fmt = literal_of(call, "format")
    present, zone = _tz_arg(call)
    if fmt is None or (present and zone not in ZONES) or re.search(r"%[^YmdHMSjaAbBhpIy%]", fmt):
        return None
    if call.value_types[0].kind == "precision_time":
        return None
    x = f"timezone('{zone}', {{0}})" if present else "{0}"
    return f"strftime({x}, '{fmt.replace(chr(39), chr(39) * 2)}')"


def _df_strftime(call):
    fmt = literal_of(call, "format")
    present, zone = _tz_arg(call)
    if fmt is None or (present and zone not in ZONES) or "%f" in fmt:
        return None
    # chrono's %Z writes the offset, not the zone's abbreviation
    if call.value_types[0].kind == "precision_time" or "%Z" in fmt or (not present and "%z" in fmt):
        return None
    x = f"({{0}} AT TIME ZONE '{zone}')" if present else "{0}"
    return f"to_char({x}, '{fmt.replace(chr(39), chr(39) * 2)}')"


register(Spec(D, "strftime", _strftime(), rows=_rows, variants=_variants, accept=_range_accept,
              duckdb=_duckdb_strftime, datafusion=_df_strftime, engine_notes=[DF_NANOS, DF_2038],
              alternatives=[Reading("%f as six digits of microseconds (Python's)", _strftime(micro_f=True),
                                    "%f is no conversion of strftime(3), the YAML's reference (glibc writes '%f')"),
                            Reading("%z / %Z of a value without zone as UTC ('+0000', 'UTC')",
                                    _strftime(naive_utc=True),
                                    "a date or precision_timestamp has no zone for %z / %Z to write"),
                            Reading("fixed UTC offsets (+05:30) accepted as time zones", _strftime(lenient=True),
                                    "an offset is no IANA name")]))


def _c_strptime(text: str, fmt: str):
    """(struct tm fields, bytes consumed, total bytes) of C's strptime, or None when it fails."""
    buf = ctypes.create_string_buffer(text.encode())
    tm = _TM()
    tm.tm_mday, tm.tm_year, tm.tm_gmtoff = 1, 70, _NO_OFFSET
    r = _LIBC.strptime(buf, fmt.encode(), ctypes.byref(tm))
    if r is None:
        return None
    return tm, r - ctypes.addressof(buf), len(text.encode())


@dataclasses.dataclass(frozen=True)
class ParseReading:
    trailing_ok: bool = False      # text after the format's end ignored (strptime(3) returns where it stopped)
    zone_error: bool = False       # an offset in the text and a zone argument: an error
    fraction: bool = False         # %f: up to nine digits of a second's fraction, truncated to the precision
    fold: int = 0
    lenient: bool = False


def _strptime(r: ParseReading = ParseReading()):
    def model(call, row):
        text = row[0]
        fmt = literal_of(call, "format")
        present, zone_name = _tz_arg(call, row)
        if fmt is None or (present and zone_name is None):
            return NULL
        tz = zone_info(zone_name, r.lenient) if present else None
        if present and tz is None:
            return Error(None, "invalid time zone")
        frac = 0
        if "%f" in fmt:
            if not r.fraction:
                return Undefined("%f is no strptime(3) conversion")
            m = re.search(r"\.(\d{1,9})", text)
            head, _, tail = fmt.partition(".%f")
            if m is None or tail != "":
                return Error(None, "no fraction")
            digits = m.group(1)
            text = text[:m.start()] + text[m.end():]
            fmt = head
            frac = int(digits.ljust(9, "0")[:9]) // 1000     # microseconds (truncated)
        parsed = _c_strptime(text, fmt)
        if parsed is None:
            return Error(None, "the text does not match the format")
        tm, used, total = parsed
        if used != total and not r.trailing_ok:
            return Error(None, "text after the format's end")
        # A leap second (strptime(3) reads 60 and 61; no type holds one) is carried into the next
        # minute, as mktime(3) normalizes it; a date keeps the day the text names.
        leap = max(0, tm.tm_sec - 59)
        try:
            wall = dt.datetime(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                               tm.tm_sec - leap, frac)
        except ValueError:
            return Error(None, "no such date")
        if call.name != "strptime_date":
            try:
                wall += dt.timedelta(seconds=leap)
            except OverflowError:
                return out_of_range()
        if call.name == "strptime_time":
            p = literal_of(call, "precision", 6)
            us = naive_us(wall) % DAY_US
            step = 10 ** max(0, 6 - p)
            return Value(us - us % step)
        if call.name == "strptime_date":
            days = (wall.date() - EPOCH_DATE).days
            return Value(days) if date_ok(days) else out_of_range()
        if not LO_US <= naive_us(wall) <= HI_US:
            return out_of_range()
        if tm.tm_gmtoff != _NO_OFFSET:
            if present and r.zone_error:
                return Error("invalid", "a zone in the text and as an argument")
            res = naive_us(wall) - tm.tm_gmtoff * 1_000_000
        elif tz is not None:
            res = from_local(wall, tz, r.fold)
        else:
            res = naive_us(wall)          # no zone anywhere: UTC
        p = literal_of(call, "precision", 6)
        step = 10 ** max(0, 6 - p)
        res -= res % step
        return Value(res) if ts_ok(res) else out_of_range()
    return model


WHY_TRAILING = ("strptime(3) returns a pointer to the first character it did not read; the YAML says nothing of "
                "text after the format's end: the model makes it an error (the text is not of the format)")
WHY_ZONE = ("the YAML says both \"If timezone is present in timestamp and provided as parameter an error is thrown\" "
            "and \"If timezone is supplied as parameter and present in the parsed string the parsed timezone is "
            "used\": the model follows the second (the more specific, and what loses nothing)")
def _strptime_sql(engine):
    def template(call):
        fmt = literal_of(call, "format")
        present, zone = _tz_arg(call)
        if fmt is None or "%f" in fmt or "%e" in fmt or (present and zone not in ZONES):
            return None
        if engine == "duckdb" and re.search(r"%[FTDRe]", fmt):
            return None      # no such DuckDB specifiers
        if call.name == "strptime_date":
            return f"CAST(strptime({{0}}, '{fmt}') AS DATE)" if engine == "duckdb" else f"to_date({{0}}, '{fmt}')"
        if call.name != "strptime_timestamp" or literal_of(call, "precision") != 6:
            return None
        if engine == "duckdb":
            if "%z" in fmt:
                return f"strptime({{0}}, '{fmt}')"
            return f"timezone('{zone}', strptime({{0}}, '{fmt}'))" if present else \
                f"timezone('UTC', strptime({{0}}, '{fmt}'))"
        if present and zone != "UTC" and "%z" not in fmt:
            return None
        return f"to_timestamp({{0}}, '{fmt}')"
    return template


def _full_month_b(call, row, exp, got) -> bool:
    fmt = literal_of(call, "format") or ""
    return "%b" in fmt and isinstance(exp, Value) and isinstance(got, Error) and row[0] is not None \
        and any(m in row[0] for m in calendar.month_name[1:] if m != m[:3])


def _j_overflow(call, row, exp, got) -> bool:
    return "%j" in (literal_of(call, "format") or "") and isinstance(exp, Error) and isinstance(got, Value)


def _z_letter(call, row, exp, got) -> bool:
    return "%z" in (literal_of(call, "format") or "") and isinstance(got, Error) and row[0] is not None \
        and (row[0].endswith("Z") or re.search(r"[+-]\d\d(:\d\d)?$", row[0]) is not None)


STRPTIME_NOTES = [
    EngineNote("duckdb", _z_letter, "strptime(3) (the YAML's reference): %z reads \"+hh:mm, +hhmm, +hh\" and \"Z\" "
                                    "(glibc); DuckDB 1.1.3's %z reads none of Z, +hh:mm, +hh"),
    EngineNote("datafusion", _z_letter, "strptime(3): %z reads +hh:mm, +hhmm, +hh and Z (glibc); DataFusion 55 "
                                        "(chrono) reads neither Z nor +hh"),
    DF_NANOS,
    EngineNote("duckdb", _full_month_b, "strptime(3) (the YAML's reference): %b reads \"the month name ... either "
                                        "the abbreviated or the full name\"; DuckDB 1.1.3 reads the abbreviation only"),
    EngineNote("datafusion", _full_month_b, "strptime(3) (the YAML's reference): %b reads the abbreviated or the "
                                            "full month name; DataFusion 55 (chrono) the abbreviation only"),
    EngineNote("duckdb", lambda c, r, e, g: isinstance(g, Error) and isinstance(r[0], str) and ":60" in r[0],
               "strptime(3) (the YAML's reference): %S reads seconds 00-60 (a leap second, carried into the next "
               "minute as mktime(3) does); DuckDB 1.1.3 reads 00-59"),
    EngineNote("duckdb", _j_overflow, "strptime(3): %j is the day of the year 1-366; day 366 of a year of 365 days "
                                      "is no date (an error in the model); DuckDB 1.1.3 rolls it into the next year"),
]

for _name in ("strptime_date", "strptime_timestamp", "strptime_time"):
    register(Spec(D, _name, _strptime(), rows=_rows, variants=_variants, accept=_range_accept,
                  duckdb=_strptime_sql("duckdb"), datafusion=_strptime_sql("datafusion"), engine_notes=STRPTIME_NOTES,
                  alternatives=[Reading("text after the format's end ignored", _strptime(ParseReading(trailing_ok=True)),
                                        WHY_TRAILING),
                                Reading("an offset in the text and a zone argument: an error (of its own kind)",
                                        _strptime(ParseReading(zone_error=True)), WHY_ZONE),
                                Reading("%f: a second's fraction (up to nine digits, truncated to the precision)",
                                        _strptime(ParseReading(fraction=True)),
                                        "%f is no conversion of strptime(3), the YAML's reference"),
                                Reading("a DST overlap's wall clock read with the later offset",
                                        _strptime(ParseReading(fold=1)), WHY_ASSUME),
                                Reading("fixed UTC offsets (+05:30) accepted as time zones",
                                        _strptime(ParseReading(lenient=True)), "an offset is no IANA name")]))


# ---- round_temporal / round_calendar --------------------------------------------------------------------------------------
UNIT_US = {"WEEK": 7 * DAY_US, "DAY": DAY_US, "HOUR": 3_600_000_000, "MINUTE": 60_000_000, "SECOND": 1_000_000,
           "MILLISECOND": 1000, "MICROSECOND": 1}
UNIT_ORDER = ["MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"]


def _pick(x, lo, hi, rounding):
    """One of the two nearest multiples lo <= x <= hi (numbers on one time line)."""
    if x == lo:
        return lo
    if rounding == "FLOOR":
        return lo
    if rounding == "CEIL":
        return hi
    if x - lo < hi - x:
        return lo
    if x - lo > hi - x:
        return hi
    return lo if rounding == "ROUND_TIE_DOWN" else hi


def _as_line(call, v, tz):
    """(wall clock as a datetime, back: datetime -> value) of a value of the call's first type."""
    kind = call.value_types[0].kind
    if kind == "date":
        return naive(v * DAY_US), lambda d: (d - EPOCH) // dt.timedelta(days=1)
    if kind == "precision_time":
        return naive(v), lambda d: naive_us(d)
    if tz is not None:
        return to_local(v, tz), lambda d: from_local(d, tz)
    return naive(v), naive_us


def _calendar_steps(origin: dt.datetime, x: dt.datetime, months: int):
    """The multiples origin + k * months (months apart) around x: (lo, hi)."""
    k = ((x.year - origin.year) * 12 + (x.month - origin.month)) // months
    lo = add_months(origin, k * months)
    while lo > x:
        k -= 1
        lo = add_months(origin, k * months)
    hi = add_months(origin, (k + 1) * months)
    while hi <= x:
        k += 1
        lo, hi = hi, add_months(origin, (k + 1) * months)
    return lo, hi


def _round_temporal(call, row):
    enums = _enums(call)
    rounding, unit = enums[0], enums[1]
    x, multiple, origin = row[0], row[1], row[-1]
    present, zone_name = _tz_arg(call, row)
    if present and zone_name is None:
        return NULL
    tz = zone_info(zone_name) if present else None
    if present and tz is None:
        return Error(None, "invalid time zone")
    if multiple <= 0:
        return Undefined("a multiple that is not positive: the YAML does not say")
    kind = call.value_types[0].kind
    if kind == "date" and not (date_ok(x) and date_ok(origin)):
        return out_of_range()
    if kind in ("precision_timestamp", "precision_timestamp_tz") and not (ts_ok(x) and ts_ok(origin)):
        return out_of_range()
    try:
        xw, back = _as_line(call, x, tz)
        ow, _ = _as_line(call, origin, tz)
        if unit in ("YEAR", "MONTH"):
            lo, hi = _calendar_steps(ow, xw, multiple * (12 if unit == "YEAR" else 1))
        else:
            width = UNIT_US[unit] * multiple
            k = (naive_us(xw) - naive_us(ow)) // width
            lo = naive(naive_us(ow) + k * width)
            hi = naive(naive_us(lo) + width)
        pick = _pick(naive_us(xw), naive_us(lo), naive_us(hi), rounding)
        res = back(naive(pick))
    except (OverflowError, ValueError):
        return out_of_range()
    if kind == "precision_time" and not 0 <= res < DAY_US:
        return Undefined("a rounded time beyond the day")
    if kind == "date":
        return Value(res) if date_ok(res) else out_of_range()
    if kind != "precision_time" and not ts_ok(res):
        return out_of_range()
    return Value(res)


def _period_start(origin: str, d: dt.datetime) -> dt.datetime:
    day = dt.datetime(d.year, d.month, d.day)
    if origin == "YEAR":
        return dt.datetime(d.year, 1, 1)
    if origin == "MONTH":
        return dt.datetime(d.year, d.month, 1)
    if origin in ("MONDAY_WEEK", "ISO_WEEK"):
        return day - dt.timedelta(days=d.weekday())
    if origin in ("SUNDAY_WEEK", "US_WEEK"):
        return day - dt.timedelta(days=(d.weekday() + 1) % 7)
    if origin == "DAY":
        return day
    return naive(naive_us(d) - naive_us(d) % UNIT_US[origin])


def _period_next(origin: str, start: dt.datetime) -> dt.datetime:
    if origin == "YEAR":
        return add_months(start, 12)
    if origin == "MONTH":
        return add_months(start, 1)
    if origin.endswith("WEEK"):
        return start + dt.timedelta(days=7)
    return naive(naive_us(start) + UNIT_US[origin])


ORIGIN_RANK = {"YEAR": 8, "MONTH": 7, "MONDAY_WEEK": 6, "SUNDAY_WEEK": 6, "ISO_WEEK": 6, "US_WEEK": 6, "DAY": 5,
               "HOUR": 4, "MINUTE": 3, "SECOND": 2, "MILLISECOND": 1}


def _round_calendar(call, row):
    enums = _enums(call)
    rounding, unit, origin = enums[0], enums[1], enums[2]
    x, multiple = row[0], row[1]
    present, zone_name = _tz_arg(call, row)
    if present and zone_name is None:
        return NULL
    tz = zone_info(zone_name) if present else None
    if present and tz is None:
        return Error(None, "invalid time zone")
    if multiple <= 0:
        return Undefined("a multiple that is not positive: the YAML does not say")
    if UNIT_ORDER.index(unit) + 1 > ORIGIN_RANK[origin] or (unit == "WEEK" and origin.endswith("WEEK")):
        return Undefined("a unit no smaller than the origin: the YAML does not say")
    kind = call.value_types[0].kind
    if (kind == "date" and not date_ok(x)) or (kind.startswith("precision_timestamp") and not ts_ok(x)):
        return out_of_range()
    try:
        xw, back = _as_line(call, x, tz)
        start = _period_start(origin, xw)
        end = _period_next(origin, start)
        if unit in ("YEAR", "MONTH"):
            lo, hi = _calendar_steps(start, xw, multiple * (12 if unit == "YEAR" else 1))
        elif unit == "WEEK":
            # weeks from the origin period's start
            width = 7 * DAY_US * multiple
            k = (naive_us(xw) - naive_us(start)) // width
            lo = naive(naive_us(start) + k * width)
            hi = naive(naive_us(lo) + width)
        else:
            width = UNIT_US[unit] * multiple
            k = (naive_us(xw) - naive_us(start)) // width
            lo = naive(naive_us(start) + k * width)
            hi = naive(naive_us(lo) + width)
        hi = min(hi, end)     # the next period's start is the next multiple
        pick = _pick(naive_us(xw), naive_us(lo), naive_us(hi), rounding)
        res = back(naive(pick))
    except (OverflowError, ValueError):
        return out_of_range()
    if kind == "precision_time" and not 0 <= res < DAY_US:
        return Undefined("a rounded time beyond the day")
    if kind == "date":
        return Value(res) if date_ok(res) else out_of_range()
    if kind != "precision_time" and not ts_ok(res):
        return out_of_range()
    return Value(res)


_ROUND_CI_UNITS = {"YEAR", "DAY", "MINUTE", "HOUR"}
_CAL_CI = {("DAY", "MONTH"), ("HOUR", "DAY"), ("MONTH", "YEAR"), ("MINUTE", "HOUR"), ("DAY", "ISO_WEEK"),
           ("DAY", "US_WEEK"), ("SECOND", "MINUTE"), ("WEEK", "YEAR")}


def _round_variants(call: Call, full: bool) -> list[Call]:
    enums = _enums(call)
    if call.name == "round_calendar" and (UNIT_ORDER.index(enums[1]) + 1 > ORIGIN_RANK[enums[2]]
                                          or (enums[1] == "WEEK" and enums[2].endswith("WEEK"))) \
            and (enums[0] != "FLOOR" or not full):
        return []      # a unit no smaller than its origin: once (FLOOR), in the full run
    if not full:
        if call.name == "round_temporal" and enums[1] not in _ROUND_CI_UNITS:
            return []
        if call.name == "round_calendar" and (enums[1], enums[2]) not in _CAL_CI:
            return []
    return _variants(call, full)


register(Spec(D, "round_temporal", _round_temporal, rows=_rows, variants=_round_variants, accept=_range_accept),
         Spec(D, "round_calendar", _round_calendar, rows=_rows, variants=_round_variants, accept=_range_accept))
