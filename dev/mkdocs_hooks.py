"""mkdocs hooks (mkdocs.yml `hooks:`): what the documentation site adds to docs/ at build time.

Nothing here writes into the source tree; every page it makes exists only in the build.

- ``index.md`` is README.md and ``changelog.md`` is CHANGELOG.md, their links rewritten for
  the site (``docs/cli.md`` -> ``cli.md``).
- A link that leaves docs/ for another file of the repository (``../dev/tpcds/README.md``,
  the README's ``LICENSE``) is checked to exist and served as a copy under ``repo/``; a link
  to a missing file is left as written, so that mkdocs' link validation (strict) fails on it.
- The Scala entry points (``SubstraitPlans``, ``implicits``, ``SubstraitExtensions``) are read
  from their sources into docs/api/scala.md where it says ``<!-- scala-api:NAME -->``: each
  public method with its signature and Scaladoc, so the page cannot drift from the code.
"""

import posixpath
import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
DOCS = "docs"
# Repository files that are pages of the site, under another name.
PAGES = {"README.md": "index.md", "CHANGELOG.md": "changelog.md"}
SCALA_SOURCES = ROOT / "jvm" / "src" / "main" / "scala" / "io" / "sparksubstrait"
SCALA_ENTRY_POINTS = {
    "SubstraitPlans": "SubstraitPlans.scala",
    "implicits": "implicits.scala",
    "SubstraitExtensions": "SubstraitExtensions.scala",
}

# [text](target) and ![alt](target); the text may hold `code` and one level of brackets.
_LINK = re.compile(r"(!?\[(?:[^\[\]]|\[[^\]]*\])*\]\()([^)\s]+)(\))")
_FENCE = re.compile(r"^(```|~~~)")


# ---------------------------------------------------------------------------- links


def _is_relative(target: str) -> bool:
    return not (re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith(("#", "/")))


def _repo_path_of(page_repo_path: str, target: str) -> str:
    """The repository path a relative link of the page at ``page_repo_path`` names."""
    return posixpath.normpath(posixpath.join(posixpath.dirname(page_repo_path), target))


def _site_path_of(repo_path: str) -> str | None:
    """Where a repository file is in the site (docs_dir-relative), None outside it."""
    if repo_path in PAGES:
        return PAGES[repo_path]
    if repo_path.startswith(DOCS + "/"):
        return repo_path[len(DOCS) + 1:]
    if repo_path.startswith("..") or not (ROOT / repo_path).is_file():
        return None
    return "repo/" + repo_path


def rewrite_links(markdown: str, page_repo_path: str, page_site_path: str) -> str:
    """The page's relative links, as the site needs them (outside code blocks)."""

    def fix(m: "re.Match[str]") -> str:
        target = m.group(2)
        if not _is_relative(target):
            return m.group(0)
        path, _, anchor = target.partition("#")
        site = _site_path_of(_repo_path_of(page_repo_path, path))
        if site is None:
            return m.group(0)  # a missing file: mkdocs' validation reports it
        rel = posixpath.relpath(site, posixpath.dirname(page_site_path) or ".")
        return m.group(1) + rel + ("#" + anchor if anchor else "") + m.group(3)

    out, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
        out.append(line if fenced else _LINK.sub(fix, line))
    return "".join(out)


def outside_links(markdown: str, page_repo_path: str) -> list[str]:
    """Repository files outside docs/ (and not pages) that the page links to."""
    found = []
    for m in _LINK.finditer(markdown):
        if _is_relative(m.group(2)):
            repo_path = _repo_path_of(page_repo_path, m.group(2).partition("#")[0])
            site = _site_path_of(repo_path)
            if site is not None and site.startswith("repo/"):
                found.append(repo_path)
    return found


# ---------------------------------------------------------------------------- Scala API


def _scaladoc_text(comment: str) -> str:
    lines = [re.sub(r"^\s*\*\s?", "", line) for line in comment.strip()[3:-2].splitlines()]
    text = " ".join(line.strip() for line in lines if line.strip())
    # [[a.b.C]] -> `C`
    return re.sub(r"\[\[(?:[\w.]+\.)?([\w]+)\]\]", r"`\1`", text)


def _signature(lines: list[str], start: int) -> tuple[str, int]:
    """The declaration from ``lines[start]`` up to its body (``=`` or ``{`` at depth 0)."""
    text, depth, i = "", 0, start
    while i < len(lines):
        for j, ch in enumerate(lines[i]):
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and (ch == "{" or (ch == "=" and lines[i][j:j + 2] != "=>")):
                return re.sub(r"\s+", " ", (text + " " + lines[i][:j]).strip()), i
        text += " " + lines[i].strip()
        i += 1
    return re.sub(r"\s+", " ", text.strip()), i


def scala_members(source: str) -> list[dict[str, str]]:
    """The public declarations of a Scala source, in order: each ``kind`` (object, class,
    implicit class, def), ``name``, ``signature``, ``doc`` (its Scaladoc, or the previous
    overload's) and ``owner`` (the object or class it is in)."""
    lines = source.splitlines()
    members: list[dict[str, str]] = []
    doc, owners, i = "", [], 0
    decl = re.compile(r"^(\s*)((?:override\s+|implicit\s+|final\s+|case\s+)*)(def|class|object|trait|val)\s+(\w+)")
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("/**"):
            comment = [line]
            while "*/" not in lines[i]:
                i += 1
                comment.append(lines[i])
            doc = _scaladoc_text("\n".join(comment))
            i += 1
            continue
        m = decl.match(line)
        indent = len(m.group(1)) if m else 0
        while m and owners and owners[-1][0] >= indent:
            owners.pop()
        # Members only (at the owner's body level: not a method's locals), neither private nor overrides.
        member = m and indent == (owners[-1][0] + 2 if owners else 0)
        if member and "private" not in line.split(m.group(3))[0] and not m.group(2).startswith("override"):
            kind, name = (m.group(2) + m.group(3)).strip(), m.group(4)
            signature, end = _signature(lines, i)
            owner = owners[-1][1] if owners else ""
            if not doc and members and members[-1]["name"] == name and members[-1]["kind"] == kind:
                doc = members[-1]["doc"]  # an undocumented overload shares its neighbour's words
            members.append({"kind": kind, "name": name, "signature": signature, "doc": doc, "owner": owner})
            if kind != "def":
                owners.append((indent, name))
            doc = ""
            i = end + 1
            continue
        if stripped and not stripped.startswith(("@", "//")):
            doc = ""
        i += 1
    return members


def scala_api_markdown(name: str) -> str:
    source = (SCALA_SOURCES / SCALA_ENTRY_POINTS[name]).read_text(encoding="utf-8")
    out = []
    for m in scala_members(source):
        if m["kind"] == "def":
            out.append(f"- `{m['signature']}`" + (f"<br>{m['doc']}" if m["doc"] else ""))
        else:
            out.append(f"\n**`{m['signature']}`**" + (f" — {m['doc']}" if m["doc"] else "") + "\n")
    path = f"jvm/src/main/scala/io/sparksubstrait/{SCALA_ENTRY_POINTS[name]}"
    return "\n".join(out) + f"\n\n*Read from `{path}` when the site was built.*\n"


def fill_scala_api(markdown: str) -> str:
    return re.sub(r"<!-- scala-api:(\w+) -->", lambda m: scala_api_markdown(m.group(1)), markdown)


# ---------------------------------------------------------------------------- hooks


def _page_repo_path(src_uri: str) -> str:
    """The repository path of a site page: docs/X, or a page made from a repository file."""
    if src_uri.startswith("repo/"):
        return src_uri[len("repo/"):]
    by_site = {site: repo for repo, site in PAGES.items()}
    return by_site.get(src_uri, f"{DOCS}/{src_uri}")


def on_files(files, config):
    for repo_path, site_path in PAGES.items():
        if (ROOT / repo_path).is_file():
            files.append(File.generated(config, site_path, abs_src_path=str(ROOT / repo_path)))
    # The repository files the pages link to, and those files' own links (a README's).
    todo = [_page_repo_path(f.src_uri) for f in files if f.src_uri.endswith(".md")]
    copied = set()
    while todo:
        repo_path = todo.pop()
        source = ROOT / repo_path
        if not (repo_path.endswith(".md") and source.is_file()):
            continue
        for linked in outside_links(source.read_text(encoding="utf-8"), repo_path):
            if linked not in copied:
                copied.add(linked)
                files.append(File.generated(config, "repo/" + linked, abs_src_path=str(ROOT / linked)))
                todo.append(linked)
    return files


def on_page_markdown(markdown, page, config, files):
    src = page.file.src_uri
    return fill_scala_api(rewrite_links(markdown, _page_repo_path(src), src))


def on_page_content(html, page, config, files):
    """The API pages: the docstrings' reStructuredText roles (:class:`x`, :func:`x`) and
    literal-block markers (``::``), which Markdown leaves as written, tidied."""
    if not page.file.src_uri.startswith("api/"):
        return html
    html = re.sub(r":(?:class|func|meth|mod|attr|exc):(?=<code>)", "", html)
    html = re.sub(r"<p>::</p>\s*", "", html)
    return html.replace("::</p>", ":</p>")
