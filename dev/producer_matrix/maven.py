"""What the JVM producers (isthmus, substrait-java's Spark module) share: a release resolved
from Maven Central with mvn into build/producers/m2, our driver compiled against its
classpath, and the java command that runs the driver."""

import re
import subprocess
from pathlib import Path

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.sparksubstrait.matrix</groupId><artifactId>{name}</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.substrait</groupId><artifactId>{artifact}</artifactId><version>{version}</version></dependency>
  </dependencies>{managed}
</project>
"""

# Maven's nearest-wins can leave Jackson's modules at other releases than the one they need:
# a second resolution aligns all of Jackson on one release by its BOM.
JACKSON_BOM = """
  <dependencyManagement><dependencies>
    <dependency><groupId>com.fasterxml.jackson</groupId><artifactId>jackson-bom</artifactId><version>{j}</version>
      <type>pom</type><scope>import</scope></dependency>
  </dependencies></dependencyManagement>"""


def pom(name: str, artifact: str, version: str, jackson: str | None = None) -> str:
    """Our project depending on io.substrait:<artifact>:<version>, Jackson aligned on `jackson` if given."""
    managed = JACKSON_BOM.format(j=jackson) if jackson else ""
    return POM.format(name=name, artifact=artifact, version=version, managed=managed)


def m2(home: Path) -> Path:
    return home.parent / "m2"


def classpath(home: Path) -> str:
    return (home / "classpath.txt").read_text().strip()


def resolve(home: Path, pom: str, artifact: str) -> None:
    """mvn's classpath of `pom` into home/classpath.txt; the failing goal's reason as the error."""
    (home / "pom.xml").write_text(pom, encoding="utf-8")
    mvn = ["mvn", "-B", "-q", f"-Dmaven.repo.local={m2(home)}", "-f", str(home / "pom.xml"),
           "dependency:build-classpath", f"-Dmdep.outputFile={home / 'classpath.txt'}"]
    done = subprocess.run(mvn, capture_output=True, text=True)
    if done.returncode != 0:
        text = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout + done.stderr)
        lines = [l for l in text.splitlines() if "Failed to execute goal" in l]
        why = re.sub(r"^\[ERROR\] Failed to execute goal .*?: ", "", lines[0]) if lines else done.stdout[-500:]
        raise RuntimeError(f"mvn dependency:build-classpath {artifact}\n{why}")


def compile_driver(home: Path, source: Path, artifact: str) -> None:
    """javac of our driver against the release's classpath; home/installed.txt marks it done."""
    classes = home / "classes"
    classes.mkdir(exist_ok=True)
    done = subprocess.run(["javac", "-nowarn", "-cp", classpath(home), "-d", str(classes), str(source)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"javac {source.name}\n" + (done.stdout + done.stderr)[-2000:])
    (home / "installed.txt").write_text(f"{artifact}\n", encoding="utf-8")


def java(home: Path, main: str, jvm_options: list[str] | None = None) -> list:
    return ["java", "-Xmx1g", *(jvm_options or []), "-cp", classpath(home) + ":" + str(home / "classes"), main]
