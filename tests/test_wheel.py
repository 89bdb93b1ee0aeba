"""The wheel bundles the jar and works on its own, in a new virtualenv holding only
pyspark and the wheel: through configure() and through plain configuration."""

import subprocess
import sys
import zipfile

import pytest

from helpers import EXTENSION_CLASS, READ_PLAN_SCRIPT, REPO, clean_env, run_python, write_spark_defaults

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q",
                    "-w", str(out)], check=True, timeout=900)
    wheels = list(out.glob("spark_substrait-0.1.0-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def venv_with(tmp_path_factory, name, pyspark, wheel):
    """The python of a new virtualenv holding only `pyspark` (a pinned requirement) and the wheel."""
    venv = tmp_path_factory.mktemp(name)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # pip's cache makes this fast after the first time (pyspark is only an sdist on PyPI).
    subprocess.run([str(python), "-m", "pip", "install", "-q", pyspark, str(wheel)],
                   check=True, timeout=1800, env=clean_env())
    return python


@pytest.fixture(scope="module")
def venv_python(wheel, tmp_path_factory):
    return venv_with(tmp_path_factory, "venv", "pyspark==4.3.0", wheel)


def test_wheel_holds_the_jar_and_the_package(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        jars = [n for n in names if n.startswith("spark_substrait/jars/") and n.endswith(".jar")]
        assert jars, names
        for jar in jars:
            assert zf.getinfo(jar).file_size > 1_000_000, jar
        for module in ("__init__.py", "__main__.py", "_config.py", "_connect.py", "_connect_proto.py",
                       "_errors.py", "_plans.py", "_reader.py", "py.typed", "cli/__init__.py", "cli/run.py",
                       "_explain/__init__.py", "_explain/svg.py"):
            assert f"spark_substrait/{module}" in names
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "spark-substrait = spark_substrait.cli:main" in zf.read(entry_points).decode()
        metadata = zf.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
        assert [r for r in requires if "extra ==" not in r] == ["Requires-Dist: pyspark<4.4,>=3.5"]


def installed_jar(python):
    result = run_python(["-c", "import spark_substrait; print(spark_substrait.jar_path())"],
                        python=str(python))
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def check_output(result, python, tpch, extension_enabled):
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    venv = str(python.parent.parent)
    module = next(line for line in lines if line.startswith("module "))
    assert module[len("module "):].startswith(venv), module
    assert f"extension_enabled {extension_enabled}" in lines
    assert [line for line in lines if line.startswith("row ")] == [
        "row " + repr(tuple(tpch.duckdb_rows[6][0]))]


def test_configure_in_new_venv(venv_python, tpch, tmp_path):
    jar = installed_jar(venv_python)
    assert jar.startswith(str(venv_python.parent.parent))
    result = run_python(["-c", READ_PLAN_SCRIPT, "configure", str(tpch.plan_file("q06.bin")),
                         str(tpch.lineitem)], python=str(venv_python), cwd=tmp_path)
    check_output(result, venv_python, tpch, True)
    assert f"jars {jar}" in result.stdout.splitlines()


def test_plain_configuration_in_new_venv(venv_python, tpch, tmp_path):
    conf_dir = write_spark_defaults(tmp_path / "conf", {
        "spark.jars": installed_jar(venv_python),
        "spark.sql.extensions": EXTENSION_CLASS,
    })
    result = run_python(["-c", READ_PLAN_SCRIPT, "plain", str(tpch.plan_file("q06.bin")),
                         str(tpch.lineitem)], python=str(venv_python), cwd=tmp_path,
                        env=clean_env(SPARK_CONF_DIR=str(conf_dir)))
    check_output(result, venv_python, tpch, True)


@pytest.fixture(scope="module")
def spark35_python(wheel, tmp_path_factory):
    """A virtualenv with PySpark 3.5 (Scala 2.12) and the same wheel."""
    return venv_with(tmp_path_factory, "venv35", "pyspark==3.5.9", wheel)


def test_wheel_carries_a_jar_per_built_spark(wheel):
    with zipfile.ZipFile(wheel) as zf:
        jars = sorted(n.rsplit("/", 1)[1] for n in zf.namelist() if n.endswith(".jar"))
    # dev/test builds the newest (pinned) and the oldest supported Spark's jars.
    assert "spark-substrait-spark35_2.12-0.1.0.jar" in jars, jars
    assert "spark-substrait-spark43_2.13-0.1.0.jar" in jars, jars


def test_pyspark_35_picks_the_scala_212_jar_and_runs_a_plan(spark35_python, tpch, tmp_path):
    jar = installed_jar(spark35_python)
    assert jar.endswith("spark-substrait-spark35_2.12-0.1.0.jar"), jar
    result = run_python(["-c", READ_PLAN_SCRIPT, "configure", str(tpch.plan_file("q06.bin")),
                         str(tpch.lineitem)], python=str(spark35_python), cwd=tmp_path)
    check_output(result, spark35_python, tpch, True)
