"""isthmus releases: resolved from Maven Central with mvn into build/producers/m2, and
our driver (IsthmusWriter.java) compiled against each release's classpath."""

import re
from pathlib import Path

import maven

HERE = Path(__file__).resolve().parent

def resolve_and_compile(version: str, home: Path) -> None:
    artifact = f"io.substrait:isthmus:{version}"
    maven.resolve(home, maven.pom(f"isthmus-{version}", "isthmus", version), artifact)
    # Maven's nearest-wins can pair jackson-dataformat-yaml with an older jackson-core (isthmus
    # 0.65 then fails to start): the second resolution aligns all of Jackson on the YAML module's.
    cp = maven.classpath(home)
    yaml = re.search(r"jackson-dataformat-yaml-([0-9.]+)\.jar", cp)
    core = re.search(r"jackson-core-([0-9.]+)\.jar", cp)
    if yaml and core and yaml.group(1) != core.group(1):
        maven.resolve(home, maven.pom(f"isthmus-{version}", "isthmus", version, jackson=yaml.group(1)), artifact)
    maven.compile_driver(home, HERE / "writers" / "IsthmusWriter.java", artifact)


def command(home: Path) -> list:
    return maven.java(home, "IsthmusWriter")
