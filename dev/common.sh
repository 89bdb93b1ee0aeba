# Sourced by dev/run-example and dev/test: the shared setup steps. Not a command itself.
#
# Everything lands in ignored folders of the checkout: .venv/ (Python), build/cache/ (sbt),
# jvm/target/ (the jar), python/spark_substrait/jars/ (its copy in the package),
# examples/data/ (the example's generated table).

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
# The pinned pyspark (the newest supported Spark) and the oldest supported Spark: dev/test
# tests both; dev/test-matrix tests every version in SPARK_MATRIX.
PINNED_SPARK="$(sed -n 's/^pyspark==//p' "$ROOT/requirements-test.txt")"
OLDEST_SPARK=3.5.9
SPARK_MATRIX="3.5.9 4.0.5 4.1.4 4.2.1 $PINNED_SPARK"
# The pinned Spark's jar, e.g. jvm/target/jars/spark-substrait-spark43_2.13-0.1.0.jar.
JAR_GLOB="$ROOT/jvm/target/jars/spark-substrait-spark$(echo "$PINNED_SPARK" | cut -d. -f1-2 | tr -d .)_2.1?-*.jar"

step() { printf '\n==> %s\n' "$*"; }

# sbt, never two at once in this tree: a lock ($SBT_LOCK, default /tmp/sbt.lock) when flock exists.
sbt() {
  if command -v flock >/dev/null 2>&1; then
    flock "${SBT_LOCK:-/tmp/sbt.lock}" "$ROOT/build/sbt" "$@"
  else
    "$ROOT/build/sbt" "$@"
  fi
}

ensure_venv() {
  if [ ! -x "$PY" ]; then
    step "creating the virtualenv .venv"
    python3 -m venv "$VENV"
  fi
  local stamp="$VENV/.requirements-test.sha256"
  local want
  want="$(sha256sum "$ROOT/requirements-test.txt" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    step "installing requirements-test.txt into .venv (pyspark is built from its sdist the first time: minutes)"
    "$PY" -m pip install -q -r "$ROOT/requirements-test.txt"
    echo "$want" > "$stamp"
  else
    step "requirements-test.txt already installed in .venv"
  fi
}

# The documentation site's tools (requirements-docs.txt, pinned) in the same .venv, with a stamp
# of their own: dev/docs builds the site with them.
ensure_docs_requirements() {
  local stamp="$VENV/.requirements-docs.sha256"
  local want
  want="$(sha256sum "$ROOT/requirements-docs.txt" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    step "installing requirements-docs.txt into .venv (mkdocs, mkdocstrings)"
    "$PY" -m pip install -q -r "$ROOT/requirements-docs.txt"
    echo "$want" > "$stamp"
  fi
}

jar_exists() { compgen -G "$JAR_GLOB" >/dev/null; }

# Built again when a source or the build is newer than the jar: a stale jar runs old code.
ensure_jar() {
  local jar
  jar="$(ls -t $JAR_GLOB 2>/dev/null | head -1 || true)"
  if [ -n "$jar" ] && [ -z "$(find "$ROOT/jvm/src/main" "$ROOT/build.sbt" "$ROOT/project" -newer "$jar" -type f -print -quit)" ]; then
    step "the jar is built: $(basename "$jar")"
  else
    step "building the jar: build/sbt jvm/assembly"
    sbt jvm/assembly
  fi
}

# The package in development mode; its build copies the (newer) jar into the package.
install_package() {
  step "installing the spark-substrait package into .venv (pip install -e .)"
  "$PY" -m pip install -q --no-deps -e "$ROOT"
}

ensure_example_data() {
  if [ -f "$ROOT/examples/data/lineitem/_SUCCESS" ]; then
    step "example data already in examples/data/lineitem"
  else
    step "generating the example data: examples/generate_data.py"
    "$PY" "$ROOT/examples/generate_data.py"
  fi
}

# The spec's function test cases: the testcases folder of the pinned spec release
# (build/substrait-spec.version), beside its extension YAMLs.
function_test_cases() {
  echo "$("$ROOT/build/substrait-spec")/testcases"
}

# The sbt command running them; --check fails on any wrong value.
function_tests_command() {
  echo "jvm/Test/runMain io.sparksubstrait.functiontests.FunctionTests $(function_test_cases) --report $ROOT/docs/function-tests.md $*"
}
