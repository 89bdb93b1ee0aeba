"""``spark_substrait.explain(plan)``: the plan explorer.

Shows a Substrait plan beside the Catalyst plan it became: which relation became which
operator(s), where functions were mapped, where a producer's spelling or reading applied,
and Spark's analyzed and optimized plans. The driver JVM converts the plan with a recorder
on (``io.sparksubstrait.SubstraitPlans.explain``) and returns the explain document as JSON
(docs/explain.md); this module only renders it. Nothing runs on the cluster.
"""

import json
import os
from collections.abc import Mapping
from typing import Any, Optional

from spark_substrait._errors import java_errors_as_plan_errors
from spark_substrait._explain.html import render_html, render_html_fragment
from spark_substrait._explain.svg import render_svg
from spark_substrait._explain.text import render_text
from spark_substrait._plans import PlanLike, check_root, entry_point, java_params, plan_payload


class PlanExplanation:
    """The explain document of one plan, with its renderings.

    ``str(e)`` is the text form; a notebook shows the graph (``_repr_html_``); ``to_svg()``,
    ``to_html()`` and ``to_json()`` give the other forms and ``save(path)`` writes the form
    the path's extension names (``.svg``, ``.html``, ``.json``, anything else: text).
    """

    def __init__(self, document: str):
        self._json = document
        self.data: dict[str, Any] = json.loads(document)

    def to_text(self) -> str:
        return render_text(self.data)

    def to_svg(self) -> str:
        return render_svg(self.data)

    def to_html(self) -> str:
        """A complete, self-contained HTML page: the graph and the text form."""
        return render_html(self.data)

    def to_json(self) -> str:
        return self._json

    def _repr_html_(self) -> str:
        return render_html_fragment(self.data)

    def save(self, path: "os.PathLike[str] | str") -> str:
        """Writes the form the extension names; returns the path written."""
        path = os.fspath(path)
        ext = os.path.splitext(path)[1].lower()
        render = {".svg": self.to_svg, ".html": self.to_html, ".htm": self.to_html,
                  ".json": self.to_json}.get(ext, self.to_text)
        with open(path, "w", encoding="utf-8") as f:
            f.write(render())
        return path

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        relations = len(self.data.get("relations", []))
        return f"<PlanExplanation: {relations} relations, producer {self.data.get('producer')!r}>"


def explain(plan: PlanLike, spark=None, root: Optional[int] = None,
            params: Optional[Mapping[int, Any]] = None) -> PlanExplanation:
    """Explains a Substrait plan: what each relation and function became in Catalyst.

    ``plan``, ``root`` and ``params`` are as for ``spark.read.substrait``; ``spark`` is the
    (classic) session whose catalog resolves the plan's named tables, by default the
    active one. Raises :class:`spark_substrait.SubstraitPlanError` where reading the plan
    would, and NotImplementedError on a Spark Connect session: the explorer runs in the
    driver JVM, which a Connect client does not have.
    """
    check_root(root, "spark_substrait.explain")
    if spark is None:
        from pyspark.sql import SparkSession

        spark = SparkSession.getActiveSession()
        if spark is None:
            raise ValueError("spark_substrait.explain: no active SparkSession; pass spark=")
    kind, payload = plan_payload(plan)
    entry = entry_point(spark, "spark_substrait.explain")
    jparams = java_params(spark, params) if params is not None else None
    with java_errors_as_plan_errors():
        run = entry.explainJson if kind == "json" else entry.explain
        document = run(spark._jsparkSession, payload, root, jparams)
    return PlanExplanation(document)
