"""The explain document as HTML: the SVG graph, then the text form (with Spark's analyzed
and optimized plans) folded below it. Self-contained: no script, style sheet or font to
fetch, so it renders in a notebook cell and as a saved file alike."""

from html import escape
from typing import Any

from spark_substrait._explain.svg import render_svg
from spark_substrait._explain.text import render_text


def render_html_fragment(doc: dict[str, Any]) -> str:
    """For a notebook cell (``_repr_html_``): a scrollable graph and the text form."""
    return ('<div class="spark-substrait-explain">'
            '<div style="overflow:auto; max-width:100%">' + render_svg(doc) + "</div>"
            "<details><summary>Text (with Spark's analyzed and optimized plans)</summary>"
            '<pre style="font-size:12px">' + escape(render_text(doc)) + "</pre></details></div>")


def render_html(doc: dict[str, Any]) -> str:
    """A complete page."""
    title = escape(f"Substrait plan explained (producer: {doc['producer'] or 'unnamed'})")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head>"
            "<body style=\"font-family: sans-serif\"><h1 style=\"font-size:16px\">" + title + "</h1>"
            + render_html_fragment(doc) + "</body></html>\n")
