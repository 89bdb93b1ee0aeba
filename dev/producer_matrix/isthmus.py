"""isthmus releases: resolved from Maven Central with mvn into build/producers/m2, and
our driver (IsthmusWriter.java) compiled against each release's classpath."""

import re
from pathlib import Path

import maven

HERE = Path(__file__).resolve().parent

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.sparksubstrait.matrix</groupId><artifactId>isthmus-{v}</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.substrait</groupId><artifactId>isthmus</artifactId><version>{v}</version></dependency>
  </dependencies>{managed}
</project>
"""

# Maven's nearest-wins can pair jackson-dataformat-yaml with an older jackson-core (isthmus
# 0.65 then fails to start): the second resolution aligns all of Jackson on the YAML module's.
JACKSON_BOM = """
  <dependencyManagement><dependencies>
    <dependency><groupId>com.fasterxml.jackson</groupId><artifactId>jackson-bom</artifactId><version>{j}</version>
      <type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>"""


def resolve_and_compile(version: str, home: Path) -> None:
    artifact = f"io.substrait:isthmus:{version}"
    maven.resolve(home, POM.format(v=version, managed=""), artifact)
    cp = maven.classpath(home)
    yaml = re.search(r"jackson-dataformat-yaml-([0-9.]+)\.jar", cp)
    core = re.search(r"jackson-core-([0-9.]+)\.jar", cp)
    if yaml and core and yaml.group(1) != core.group(1):
        maven.resolve(home, POM.format(v=version, managed=JACKSON_BOM.format(j=yaml.group(1))), artifact)
    maven.compile_driver(home, HERE / "writers" / "IsthmusWriter.java", artifact)


def command(home: Path) -> list:
    return maven.java(home, "IsthmusWriter")
