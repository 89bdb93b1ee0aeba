"""spark-substrait: run Substrait plans on Apache Spark.

::

    import spark_substrait                     # adds DataFrameReader.substrait
    from pyspark.sql import SparkSession
    spark = spark_substrait.configure(SparkSession.builder.master("local[2]")).getOrCreate()
    df = spark.read.substrait(plan)  # bytes | JSON str | substrait Plan message | .bin/.json path
    print(spark_substrait.explain(plan))  # what each relation became in Catalyst (docs/explain.md)
    plan = spark_substrait.to_substrait(df)  # a DataFrame's plan as Substrait (docs/writing.md)

    # a plan's own extension functions, mapped to what Spark calls (docs/extending.md)
    spark_substrait.register_function(spark, "extension:org.example:my_functions", "my_add", sql="($1 + $2) * 2")

The same ``spark.read.substrait`` works on a Spark Connect session
(``SparkSession.builder.remote("sc://...")``) whose server runs with
:func:`connect_server_conf`.
"""

from spark_substrait._config import (
    EXTENSION_CLASS,
    RELATION_PLUGIN_CLASS,
    configure,
    connect_server_conf,
    jar_path,
)
from spark_substrait._errors import (
    SubstraitInvalidPlanError,
    SubstraitNotInstalledError,
    SubstraitPlanError,
    SubstraitUnsupportedError,
    from_connect,
)
from spark_substrait._explain import PlanExplanation, explain
from spark_substrait._functions import (
    register_extension_yaml,
    register_function,
    registered_functions,
    unregister_function,
)
from spark_substrait._reader import install as _install
from spark_substrait._writer import to_substrait

__version__ = "0.1.0"

__all__ = [
    "EXTENSION_CLASS",
    "PlanExplanation",
    "RELATION_PLUGIN_CLASS",
    "SubstraitInvalidPlanError",
    "SubstraitNotInstalledError",
    "SubstraitPlanError",
    "SubstraitUnsupportedError",
    "configure",
    "explain",
    "connect_server_conf",
    "from_connect",
    "jar_path",
    "register_extension_yaml",
    "register_function",
    "registered_functions",
    "to_substrait",
    "unregister_function",
]

_install()
