"""IEEE 754 arithmetic worked out exactly, for the models: a rational rounded to binary64 or
binary32 in each of the YAML's rounding modes, and MPFR (gmpy2) for the functions that are
not rational (correctly rounded in the directed modes; the nearest value otherwise)."""

import math
from fractions import Fraction

import gmpy2

# precision (bits), smallest normal exponent, largest finite value
FORMATS = {False: (53, -1022, 1.7976931348623157e308), True: (24, -126, 3.4028234663852886e38)}
MODES = ("TIE_TO_EVEN", "TIE_AWAY_FROM_ZERO", "TRUNCATE", "CEILING", "FLOOR")


def round_fraction(q: Fraction, mode: str | None, single: bool, zero_sign: int = 1) -> float:
    """``q`` rounded to binary64 (binary32 if ``single``) in ``mode`` (default TIE_TO_EVEN).
    An exact zero takes the sign ``zero_sign``; overflow goes to infinity or to the largest
    finite value as the mode says (IEEE 754 §7.4)."""
    mode = mode or "TIE_TO_EVEN"
    if q == 0:
        return math.copysign(0.0, zero_sign)
    p, emin, largest = FORMATS[single]
    neg = q < 0
    a = -q if neg else q
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = max(e, emin) - (p - 1)
    m = a / (Fraction(2) ** quantum)
    lo = m.numerator // m.denominator
    rem = m - lo
    up = {"TRUNCATE": False, "CEILING": not neg and rem > 0, "FLOOR": neg and rem > 0,
          "TIE_AWAY_FROM_ZERO": rem >= Fraction(1, 2),
          "TIE_TO_EVEN": rem > Fraction(1, 2) or (rem == Fraction(1, 2) and lo % 2 == 1)}[mode]
    n = lo + 1 if up else lo
    try:
        result = math.ldexp(n, quantum) if n else 0.0
    except OverflowError:
        result = math.inf
    if result > largest:
        toward_zero = mode == "TRUNCATE" or (mode == "CEILING" and neg) or (mode == "FLOOR" and not neg)
        result = largest if toward_zero else math.inf
    if result == 0:
        return -0.0 if neg else 0.0
    return -result if neg else result


_ROUND = {"TIE_TO_EVEN": gmpy2.RoundToNearest, "TIE_AWAY_FROM_ZERO": gmpy2.RoundToNearest,
          "TRUNCATE": gmpy2.RoundToZero, "CEILING": gmpy2.RoundUp, "FLOOR": gmpy2.RoundDown}


def mpfr_call(fn, args, mode: str | None, single: bool, composite: bool = False) -> float:
    """``fn`` (a gmpy2 function) of the arguments (floats or integers, taken exactly), correctly
    rounded to the format in ``mode``. TIE_AWAY_FROM_ZERO rounds to nearest: these functions
    have no exact ties but at exact results, which no mode rounds. A ``composite`` function
    (several operations) is computed with 400 bits and rounded once."""
    ctx = gmpy2.ieee(32 if single else 64)
    ctx.round = _ROUND[mode or "TIE_TO_EVEN"]
    exact_args = [gmpy2.mpfr(a, 128) for a in args]
    if composite:
        with gmpy2.context(gmpy2.context(precision=400, emax=1 << 20, emin=-(1 << 20))):
            wide = fn(*exact_args)
        with gmpy2.context(ctx):
            return float(ctx.plus(wide))
    with gmpy2.context(ctx):
        return float(fn(*exact_args))


def exact(x: float) -> Fraction:
    return Fraction(x)


def is_int_float(x: float) -> bool:
    return math.isfinite(x) and x == math.floor(x)
