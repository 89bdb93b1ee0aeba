"""``spark.read.substrait(plan)``: a Substrait plan in, a DataFrame out.

Thin over Py4J: the plan is handed to ``io.sparksubstrait.SubstraitPlans`` in the driver
JVM, which converts it to a Catalyst plan. Works whether the jar and the extension were
set by :func:`spark_substrait.configure` or by plain configuration (``spark-defaults.conf``,
``--conf``, a cluster library).
"""

from collections.abc import Mapping
from typing import Any, Optional

from pyspark.sql.readwriter import DataFrameReader

from spark_substrait._errors import java_errors_as_plan_errors
from spark_substrait._plans import PlanLike, check_root, entry_point, java_params, plan_payload


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
    entry = entry_point(spark)
    with java_errors_as_plan_errors():
        read = entry.readJson if kind == "json" else entry.read
        if params is not None:
            jdf = read(spark._jsparkSession, payload, root, java_params(spark, params))
        elif root is None:
            jdf = read(spark._jsparkSession, payload)
        else:
            jdf = read(spark._jsparkSession, payload, root)
    return self._df(jdf)


def install() -> None:
    """Adds ``substrait`` to pyspark's classic DataFrameReader, and to the Spark Connect one
    (pyspark.sql.connect.readwriter) when that is imported: see spark_substrait._connect."""
    DataFrameReader.substrait = substrait
    from spark_substrait._connect import install as install_connect

    install_connect()
