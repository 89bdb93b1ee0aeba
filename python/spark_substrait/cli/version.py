"""``spark-substrait --version``: the package, the jars it bundles and the PySpark that picks
one of them (``jar_path()``), without starting a JVM: the jars' names say their Spark and
Scala versions.
"""

import argparse
import glob
import os
import re


class VersionAction(argparse.Action):
    """Prints :func:`version_text` and exits, as argparse's own ``version`` action would."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_text())
        parser.exit()


def version_text() -> str:
    from importlib import metadata

    import spark_substrait
    from spark_substrait import _config

    jars = sorted(glob.glob(os.path.join(os.path.dirname(spark_substrait.__file__), "jars", "spark-substrait-*.jar")))
    sparks = []
    for jar in jars:
        m = re.match(r"spark-substrait-spark(\d)(\d+)_(2\.1\d)-", os.path.basename(jar))
        sparks.append(f"Spark {m.group(1)}.{m.group(2)} (Scala {m.group(3)})" if m else os.path.basename(jar))
    try:
        pyspark = metadata.version("pyspark")
    except metadata.PackageNotFoundError:
        pyspark = "not installed"
    lines = [f"spark-substrait {spark_substrait.__version__}",
             f"jars for: {', '.join(sparks) or 'none bundled'}",
             f"PySpark: {pyspark}"]
    if os.environ.get(_config.JAR_ENV):
        lines.append(f"{_config.JAR_ENV}: {os.environ[_config.JAR_ENV]}")
    return "\n".join(lines)
