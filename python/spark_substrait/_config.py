"""Where the bundled jar is, and the two settings that enable spark-substrait."""

import glob
import os
import re
from typing import Optional

EXTENSION_CLASS = "io.sparksubstrait.SubstraitExtensions"
RELATION_PLUGIN_CLASS = "io.sparksubstrait.connect.SubstraitRelationPlugin"
JAR_ENV = "SPARK_SUBSTRAIT_JAR"

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def jar_path(spark_version: Optional[str] = None) -> str:
    """The spark-substrait jar for a Spark version: ``$SPARK_SUBSTRAIT_JAR`` if set, else the
    bundled jar built for that Spark's minor version.

    ``spark_version`` defaults to the installed PySpark's (the driver's Spark): the wheel
    carries one jar per supported Spark (``spark-substrait-spark35_2.12-…``,
    ``spark-substrait-spark43_2.13-…``), because each is compiled against its Spark.
    """
    override = os.environ.get(JAR_ENV)
    if override:
        if not os.path.isfile(override):
            raise FileNotFoundError(f"{JAR_ENV}={override} does not name a file")
        return os.path.abspath(override)
    version = spark_version or _pyspark_version()
    minor = "".join(version.split(".")[:2])
    jar_dir = os.path.join(_PACKAGE_DIR, "jars")
    jars = sorted(glob.glob(os.path.join(jar_dir, f"spark-substrait-spark{minor}_*.jar")))
    if not jars:
        bundled = sorted(os.path.basename(j) for j in glob.glob(os.path.join(jar_dir, "spark-substrait-*.jar")))
        raise FileNotFoundError(
            f"No spark-substrait jar for Spark {version} is bundled in {jar_dir} (bundled: "
            f"{', '.join(bundled) or 'none'}): install a spark-substrait build for this Spark "
            f"(its build runs build/sbt with SPARK_VERSION={version}), or set {JAR_ENV} to the jar's path.")
    return max(jars, key=os.path.getmtime)


def _pyspark_version() -> str:
    import pyspark

    return pyspark.__version__


def configure(builder):
    """Adds the bundled jar to ``spark.jars`` and the extension to ``spark.sql.extensions``.

    Values already set on the builder (or in ``spark-defaults.conf``) are kept: ours are
    appended to the comma-separated lists. Returns the builder, so calls can be chained::

        spark = spark_substrait.configure(SparkSession.builder.master("local[2]")).getOrCreate()
    """
    jars = _append(_existing(builder, "spark.jars"), jar_path())
    extensions = _append(_existing(builder, "spark.sql.extensions"), EXTENSION_CLASS)
    return builder.config("spark.jars", jars).config("spark.sql.extensions", extensions)


def connect_server_conf(existing: Optional[dict[str, str]] = None) -> dict[str, str]:
    """The settings a Spark Connect server needs so that its clients can call
    ``spark.read.substrait`` (and the SQL functions): the jar in ``spark.jars``, the
    extension in ``spark.sql.extensions`` and the relation plugin in
    ``spark.connect.extensions.relation.classes``.

    Values in ``existing`` (e.g. the server's other settings) are kept: ours are appended
    to those comma-separated lists. As command-line arguments of
    ``start-connect-server.sh`` or ``spark-submit``::

        args = [a for k, v in spark_substrait.connect_server_conf().items() for a in ("--conf", f"{k}={v}")]
    """
    existing = existing or {}
    wanted = {"spark.jars": jar_path(), "spark.sql.extensions": EXTENSION_CLASS,
              "spark.connect.extensions.relation.classes": RELATION_PLUGIN_CLASS}
    return {key: _append(existing.get(key), value) for key, value in wanted.items()}


def _append(existing: Optional[str], value: str) -> str:
    items: list[str] = [s.strip() for s in (existing or "").split(",") if s.strip()]
    if value not in items:
        items.append(value)
    return ",".join(items)


def _existing(builder, key: str) -> Optional[str]:
    options = getattr(builder, "_options", None) or {}
    if key in options and options[key] is not None:
        return str(options[key])
    # A key set in spark-defaults.conf would be overridden by the builder's value: keep it.
    return _spark_defaults().get(key)


def _spark_defaults() -> dict[str, str]:
    conf_dir = os.environ.get("SPARK_CONF_DIR")
    if not conf_dir and os.environ.get("SPARK_HOME"):
        conf_dir = os.path.join(os.environ["SPARK_HOME"], "conf")
    if not conf_dir:
        return {}
    path = os.path.join(conf_dir, "spark-defaults.conf")
    if not os.path.isfile(path):
        return {}
    values = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in "#!":
                continue
            parts = re.split(r"\s*[=:\s]\s*", line, maxsplit=1)
            if len(parts) == 2:
                values[parts[0]] = parts[1].strip()
    return values
