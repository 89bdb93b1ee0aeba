"""``spark.read.substrait(plan)`` on a Spark Connect session (``SparkSession.builder.remote``).

There is no driver JVM to call: the plan travels to the server inside the relation
extension (``Relation.extension``, a protobuf ``Any`` holding our ``SubstraitRelation``
message, see :mod:`spark_substrait._connect_proto`), where the relation plugin
``io.sparksubstrait.connect.SubstraitRelationPlugin`` converts it.

Spark Connect's client modules need extras (grpcio, pandas, pyarrow...) and take about a
second to import, so ``import spark_substrait`` does not import them: :func:`install`
adds ``substrait`` to the Connect reader when pyspark imports that reader, which it does
when a remote session is made.
"""

import functools
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Mapping
from typing import Any, Optional

from spark_substrait._errors import from_connect
from spark_substrait._plans import PlanLike, check_root, param_values, plan_payload

_READER_MODULE = "pyspark.sql.connect.readwriter"
_INT64 = (-(1 << 63), (1 << 63) - 1)


def substrait(self, plan: PlanLike, root: Optional[int] = None,
              params: Optional[Mapping[int, Any]] = None):
    """Reads a Substrait plan as a DataFrame of this Spark Connect session: the same
    arguments, result and errors as ``spark.read.substrait`` on a classic session.

    The server must run the spark-substrait jar with its relation plugin
    (:func:`spark_substrait.connect_server_conf`). The plan is analyzed on the server before
    this returns, so a plan that cannot be converted raises
    :class:`spark_substrait.SubstraitPlanError` here, as in classic mode.
    """
    from pyspark.sql.connect.dataframe import DataFrame

    check_root(root)
    df = DataFrame(_plan_class()(payload(plan, root, params)), self._client)
    # Analyzes on the server: conversion errors surface here.
    _with_plan_errors(lambda: df.schema)
    return df


def _with_plan_errors(action):
    """``action()``, with the server's errors of ours raised as the project's Python errors."""
    try:
        return action()
    except Exception as e:  # noqa: BLE001 - only ours are translated, others re-raised
        error = from_connect(e)
        if error is None:
            raise
        error.connect_exception = e
        raise error from None


def payload(plan: PlanLike, root: Optional[int] = None,
            params: Optional[Mapping[int, Any]] = None) -> bytes:
    """The serialized ``SubstraitRelation`` message for these arguments."""
    from spark_substrait._connect_proto import SubstraitRelation

    kind, data = plan_payload(plan)
    message = SubstraitRelation()
    if kind == "json":
        message.plan_json = data
    else:
        message.plan_binary = data
    if root is not None:
        message.root = root
    for anchor, value in (param_values(params) if params is not None else []):
        p = message.parameters.add(anchor=anchor)
        if value is None:
            p.is_null = True
        elif isinstance(value, bool):
            p.bool_value = value
        elif isinstance(value, int) and _INT64[0] <= value <= _INT64[1]:
            p.int_value = value
        elif isinstance(value, int):
            p.string_value = str(value)  # beyond int64: its text, cast to the parameter's type
        elif isinstance(value, float):
            p.double_value = value
        else:
            p.string_value = value
    return message.SerializeToString()


def written_plan(df, analyzed: bool, target, json: bool):
    """``df`` (a Connect DataFrame) written as a Substrait plan by the server's plugin: the
    DataFrame's relation goes to the server inside a ``SubstraitWrite`` extension, which
    answers with one row holding the plan (bytes, or the JSON string)."""
    from pyspark.sql.connect.dataframe import DataFrame

    from spark_substrait._connect_proto import WRITE_TYPE_URL, SubstraitWrite

    session = df.sparkSession
    message = SubstraitWrite(relation=df._plan.plan(session.client).SerializeToString(), analyzed=analyzed, json=json)
    if target is not None:
        message.target = target
    written = DataFrame(_plan_class()(message.SerializeToString(), WRITE_TYPE_URL), session)
    return _with_plan_errors(lambda: written.collect()[0][0])


@functools.cache
def _plan_class():
    """The LogicalPlan subclass, made on first use: its base class is in Connect's modules."""
    from pyspark.sql.connect.plan import LogicalPlan

    from spark_substrait._connect_proto import TYPE_URL

    class SubstraitRelationPlan(LogicalPlan):
        """A leaf relation: the extension the server's relation plugin converts."""

        def __init__(self, payload_bytes: bytes, type_url: str = TYPE_URL):
            super().__init__(None)
            self._payload = payload_bytes
            self._type_url = type_url

        def plan(self, session):
            relation = self._create_proto_relation()
            relation.extension.type_url = self._type_url
            relation.extension.value = self._payload
            return relation

    return SubstraitRelationPlan


def _patch(module) -> None:
    module.DataFrameReader.substrait = substrait


class _PatchOnImport(importlib.abc.MetaPathFinder):
    """Finds pyspark's Connect reader module as the path finder would, and adds ``substrait``
    to it right after it has run."""

    def find_spec(self, fullname, path, target=None):
        if fullname != _READER_MODULE:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        spec.loader = _PatchingLoader(spec.loader)
        return spec


class _PatchingLoader(importlib.abc.Loader):
    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _patch(module)

    def __getattr__(self, name):  # get_code, get_source...: the wrapped loader's
        return getattr(self._loader, name)


_hook = _PatchOnImport()


def install() -> None:
    """Adds ``substrait`` to the Connect reader now if pyspark imported it, else when it does."""
    module = sys.modules.get(_READER_MODULE)
    if module is not None:
        _patch(module)
    elif _hook not in sys.meta_path:
        sys.meta_path.insert(0, _hook)
