"""Packaging of the Python side: the `spark_substrait` package with the assembled jar inside.

Building the package (``pip wheel .``, ``pip install .``, ``pip install -e .``) first makes
sure the jar exists: if ``jvm/target/scala-2.13/`` holds none, it runs
``build/sbt jvm/assembly``. The jar is then copied into ``python/spark_substrait/jars/``
(ignored by git), so that it is package data of the wheel.
"""

import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

VERSION = "0.1.0"
ROOT = Path(__file__).resolve().parent
JAR_DIR = ROOT / "python" / "spark_substrait" / "jars"
TARGET_DIR = ROOT / "jvm" / "target" / "scala-2.13"
JAR_PATTERN = f"spark-substrait-spark*_2.13-{VERSION}.jar"


def _assembled_jar():
    jars = sorted(TARGET_DIR.glob(JAR_PATTERN), key=lambda p: p.stat().st_mtime)
    return jars[-1] if jars else None


def ensure_jar():
    """Builds the jar when it is missing and copies it into the package."""
    jar = _assembled_jar()
    if jar is None:
        sbt = ROOT / "build" / "sbt"
        if not sbt.is_file():
            if list(JAR_DIR.glob(JAR_PATTERN)):
                return  # e.g. a source distribution that already carries the jar
            sys.exit(f"setup.py: no jar in {TARGET_DIR} and no {sbt} to build it")
        print("setup.py: building the jar: build/sbt jvm/assembly", file=sys.stderr, flush=True)
        subprocess.check_call([str(sbt), "jvm/assembly"], cwd=str(ROOT))
        jar = _assembled_jar()
        if jar is None:
            sys.exit(f"setup.py: build/sbt jvm/assembly produced no {JAR_PATTERN} in {TARGET_DIR}")
    JAR_DIR.mkdir(parents=True, exist_ok=True)
    dest = JAR_DIR / jar.name
    for stale in JAR_DIR.glob("*.jar"):
        if stale.name != jar.name:
            stale.unlink()
    src_stat = jar.stat()
    if (not dest.is_file() or dest.stat().st_size != src_stat.st_size
            or dest.stat().st_mtime < src_stat.st_mtime):
        shutil.copy2(jar, dest)
        print(f"setup.py: bundled {jar.relative_to(ROOT)}", file=sys.stderr, flush=True)


class BuildPyWithJar(build_py):
    def run(self):
        ensure_jar()
        # A jar of an earlier build must not ride along into this wheel.
        shutil.rmtree(Path(self.build_lib) / "spark_substrait" / "jars", ignore_errors=True)
        super().run()


setup(
    name="spark-substrait",
    version=VERSION,
    description="Run Substrait plans on Apache Spark: a Spark SQL extension with a PySpark reader",
    long_description=(
        "Converts Substrait plans into Catalyst logical plans, so Spark's analyzer, optimizer "
        "and code generation run them. `import spark_substrait` adds "
        "`spark.read.substrait(plan)`; the wheel bundles the extension's jar."
    ),
    license="Apache-2.0",
    python_requires=">=3.9",
    package_dir={"": "python"},
    packages=["spark_substrait"],
    package_data={"spark_substrait": ["jars/*.jar"]},
    include_package_data=False,
    zip_safe=False,
    install_requires=["pyspark>=4.3,<4.4"],
    extras_require={"substrait": ["substrait"],
                    # spark.read.substrait on Spark Connect sessions: pyspark's Connect client.
                    "connect": ["pyspark[connect]>=4.3,<4.4"]},
    entry_points={"console_scripts": ["spark-substrait = spark_substrait.cli:main"]},
    cmdclass={"build_py": BuildPyWithJar},
)
