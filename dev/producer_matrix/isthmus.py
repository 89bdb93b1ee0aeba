"""isthmus releases: resolved from Maven Central with mvn into build/producers/m2, and
our driver (IsthmusWriter.java) compiled against each release's classpath."""

import re
import subprocess
from pathlib import Path

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


def m2(home: Path) -> Path:
    return home.parent / "m2"


def resolve_and_compile(version: str, home: Path) -> None:
    _resolve(version, home, "")
    cp = (home / "classpath.txt").read_text().strip()
    yaml = re.search(r"jackson-dataformat-yaml-([0-9.]+)\.jar", cp)
    core = re.search(r"jackson-core-([0-9.]+)\.jar", cp)
    if yaml and core and yaml.group(1) != core.group(1):
        _resolve(version, home, JACKSON_BOM.format(j=yaml.group(1)))
    _compile(version, home)


def _resolve(version: str, home: Path, managed: str) -> None:
    (home / "pom.xml").write_text(POM.format(v=version, managed=managed), encoding="utf-8")
    mvn = ["mvn", "-B", "-q", f"-Dmaven.repo.local={m2(home)}", "-f", str(home / "pom.xml"),
           "dependency:build-classpath", f"-Dmdep.outputFile={home / 'classpath.txt'}"]
    done = subprocess.run(mvn, capture_output=True, text=True)
    if done.returncode != 0:
        text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)
        lines = [l for l in text.splitlines() if "Failed to execute goal" in l]
        why = re.sub(r"^\[ERROR\] Failed to execute goal .*?: ", "", lines[0]) if lines else done.stdout[-500:]
        raise RuntimeError(f"mvn dependency:build-classpath io.substrait:isthmus:{version}\n{why}")


def _compile(version: str, home: Path) -> None:
    classes = home / "classes"
    classes.mkdir(exist_ok=True)
    cp = (home / "classpath.txt").read_text().strip()
    done = subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", str(classes), str(HERE / "writers" / "IsthmusWriter.java")],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("javac IsthmusWriter.java\n" + (done.stdout + done.stderr)[-2000:])
    (home / "installed.txt").write_text(f"io.substrait:isthmus:{version}\n", encoding="utf-8")


def command(home: Path) -> list:
    cp = (home / "classpath.txt").read_text().strip() + ":" + str(home / "classes")
    return ["java", "-Xmx1g", "-cp", cp, "IsthmusWriter"]
