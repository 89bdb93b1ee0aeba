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

# A step's own output (sbt's, pip's, Spark's while generating data) goes to a log file when
# QUIET_LOG_DIR is set (dev/run-example without --verbose), shown only if the step fails.
run_logged() {
  local name="$1"
  shift
  if [ -z "${QUIET_LOG_DIR:-}" ]; then
    "$@"
    return
  fi
  mkdir -p "$QUIET_LOG_DIR"
  local log="$QUIET_LOG_DIR/$name.log"
  if ! "$@" >"$log" 2>&1; then
    echo "failed: $* (the last lines of $log; --verbose shows everything):" >&2
    tail -n 40 "$log" >&2
    return 1
  fi
}

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
  install_requirements requirements-test.txt "(pyspark is built from its sdist the first time: minutes)" ||
    step "requirements-test.txt already installed in .venv"
}

# Installs a requirements file into .venv unless the stamp of its contents says it is there
# already (returns 1 then): $1 the file, $2 what the installing step adds to its line.
install_requirements() {
  local stamp="$VENV/.${1%.txt}.sha256"
  local want
  want="$(sha256sum "$ROOT/$1" | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    step "installing $1 into .venv $2"
    "$PY" -m pip install -q -r "$ROOT/$1"
    echo "$want" > "$stamp"
  else
    return 1
  fi
}

# The documentation site's tools (requirements-docs.txt, pinned) in the same .venv, with a stamp
# of their own: dev/docs builds the site with them.
ensure_docs_requirements() {
  install_requirements requirements-docs.txt "(mkdocs, mkdocstrings)" || true
}

# Headless Chromium (Debian's package) for tests/test_explain_browser.py, which is skipped
# without it. In CI (CI=true), as root with apt-get, it is installed when missing: about a
# minute on a fresh machine (some 80 MB), nothing after. Elsewhere it is only suggested.
ensure_chromium() {
  local browser
  for browser in chromium chromium-headless-shell chromium-browser google-chrome; do
    command -v "$browser" >/dev/null 2>&1 && return 0
  done
  if [ "${CI:-}" = "true" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    step "installing Chromium for the explorer's browser tests (apt-get install chromium)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1; } \
      || echo "could not install chromium: tests/test_explain_browser.py's browser tests will be skipped"
  else
    step "no Chromium: tests/test_explain_browser.py's browser tests will be skipped (apt-get install chromium)"
  fi
}

jar_exists() { compgen -G "$JAR_GLOB" >/dev/null; }

# Built again when a source or the build is newer than the jar: a stale jar runs old code.
ensure_jar() {
  local jar
  jar="$(ls -t $JAR_GLOB 2>/dev/null | head -1 || true)"
  # project/'s own files only: sbt rewrites project/target and project/project on every run.
  if [ -n "$jar" ] && [ -z "$(find "$ROOT/jvm/src/main" "$ROOT/build.sbt" "$ROOT/proto" -newer "$jar" -type f -print -quit)" ] \
     && [ -z "$(find "$ROOT/project" -maxdepth 1 -newer "$jar" -type f -print -quit)" ]; then
    step "the jar is built: $(basename "$jar")"
  else
    step "building the jar: build/sbt jvm/assembly (the first build downloads sbt and the dependencies: minutes)"
    run_logged sbt-assembly sbt jvm/assembly
  fi
}

# The package in development mode; its build copies the (newer) jar into the package.
install_package() {
  step "installing the spark-substrait package into .venv (pip install -e .)"
  run_logged pip-install "$PY" -m pip install -q --no-deps -e "$ROOT"
}

ensure_example_data() {
  if [ -f "$ROOT/examples/data/lineitem/_SUCCESS" ]; then
    step "example data already in examples/data/lineitem"
  else
    step "generating the example data: examples/generate_data.py"
    run_logged generate-data "$PY" "$ROOT/examples/generate_data.py"
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
