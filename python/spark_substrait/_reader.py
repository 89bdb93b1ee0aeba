"""``spark.read.substrait(plan)``: a Substrait plan in, a DataFrame out.

Thin over Py4J: the plan is handed to ``io.sparksubstrait.SubstraitPlans`` in the driver
JVM, which converts it to a Catalyst plan. Works whether the jar and the extension were
set by :func:`spark_substrait.configure` or by plain configuration (``spark-defaults.conf``,
``--conf``, a cluster library).
"""

import collections.abc
import os
import pathlib
from typing import Any, List, Mapping, Optional, Tuple, Union

from pyspark.sql.readwriter import DataFrameReader

from spark_substrait._config import EXTENSION_CLASS
from spark_substrait._errors import SubstraitNotInstalledError, java_errors_as_plan_errors

_ENTRY_POINT = "io.sparksubstrait.SubstraitPlans"

PlanLike = Union[bytes, bytearray, memoryview, str, os.PathLike]


def substrait(self: DataFrameReader, plan: PlanLike, root: Optional[int] = None,
              params: Optional[Mapping[int, Any]] = None):
    """Reads a Substrait plan as a DataFrame.

    ``plan`` is one of: the plan's bytes (``bytes``, ``bytearray``, ``memoryview``); its
    protobuf JSON as a ``str`` (text starting with ``{``); a protobuf ``Plan`` message
    (anything with ``SerializeToString()``, e.g. from the ``substrait`` package); or the
    path (``str`` or ``pathlib.Path``) of a plan file, read as JSON when it ends with
    ``.json`` and as binary otherwise.

    ``root`` chooses one root (0-based, counting root relations only) of a plan with several;
    by default the plan must have exactly one.

    ``params`` gives values to the plan's dynamic parameters, by anchor (they override the
    plan's own bindings): ``int``, ``float``, ``bool``, ``str``, ``None``, or a ``date``,
    ``datetime`` or ``Decimal`` (sent as text and cast to the parameter's type).

    Raises :class:`spark_substrait.SubstraitPlanError` (one of its subclasses) when the
    plan cannot be converted; its ``condition`` and ``location`` tell what and where.
    """
    check_root(root)
    kind, payload = plan_payload(plan)
    spark = self._spark
    entry_point = _entry_point(spark)
    with java_errors_as_plan_errors():
        read = entry_point.readJson if kind == "json" else entry_point.read
        if params is not None:
            jdf = read(spark._jsparkSession, payload, root, _java_params(spark, params))
        elif root is None:
            jdf = read(spark._jsparkSession, payload)
        else:
            jdf = read(spark._jsparkSession, payload, root)
    return self._df(jdf)


def _java_params(spark, params: Mapping[int, Any]):
    """A java.util.HashMap of anchor -> value (see :func:`param_values`)."""
    jmap = spark._jvm.java.util.HashMap()
    for anchor, value in param_values(params):
        jmap.put(anchor, value)
    return jmap


def param_values(params: Mapping[int, Any]) -> List[Tuple[int, Any]]:
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


def plan_payload(plan: PlanLike) -> Tuple[str, Union[bytes, str]]:
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


def _read_file(path: pathlib.Path) -> Tuple[str, Union[bytes, str]]:
    if path.suffix.lower() == ".json":
        return "json", path.read_text(encoding="utf-8")
    return "bytes", path.read_bytes()


def _shorten(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _entry_point(spark):
    from py4j.java_gateway import JavaClass

    jvm = getattr(spark, "_jvm", None)
    if jvm is None:
        raise SubstraitNotInstalledError(
            "spark.read.substrait needs a classic (JVM-backed) SparkSession; this session "
            "has no driver JVM (Spark Connect?).",
            condition="SUBSTRAIT_NOT_INSTALLED")
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


def install() -> None:
    """Adds ``substrait`` to pyspark's classic DataFrameReader, and to the Spark Connect one
    (pyspark.sql.connect.readwriter) when that is imported: see spark_substrait._connect."""
    DataFrameReader.substrait = substrait
    from spark_substrait._connect import install as install_connect

    install_connect()
