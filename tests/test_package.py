"""The Python package's layout: no module imports one that imports it back (directly or
through others, at the top or inside a function), and the package is typed (py.typed); the license setup.py names ships with it."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "python" / "spark_substrait"


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path, modules: set) -> set:
    """The package's modules `path` imports, anywhere in it (`from a import b` counts a.b when that is a module)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in modules:
                found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in modules)
    return found


def import_graph() -> dict:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: imports(path, set(paths)) - {name} for name, path in paths.items()}
    # A submodule's import runs its package's __init__ first; that edge is Python's, not a cycle of ours.
    for name in graph:
        graph[name] = {m for m in graph[name] if not name.startswith(m + ".")}
    return graph


def cycles(graph: dict) -> list:
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_the_package_has_no_import_cycle():
    graph = import_graph()
    assert "spark_substrait._plans" in graph["spark_substrait._connect"]  # the graph sees imports
    assert cycles(graph) == []


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_package_is_typed_and_its_subpackages_are_packages():
    assert (PACKAGE / "py.typed").is_file()
    for sub in ("cli", "_explain"):
        assert (PACKAGE / sub / "__init__.py").is_file()


def test_the_license_setup_py_names_is_in_the_repository_and_the_sdist():
    root = pathlib.Path(__file__).resolve().parent.parent
    text = (root / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert 'license="Apache-2.0"' in (root / "setup.py").read_text()
    includes = [line.split() for line in (root / "MANIFEST.in").read_text().splitlines() if line.startswith("include ")]
    assert any("LICENSE" in words for words in includes)
