"""One module per extension YAML (or a few related ones), each registering its specs with
``spec.register`` when imported. Every module of this package but ``common`` is a family."""

import importlib
import pkgutil


def load_all() -> None:
    for m in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if m.name != "common":
            importlib.import_module(f"{__name__}.{m.name}")
