"""substrait-java's Spark module (io.substrait.spark.logical.ToSubstraitRel) as a producer:
a release resolved from Maven Central with mvn into build/producers/m2 (it brings the Spark
and Scala it was built for: 0.36.0 is io.substrait:spark, Spark 3.4.2, Scala 2.12), our
driver (SubstraitSparkWriter.java) compiled against its classpath and run in a local
SparkSession of that Spark."""

import re
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Maven artifact per release: until 0.36.0 one artifact `spark`; later releases publish one
# artifact per Spark line (spark34_2.12, spark35_2.12, spark40_2.13: spark/build.gradle.kts
# of the release), which Maven Central does not serve here (404 for their metadata).
ARTIFACTS = {"0.36.0": "spark"}

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.sparksubstrait.matrix</groupId><artifactId>substrait-java-spark-{v}</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.substrait</groupId><artifactId>{a}</artifactId><version>{v}</version></dependency>
  </dependencies>{managed}
</project>
"""

# substrait-java's core brings a newer jackson-databind than the jackson-module-scala of its
# Spark, which then refuses to start (Spark 3.4.2's module 2.14.2 with databind 2.16.1): the
# second resolution aligns all of Jackson on databind's release.
JACKSON_BOM = """
  <dependencyManagement><dependencies>
    <dependency><groupId>com.fasterxml.jackson</groupId><artifactId>jackson-bom</artifactId><version>{j}</version>
      <type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>"""

# What Spark 3.4+ needs opened on Java 17 (spark-submit passes the same).
OPENS = [f"--add-opens=java.base/{p}=ALL-UNNAMED" for p in (
    "java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio", "java.util",
    "java.util.concurrent", "java.util.concurrent.atomic", "sun.nio.ch", "sun.nio.cs", "sun.security.action",
    "sun.util.calendar")]


def m2(home: Path) -> Path:
    return home.parent / "m2"


def resolve_and_compile(version: str, home: Path) -> None:
    _resolve(version, home, "")
    cp = (home / "classpath.txt").read_text().strip()
    databind = re.search(r"jackson-databind-([0-9.]+)\.jar", cp)
    scala_module = re.search(r"jackson-module-scala_[0-9.]+-([0-9.]+)\.jar", cp)
    if databind and scala_module and databind.group(1) != scala_module.group(1):
        _resolve(version, home, JACKSON_BOM.format(j=databind.group(1)))
    _compile(version, home)


def _resolve(version: str, home: Path, managed: str) -> None:
    artifact = ARTIFACTS.get(version, "spark")
    (home / "pom.xml").write_text(POM.format(v=version, a=artifact, managed=managed), encoding="utf-8")
    mvn = ["mvn", "-B", "-q", f"-Dmaven.repo.local={m2(home)}", "-f", str(home / "pom.xml"),
           "dependency:build-classpath", f"-Dmdep.outputFile={home / 'classpath.txt'}"]
    done = subprocess.run(mvn, capture_output=True, text=True)
    if done.returncode != 0:
        text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)
        lines = [l for l in text.splitlines() if "Failed to execute goal" in l]
        why = re.sub(r"^\[ERROR\] Failed to execute goal .*?: ", "", lines[0]) if lines else done.stdout[-500:]
        raise RuntimeError(f"mvn dependency:build-classpath io.substrait:{artifact}:{version}\n{why}")


def _compile(version: str, home: Path) -> None:
    classes = home / "classes"
    classes.mkdir(exist_ok=True)
    cp = (home / "classpath.txt").read_text().strip()
    done = subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", str(classes),
                           str(HERE / "writers" / "SubstraitSparkWriter.java")], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("javac SubstraitSparkWriter.java\n" + (done.stdout + done.stderr)[-2000:])
    (home / "installed.txt").write_text(f"io.substrait:{ARTIFACTS.get(version, 'spark')}:{version}\n", encoding="utf-8")


def command(home: Path) -> list:
    cp = (home / "classpath.txt").read_text().strip() + ":" + str(home / "classes")
    return ["java", "-Xmx1g", *OPENS, "-cp", cp, "SubstraitSparkWriter"]
