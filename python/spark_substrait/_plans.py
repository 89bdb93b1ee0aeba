"""What every entry point takes as a plan, and the driver JVM's entry point.

Shared by the reader, the explorer, the writer and the Spark Connect client (which has no
driver JVM: it sends the payload to the server's plugin instead), so none imports another.
"""

import collections.abc
import os
import pathlib
from collections.abc import Mapping
from typing import Any, Optional, Union

from spark_substrait._config import EXTENSION_CLASS
from spark_substrait._errors import SubstraitNotInstalledError, classic_session_required

_ENTRY_POINT = "io.sparksubstrait.SubstraitPlans"

PlanLike = Union[bytes, bytearray, memoryview, str, os.PathLike]


def java_params(spark, params: Mapping[int, Any]):
    """A java.util.HashMap of anchor -> value (see :func:`param_values`)."""
    jmap = spark._jvm.java.util.HashMap()
    for anchor, value in param_values(params):
        jmap.put(anchor, value)
    return jmap


def param_values(params: Mapping[int, Any]) -> list[tuple[int, Any]]:
    """``(anchor, value)`` pairs: ints, floats, bools, strs and None as they are; dates,
    datetimes and decimals as their SQL text (cast to the parameter's type by the server)."""
    import datetime
    import decimal

    if not isinstance(params, collections.abc.Mapping):
        raise TypeError(f"spark.read.substrait: params must be a mapping of anchor -> value, got {type(params).__name__}")
    values = []
    for anchor, value in params.items():
        if isinstance(anchor, bool) or not isinstance(anchor, int):
            raise TypeError(f"spark.read.substrait: parameter anchors are ints, got {anchor!r}")
        if isinstance(value, (datetime.date, datetime.datetime)):
            value = value.isoformat(sep=" ") if isinstance(value, datetime.datetime) else value.isoformat()
        elif isinstance(value, decimal.Decimal):
            value = str(value)
        elif value is not None and not isinstance(value, (bool, int, float, str)):
            raise TypeError(f"spark.read.substrait: parameter {anchor} has a value of type {type(value).__name__}")
        values.append((anchor, value))
    return values


def check_root(root: Optional[int], caller: str = "spark.read.substrait") -> None:
    if root is not None and (isinstance(root, bool) or not isinstance(root, int)):
        raise TypeError(f"{caller}: root must be an int, got {type(root).__name__}")


def plan_payload(plan: PlanLike) -> tuple[str, Union[bytes, str]]:
    """``("bytes", b"...")`` or ``("json", "{...}")`` for anything ``substrait()`` accepts."""
    if isinstance(plan, (bytes, bytearray, memoryview)):
        return "bytes", bytes(plan)
    if isinstance(plan, str):
        if plan.lstrip().startswith("{"):
            return "json", plan
        if os.path.isfile(os.path.expanduser(plan)):
            return _read_file(pathlib.Path(os.path.expanduser(plan)))
        raise ValueError(
            "spark.read.substrait: the string is neither a JSON plan (text starting with "
            f"'{{') nor the path of an existing plan file: {_shorten(plan)!r}")
    if isinstance(plan, os.PathLike):
        path = pathlib.Path(os.fspath(plan)).expanduser()
        if not path.is_file():
            raise ValueError(f"spark.read.substrait: no plan file at {str(path)!r}")
        return _read_file(path)
    serialize = getattr(plan, "SerializeToString", None)
    if callable(serialize):
        data = serialize()
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(
                "spark.read.substrait: SerializeToString() of "
                f"{type(plan).__name__} returned {type(data).__name__}, not bytes")
        return "bytes", bytes(data)
    raise TypeError(
        "spark.read.substrait: expected the plan as bytes, a JSON string, a protobuf Plan "
        "message (with SerializeToString) or the path of a .bin/.json plan file; got "
        f"{type(plan).__module__}.{type(plan).__qualname__}")


def _read_file(path: pathlib.Path) -> tuple[str, Union[bytes, str]]:
    if path.suffix.lower() == ".json":
        return "json", path.read_text(encoding="utf-8")
    return "bytes", path.read_bytes()


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


# What to do instead, by the function that needs the driver JVM.
_WITHOUT_JVM = {
    "spark_substrait.explain": (
        "Explain the plan on a classic session over the same tables, e.g. "
        "spark_substrait.configure(SparkSession.builder.master('local[1]')).getOrCreate() with the tables as "
        "temp views, or from the command line: spark-substrait explain PLAN --table NAME=PATH. "
        "Over Spark Connect, spark.read.substrait(plan) runs the plan and .explain() shows Spark's plans."),
}


def entry_point(spark, caller: str = "spark.read.substrait"):
    """``io.sparksubstrait.SubstraitPlans`` in the session's driver JVM."""
    from py4j.java_gateway import JavaClass

    jvm = getattr(spark, "_jvm", None)
    if jvm is None:
        raise classic_session_required(caller, _WITHOUT_JVM.get(
            caller, "Use a classic session (spark_substrait.configure(SparkSession.builder).getOrCreate())."))
    entry_point = getattr(jvm, _ENTRY_POINT)
    if not isinstance(entry_point, JavaClass):
        raise SubstraitNotInstalledError(
            f"[SUBSTRAIT_NOT_INSTALLED] The class {_ENTRY_POINT} is not on the Spark driver's "
            "classpath, so this session cannot read Substrait plans. Start the session with "
            "the spark-substrait jar: spark_substrait.configure(SparkSession.builder)"
            ".getOrCreate(), or set spark.jars to the jar (spark_substrait.jar_path()) and "
            f"spark.sql.extensions={EXTENSION_CLASS} in spark-defaults.conf or with --conf. "
            "A session that is already running cannot load the jar: stop it first.",
            condition="SUBSTRAIT_NOT_INSTALLED")
    return entry_point
