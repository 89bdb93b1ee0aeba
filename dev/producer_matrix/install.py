"""Installs each release once into build/producers/<id>/ (venv/ for Python producers,
classpath.txt for isthmus and substrait-java's Spark module). A release that does not install keeps its pip or Maven error in
install-failed.txt and is not tried again until that file is deleted (or --retry)."""

import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from releases import Release

HERE = Path(__file__).resolve().parent


def venv_python(home: Path) -> Path:
    return home / "venv" / "bin" / "python"


def failure_of(home: Path) -> str | None:
    f = home / "install-failed.txt"
    return f.read_text(encoding="utf-8") if f.exists() else None


def installed(home: Path) -> bool:
    return (home / "installed.txt").exists()


def _error_lines(output: str) -> str:
    """The lines of pip's or Maven's output that say why (the whole tail when none stands out)."""
    lines = [l for l in output.splitlines() if l.strip()]
    marked = [l for l in lines if l.lstrip().startswith(("ERROR", "error:", "[ERROR]", "×", "╰─>"))
              or "Could not" in l or "requires a different Python" in l]
    return "\n".join((marked or lines)[-12:])


def _install_python(release: Release, home: Path) -> None:
    venv = home / "venv"
    if venv.exists():
        shutil.rmtree(venv)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv_python(home)), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    done = subprocess.run(pip + release.requirements, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pip install {' '.join(release.requirements)}\n" + _error_lines(done.stdout + done.stderr))
    freeze = subprocess.run([str(venv_python(home)), "-m", "pip", "freeze"], capture_output=True, text=True, check=True)
    (home / "installed.txt").write_text(freeze.stdout, encoding="utf-8")


def _install_isthmus(release: Release, home: Path) -> None:
    from isthmus import resolve_and_compile
    resolve_and_compile(release.version, home)


def _install_substrait_spark(release: Release, home: Path) -> None:
    from substrait_spark import resolve_and_compile
    resolve_and_compile(release.version, home)


def install(release: Release, cache: Path, retry: bool = False) -> str:
    home = cache / release.id
    home.mkdir(parents=True, exist_ok=True)
    if installed(home):
        return "installed (cached)"
    if failure_of(home) is not None and not retry:
        return "did not install (cached): " + failure_of(home).splitlines()[-1]
    (home / "install-failed.txt").unlink(missing_ok=True)
    try:
        how = {"isthmus": _install_isthmus, "substrait-java-spark": _install_substrait_spark}
        how.get(release.producer, _install_python)(release, home)
        return "installed"
    except Exception as e:  # the release's install error is a result of the matrix
        (home / "install-failed.txt").write_text(str(e).strip() + "\n", encoding="utf-8")
        return "did not install: " + str(e).strip().splitlines()[-1]


def install_all(releases: list[Release], cache: Path, retry: bool = False, workers: int = 3) -> None:
    def one(r: Release) -> None:
        print(f"  {r.id}: {install(r, cache, retry)}", flush=True)
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, releases))
