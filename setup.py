"""Packaging of the Python side: the `spark_substrait` package with the assembled jars inside.

Building the package (``pip wheel .``, ``pip install .``, ``pip install -e .``) first makes
sure the jar for the pinned Spark (requirements-test.txt) exists: if ``jvm/target/jars/``
holds none, it runs ``build/sbt jvm/assembly``. Every jar in ``jvm/target/jars/`` (one per
Spark minor version; ``dev/test-matrix`` builds them all, ``dev/test`` the oldest and newest)
is then copied into ``python/spark_substrait/jars/`` (ignored by git), so that they are
package data of the wheel; at run time ``jar_path()`` picks the one matching PySpark.
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

VERSION = "0.1.0"
ROOT = Path(__file__).resolve().parent
JAR_DIR = ROOT / "python" / "spark_substrait" / "jars"
TARGET_DIR = ROOT / "jvm" / "target" / "jars"
JAR_PATTERN = f"spark-substrait-spark*_2.1?-{VERSION}.jar"


def _pinned_jar_pattern():
    """The jar name pattern of the pinned pyspark's Spark, e.g. spark-substrait-spark43_2.13-…"""
    requirements = ROOT / "requirements-test.txt"
    if not requirements.is_file():
        return JAR_PATTERN
    pinned = re.search(r"^pyspark==(\d+)\.(\d+)", requirements.read_text(), re.M)
    return f"spark-substrait-spark{pinned.group(1)}{pinned.group(2)}_2.1?-{VERSION}.jar" if pinned else JAR_PATTERN


def _assembled_jars():
    return sorted(TARGET_DIR.glob(JAR_PATTERN))


def ensure_jar():
    """Builds the pinned Spark's jar when it is missing and copies every built jar into the package."""
    if not list(TARGET_DIR.glob(_pinned_jar_pattern())):
        sbt = ROOT / "build" / "sbt"
        if not sbt.is_file():
            if list(JAR_DIR.glob(JAR_PATTERN)):
                return  # e.g. a source distribution that already carries the jars
            sys.exit(f"setup.py: no jar in {TARGET_DIR} and no {sbt} to build it")
        print("setup.py: building the jar: build/sbt jvm/assembly", file=sys.stderr, flush=True)
        subprocess.check_call([str(sbt), "jvm/assembly"], cwd=str(ROOT))
        if not list(TARGET_DIR.glob(_pinned_jar_pattern())):
            sys.exit(f"setup.py: build/sbt jvm/assembly produced no {_pinned_jar_pattern()} in {TARGET_DIR}")
    jars = _assembled_jars()
    JAR_DIR.mkdir(parents=True, exist_ok=True)
    names = {jar.name for jar in jars}
    for stale in JAR_DIR.glob("*.jar"):
        if stale.name not in names:
            stale.unlink()
    for jar in jars:
        dest = JAR_DIR / jar.name
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
    packages=["spark_substrait", "spark_substrait.cli", "spark_substrait._explain"],
    package_data={"spark_substrait": ["jars/*.jar", "py.typed"]},
    include_package_data=False,
    zip_safe=False,
    install_requires=["pyspark>=3.5,<4.4"],
    extras_require={"substrait": ["substrait"],
                    # spark.read.substrait on Spark Connect sessions: pyspark's Connect client
                    # (the server-side plugin needs Spark 4). PySpark warns that it does not
                    # fully support pandas 3 yet, which pip would pick otherwise.
                    "connect": ["pyspark[connect]>=4.0,<4.4", "pandas>=2.2,<3"]},
    entry_points={"console_scripts": ["spark-substrait = spark_substrait.cli:main"]},
    cmdclass={"build_py": BuildPyWithJar},
)
