"""What a command checks before it starts Spark: the plan decodes, the tables' paths exist.

The driver JVM takes seconds to start; a typo in a path or a file that is not a plan should
not wait for it. These checks only look at the input's framing (JSON syntax; protobuf's
wire format: tags, lengths): whether the fields make a valid Substrait plan is the JVM's
decoder's to say, with the plan path of what is wrong.
"""

import json
from typing import Optional, Union

from spark_substrait._errors import malformed_plan

_WIRE_TYPES = {0: "varint", 1: "64-bit", 2: "length-delimited", 5: "32-bit"}


def check_plan(plan: Union[bytes, str], source: str) -> None:
    """Raises ``SUBSTRAIT_MALFORMED_PLAN`` naming ``source`` when ``plan`` (JSON text or
    binary protobuf) cannot be decoded at all."""
    where = "standard input" if source == "-" else source
    if isinstance(plan, str):
        try:
            json.loads(plan)
        except ValueError as e:
            line, column = getattr(e, "lineno", None), getattr(e, "colno", None)
            at = f" at line {line}, column {column}" if line is not None else ""
            raise malformed_plan("JSON", f"{where} is not JSON: {getattr(e, 'msg', e)}{at}") from None
        return
    reason = wire_format_error(plan)
    if reason is not None:
        raise malformed_plan("binary", f"{where} is not a protobuf message: {reason}")


def wire_format_error(data: bytes) -> Optional[str]:
    """Why ``data`` is not a protobuf message's encoding, judged by its top-level fields'
    framing; None when it could be one."""
    i, end = 0, len(data)
    while i < end:
        start = i
        key, i = _varint(data, i)
        if key is None:
            return f"a field's tag at byte {start} is cut off"
        field, wire = key >> 3, key & 7
        if field == 0:
            return f"byte {start} starts a field numbered 0"
        if wire not in _WIRE_TYPES:
            # Groups (3, 4) are not used by Substrait; 6 and 7 do not exist.
            return f"field {field} at byte {start} has wire type {wire}"
        if wire == 0:
            value, i = _varint(data, i)
            if value is None:
                return f"field {field} at byte {start} is cut off"
            continue
        if wire == 2:
            length, i = _varint(data, i)
            if length is None:
                return f"the length of field {field} at byte {start} is cut off"
        else:
            length = 8 if wire == 1 else 4
        if i + length > end:
            return f"field {field} at byte {start} runs past the end of the input ({end} bytes)"
        i += length
    return None


def _varint(data: bytes, i: int) -> tuple[Optional[int], int]:
    value, shift = 0, 0
    while i < len(data) and shift < 64:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, i
        shift += 7
    return None, i
