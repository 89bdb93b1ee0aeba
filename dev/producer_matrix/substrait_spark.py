"""substrait-java's Spark module (io.substrait.spark.logical.ToSubstraitRel) as a producer:
a release resolved from Maven Central with mvn into build/producers/m2 (it brings the Spark
and Scala it was built for: 0.36.0 is io.substrait:spark, Spark 3.4.2, Scala 2.12), our
driver (SubstraitSparkWriter.java) compiled against its classpath and run in a local
SparkSession of that Spark."""

import re
from pathlib import Path

import maven

HERE = Path(__file__).resolve().parent

# Maven artifact per release: until 0.36.0 one artifact `spark`; later releases publish one
# artifact per Spark line (spark34_2.12, spark35_2.12, spark40_2.13: spark/build.gradle.kts
# of the release), which Maven Central does not serve here (404 for their metadata).
ARTIFACTS = {"0.36.0": "spark"}

# What Spark 3.4+ needs opened on Java 17 (spark-submit passes the same).
OPENS = [f"--add-opens=java.base/{p}=ALL-UNNAMED" for p in (
    "java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio", "java.util",
    "java.util.concurrent", "java.util.concurrent.atomic", "sun.nio.ch", "sun.nio.cs", "sun.security.action",
    "sun.util.calendar")]


def resolve_and_compile(version: str, home: Path) -> None:
    artifact = f"io.substrait:{ARTIFACTS.get(version, 'spark')}:{version}"
    name, dependency = f"substrait-java-spark-{version}", ARTIFACTS.get(version, "spark")
    maven.resolve(home, maven.pom(name, dependency, version), artifact)
    # substrait-java's core brings a newer jackson-databind than the jackson-module-scala of its
    # Spark, which then refuses to start (Spark 3.4.2's module 2.14.2 with databind 2.16.1): the
    # second resolution aligns all of Jackson on databind's release.
    cp = maven.classpath(home)
    databind = re.search(r"jackson-databind-([0-9.]+)\.jar", cp)
    scala_module = re.search(r"jackson-module-scala_[0-9.]+-([0-9.]+)\.jar", cp)
    if databind and scala_module and databind.group(1) != scala_module.group(1):
        maven.resolve(home, maven.pom(name, dependency, version, jackson=databind.group(1)), artifact)
    maven.compile_driver(home, HERE / "writers" / "SubstraitSparkWriter.java", artifact)


def command(home: Path) -> list:
    return maven.java(home, "SubstraitSparkWriter", OPENS)
