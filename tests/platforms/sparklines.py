"""The Spark lines the platform tests run on, as a cluster runs them: that line's PySpark in a
cached virtualenv of its own (``build/venvs/pyspark-<version>``, ignored), the project's jar
for that line handed over as a cluster library (``spark.jars``), the Python package on the
driver (``PYTHONPATH`` at the checkout's ``python/``, not installed), and the table formats
fetched by Spark itself from Maven Central (``spark.jars.packages``, as ``--packages``), into
``build/cache/ivy``.

The versions are the newest each table format supports (found on Maven Central, 2026-12-07):
Delta Lake 4.4.0 is built for Spark 4.0, 4.1 and 4.2 (``delta-spark_4.x_2.13``), Delta 3.3.3 for
Spark 3.5; Iceberg 1.12.0 for Spark 3.5 and 4.1 (for 4.0 the newest is 1.11.0; none yet for 4.2
or 4.3). docs/install.md's matrix says the same.
"""

import fcntl
import os
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # tests/: helpers

from helpers import EXTENSION_CLASS, REPO, clean_env  # noqa: E402

VENVS = REPO / "build" / "venvs"
IVY = REPO / "build" / "cache" / "ivy"
JARS = REPO / "jvm" / "target" / "jars"


@dataclass(frozen=True)
class SparkLine:
    version: str                # the PySpark release, e.g. 4.1.4
    scala: str                  # 2.12 or 2.13
    delta: str | None           # the Maven coordinate of the newest Delta Lake built for this line
    iceberg: str | None         # the same for Iceberg's Spark runtime

    @property
    def minor(self) -> str:
        return ".".join(self.version.split(".")[:2])

    @property
    def venv(self) -> Path:
        return VENVS / f"pyspark-{self.version}"

    @property
    def python(self) -> Path:
        """The line's interpreter, its virtualenv made the first time (pip's cache keeps it fast after)."""
        python = self.venv / "bin" / "python"
        stamp = self.venv / ".ready"
        if not stamp.exists():
            with _locked(f"venv-{self.version}"):
                if not stamp.exists():
                    subprocess.run([sys.executable, "-m", "venv", "--clear", str(self.venv)], check=True, timeout=300)
                    subprocess.run([str(python), "-m", "pip", "install", "-q", f"pyspark=={self.version}",
                                    # what the package and the scripts import besides PySpark
                                    *_driver_requirements(self)],
                                   check=True, timeout=1800)
                    stamp.write_text(self.version, encoding="utf-8")
        return python

    @cached_property  # a subprocess asks the line's pyspark; every driver's env() needs it
    def spark_home(self) -> Path:
        site = subprocess.run([str(self.python), "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
                              check=True, capture_output=True, text=True, timeout=120)
        return Path(site.stdout.strip())

    @cached_property  # the staleness check walks the sources: once per process, not per driver
    def jar(self) -> Path:
        """The project's jar for this line, built the first time (``SPARK_VERSION=… build/sbt jvm/assembly``)."""
        pattern = f"spark-substrait-spark{self.minor.replace('.', '')}_{self.scala}-*.jar"
        found = sorted(JARS.glob(pattern))
        if not found or _stale(found[-1]):
            with _locked("sbt"):  # the same lock dev/common.sh's sbt() takes
                found = sorted(JARS.glob(pattern))
                if not found or _stale(found[-1]):
                    subprocess.run([str(REPO / "build" / "sbt"), "jvm/assembly"], cwd=REPO, check=True,
                                   env={**os.environ, "SPARK_VERSION": self.version}, timeout=3600)
                    found = sorted(JARS.glob(pattern))
        assert found, f"no jar {pattern} in {JARS}"
        return found[-1]

    def env(self, **extra: str) -> dict[str, str]:
        """A driver's environment on this line: its Spark, our package on the path, its Python on executors."""
        return clean_env(SPARK_HOME=str(self.spark_home), PYTHONPATH=str(REPO / "python"),
                         PYSPARK_PYTHON=str(self.python), **extra)

    def conf(self, *formats: str, extensions: str = EXTENSION_CLASS) -> dict[str, str]:
        """Settings as a cluster's spark-defaults would hold them: the jar, the extensions, and the
        named table formats (``delta``, ``iceberg``) as packages with their session extensions."""
        packages, session_extensions = [], []
        for name in formats:
            coordinate = getattr(self, name)
            assert coordinate, f"no {name} release for Spark {self.minor}"
            packages.append(coordinate)
            session_extensions.append({"delta": "io.delta.sql.DeltaSparkSessionExtension",
                                       "iceberg": "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions"}[name])
        conf = {"spark.jars": str(self.jar),
                "spark.sql.extensions": ",".join([*session_extensions, extensions])}
        if "delta" in formats:  # Delta's tables in the session catalog, as Delta's docs set it up
            conf["spark.sql.catalog.spark_catalog"] = "org.apache.spark.sql.delta.catalog.DeltaCatalog"
        if packages:
            conf["spark.jars.packages"] = ",".join(packages)
            conf["spark.jars.ivy"] = str(IVY)
        return conf


LINES = {line.minor: line for line in (
    SparkLine("3.5.9", "2.12", "io.delta:delta-spark_2.12:3.3.3",
              "org.apache.iceberg:iceberg-spark-runtime-3.5_2.12:1.12.0"),
    SparkLine("4.1.4", "2.13", "io.delta:delta-spark_4.1_2.13:4.4.0",
              "org.apache.iceberg:iceberg-spark-runtime-4.1_2.13:1.12.0"),
    SparkLine("4.2.1", "2.13", "io.delta:delta-spark_4.2_2.13:4.4.0", None),
    SparkLine("4.3.0", "2.13", None, None),
)}


def _driver_requirements(line: SparkLine):
    """What a driver script imports besides PySpark, pinned as in requirements-test.txt."""
    wanted = ("pandas", "pyarrow", "numpy", "protobuf", "grpcio", "grpcio-status", "googleapis-common-protos",
              "zstandard")
    if line.minor == "3.5":  # PySpark 3.5's pandas support predates numpy 2 and pandas 2.3's wheels here
        wanted = ("protobuf",)
    pins = {}
    for raw in (REPO / "requirements-test.txt").read_text(encoding="utf-8").splitlines():
        name, _, version = raw.strip().partition("==")
        if name in wanted:
            pins[name] = f"{name}=={version}"
    return list(pins.values())


@contextmanager
def _locked(name: str):
    path = Path("/tmp/sbt.lock") if name == "sbt" else VENVS / f".{name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _stale(jar: Path) -> bool:
    """A source or a build file newer than the jar (dev/common.sh's ensure_jar decides the same):
    a stale jar would test old code."""
    built = jar.stat().st_mtime
    sources = [*(REPO / "jvm" / "src" / "main").rglob("*"), *(REPO / "proto").rglob("*"), REPO / "build.sbt",
               *(p for p in (REPO / "project").iterdir() if p.is_file())]
    return any(p.is_file() and p.stat().st_mtime > built for p in sources)
