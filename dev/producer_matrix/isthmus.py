"""isthmus releases: resolved from Maven Central with mvn into build/cache/producers/m2, and
our driver (IsthmusWriter.java) compiled against each release's classpath."""

import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent

POM = """<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.sparksubstrait.matrix</groupId><artifactId>isthmus-{v}</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>io.substrait</groupId><artifactId>isthmus</artifactId><version>{v}</version></dependency>
  </dependencies>
</project>
"""


def m2(home: Path) -> Path:
    return home.parent / "m2"


def resolve_and_compile(version: str, home: Path) -> None:
    (home / "pom.xml").write_text(POM.format(v=version), encoding="utf-8")
    mvn = ["mvn", "-B", "-q", f"-Dmaven.repo.local={m2(home)}", "-f", str(home / "pom.xml"),
           "dependency:build-classpath", f"-Dmdep.outputFile={home / 'classpath.txt'}"]
    done = subprocess.run(mvn, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [l for l in (done.stdout + done.stderr).splitlines() if l.startswith("[ERROR]")]
        raise RuntimeError(f"mvn dependency:build-classpath io.substrait:isthmus:{version}\n" + "\n".join(lines[:6]))
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
