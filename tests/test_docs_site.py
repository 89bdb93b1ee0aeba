"""The documentation site (mkdocs.yml, dev/mkdocs_hooks.py; dev/docs builds it, dev/lint runs
that): every docs/ page is in the nav, it builds in strict mode with the generated pages, and a
broken relative link or anchor fails the build. The hooks' link rewriting and Scala reading are
checked on their own."""

import re
import shutil
import sys

import pytest

from helpers import REPO

sys.path.insert(0, str(REPO / "dev"))
mkdocs_hooks = pytest.importorskip("mkdocs_hooks", reason="requirements-docs.txt is not installed (dev/docs)")


def nav_pages():
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config[config.index("\nnav:"):config.index("\nvalidation:")]
    return set(re.findall(r":\s+([\w/.-]+\.md)\s*$", nav, re.M))


def test_the_nav_lists_every_page_and_the_generated_ones():
    pages = {p.relative_to(REPO / "docs").as_posix() for p in (REPO / "docs").rglob("*.md")}
    # The benchmark runs' results files are left out of the nav (mkdocs.yml's not_in_nav) and listed by
    # performance.md instead, every one.
    results = {p for p in pages if p.startswith("results/")}
    assert nav_pages() == pages - results | {"index.md", "changelog.md"}
    performance = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    assert results and all(f"]({p})" in performance for p in results)


def test_links_are_rewritten_for_the_site():
    rewrite = mkdocs_hooks.rewrite_links
    readme = ("See [cli](docs/cli.md#exit-statuses), ![pic](docs/explain-q06.svg), [l](LICENSE), "
              "[c](CHANGELOG.md), [gone](docs/gone.md), [web](https://substrait.io), [a](#top).\n"
              "```\n[not a link](docs/cli.md)\n```\n")
    assert rewrite(readme, "README.md", "index.md") == (
        "See [cli](cli.md#exit-statuses), ![pic](explain-q06.svg), [l](repo/LICENSE), "
        "[c](changelog.md), [gone](gone.md), [web](https://substrait.io), [a](#top).\n"
        "```\n[not a link](docs/cli.md)\n```\n")
    # A page in a folder, a link out of docs/ to a file that exists and one that does not.
    assert rewrite("[r](../../README.md) [t](../../dev/tpcds/README.md) [x](../../dev/none.sh)",
                   "docs/api/python.md", "api/python.md") == \
        "[r](../index.md) [t](../repo/dev/tpcds/README.md) [x](../../dev/none.sh)"
    assert mkdocs_hooks.outside_links("[t](../dev/tpcds/README.md) [c](cli.md)", "docs/tpcds.md") == \
        ["dev/tpcds/README.md"]


def test_the_scala_entry_points_are_read_from_their_sources():
    members = {name: mkdocs_hooks.scala_members((mkdocs_hooks.SCALA_SOURCES / file).read_text(encoding="utf-8"))
               for name, file in mkdocs_hooks.SCALA_ENTRY_POINTS.items()}
    plans = [m for m in members["SubstraitPlans"] if m["kind"] == "def"]
    names = {m["name"] for m in plans}
    assert {"read", "readJson", "explain", "explainJson", "write", "writeJson", "rootCount", "readFile"} <= names
    # Private members and a method's locals are not the API.
    assert not names & {"limits", "parameterMap", "toDataFrame", "decoded", "bytes", "written"}
    assert all(m["owner"] == "SubstraitPlans" for m in plans)
    assert sum(m["name"] == "read" for m in plans) == 3
    read = next(m for m in plans if m["signature"] == "def read(session: SparkSession, plan: Array[Byte]): DataFrame")
    assert read["doc"] == "A binary-encoded `substrait.Plan` with one root."
    implicit = members["implicits"]
    assert [m["name"] for m in implicit if m["kind"] == "implicit class"] == \
        ["SubstraitDataFrameWriter", "SubstraitDataFrameReader"]
    assert [m["name"] for m in implicit if m["owner"] == "SubstraitDataFrameReader"] == ["substrait"] * 6
    assert all(m["doc"] for m in implicit if m["kind"] == "def")  # an undocumented overload shares its neighbour's words
    assert [m["kind"] for m in members["SubstraitExtensions"]] == ["class"]


def build(tmp_path, docs_dir=None):
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    overrides = {"site_dir": str(tmp_path / "site")}
    if docs_dir is not None:
        overrides["docs_dir"] = str(docs_dir)
    config = load_config(config_file=str(REPO / "mkdocs.yml"), **overrides)
    mkdocs_build(config)
    return tmp_path / "site"


def test_the_site_builds_with_its_generated_pages(tmp_path):
    site = build(tmp_path)
    python = (site / "api" / "python.html").read_text(encoding="utf-8")
    for name in ("to_substrait", "configure", "explain", "SubstraitPlanError", "PlanExplanation", "jar_path"):
        assert name in python, name
    assert ":class:" not in python and ":func:" not in python
    scala = (site / "api" / "scala.html").read_text(encoding="utf-8")
    assert "scala-api:" not in scala and "def readJson(session: SparkSession, json: String): DataFrame" in scala
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="cli.html"' in index and 'href="changelog.html"' in index
    assert (site / "repo" / "LICENSE").is_file()
    assert "Unreleased" in (site / "changelog.html").read_text(encoding="utf-8")


def test_broken_links_and_anchors_fail_the_build(tmp_path):
    from mkdocs.exceptions import Abort

    docs = tmp_path / "docs"
    shutil.copytree(REPO / "docs", docs)
    broken = ["[x](writing.md#no-such-anchor)", "[x](#nowhere)", "[x](no-such-page.md)", "[x](../dev/no-such-script)"]
    with open(docs / "cli.md", "a", encoding="utf-8") as f:
        f.write("\n" + " ".join(broken) + "\n")
    with pytest.raises(Abort, match=f"Aborted with {len(broken)} warnings in strict mode"):
        build(tmp_path, docs)
