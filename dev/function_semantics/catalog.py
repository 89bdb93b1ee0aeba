"""The standard extension YAMLs of the pinned spec release: every function, its overloads
(argument types, enumeration arguments, options, return type) and how to instantiate them."""

import dataclasses
import os
import re
import subprocess

import yaml

from stypes import SType, parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclasses.dataclass
class ArgDecl:
    type: str | None = None               # a value argument's type pattern (decimal<P1,S1>, any1)
    enum: list[str] | None = None         # an enumeration argument's values
    name: str = ""


@dataclasses.dataclass
class Impl:
    args: list[ArgDecl]
    options: dict[str, list[str]]
    ret: str
    variadic: dict | None = None
    nullability: str = "MIRROR"
    window_type: str | None = None


@dataclasses.dataclass
class YamlFunction:
    ext: str
    name: str
    kind: str                             # scalar | aggregate | window
    description: str
    impls: list[Impl]


def spec_folder() -> str:
    return subprocess.check_output([os.path.join(ROOT, "build", "substrait-spec")], text=True).strip()


def load(folder: str | None = None) -> dict[tuple[str, str, str], YamlFunction]:
    folder = folder or os.path.join(spec_folder(), "extensions")
    out = {}
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".yaml") or f == "simple_extensions_schema.yaml":
            continue
        ext = f[:-5]
        with open(os.path.join(folder, f), encoding="utf-8") as fh:
            doc = yaml.safe_load(fh)
        for key, kind in (("scalar_functions", "scalar"), ("aggregate_functions", "aggregate"),
                          ("window_functions", "window")):
            for fn in doc.get(key) or []:
                impls = []
                for imp in fn.get("impls", []):
                    args = [ArgDecl(enum=[str(o) for o in a["options"]], name=a.get("name", "")) if "options" in a
                            else ArgDecl(type=str(a.get("value")), name=a.get("name", "")) for a in imp.get("args", [])]
                    opts = {k: [str(x) for x in v["values"]] for k, v in (imp.get("options") or {}).items()}
                    impls.append(Impl(args, opts, str(imp.get("return")), imp.get("variadic"),
                                      imp.get("nullability", "MIRROR"), imp.get("window_type")))
                key3 = (ext, fn["name"], kind)
                if key3 in out:   # a YAML may list a name twice (count of decimal output): merge
                    out[key3].impls.extend(impls)
                else:
                    out[key3] = YamlFunction(ext, fn["name"], kind, str(fn.get("description", "")), impls)
    return out


# ---- binding type patterns to concrete types ---------------------------------------------------------
_PATTERN = re.compile(r"^([A-Za-z_!0-9]+)\??(?:<(.*)>)?\??$")


def bind(pattern: str, t: SType, env: dict[str, object]) -> bool:
    """Matches a YAML type pattern against a concrete type, recording its parameters in env."""
    pattern = pattern.strip()
    m = _PATTERN.match(pattern)
    if not m:
        return False
    name, params = m.group(1).lower(), m.group(2)
    if name.startswith("any"):
        if name in env and env[name] != t:
            return False
        env[name] = t
        return True
    if name == "list":
        return t.kind == "list" and bind(params, t.elem, env)
    want = parse(name if not name.startswith("u!") else name).kind
    if want != t.kind:
        return False
    if params:
        names = [x.strip() for x in params.split(",")]
        values = {"decimal": [t.p, t.s]}.get(t.kind, [t.p])
        for n, v in zip(names, values, strict=True):
            if n.isdigit():
                if int(n) != v:
                    return False
            elif n in env and env[n] != v:
                return False
            else:
                env[n] = v
    return True


def _ternary(expr: str) -> str:
    m = re.match(r"^(.*?)\?(.*):(.*)$", expr)
    return f"(({m.group(2)}) if ({m.group(1)}) else ({m.group(3)}))" if m else expr


def return_type(ret: str, env: dict[str, object]) -> SType:
    """The concrete return type of a YAML return (a type, or a small program ending in one)."""
    lines = [x.strip() for x in ret.strip().splitlines() if x.strip()]
    scope = {k: v for k, v in env.items() if not isinstance(v, SType)}
    for line in lines[:-1]:
        name, expr = [x.strip() for x in line.split("=", 1)]
        scope[name] = eval(_ternary(expr), {"max": max, "min": min}, dict(scope))  # noqa: S307 - the spec's arithmetic
    last = lines[-1].replace("?", "")
    m = _PATTERN.match(last)
    name, params = m.group(1).lower(), m.group(2)
    if name.startswith("any"):
        return env[name]
    if name == "list":
        return SType("list", elem=return_type(params, env))
    if params:
        vals = [eval(x.strip(), {"max": max, "min": min}, dict(scope)) for x in params.split(",")]  # noqa: S307
        t = parse(name)
        if t.kind == "decimal":
            return SType("decimal", vals[0], vals[1])
        return SType(t.kind, vals[0])
    return parse(name)
