"""The Spark session of a ``spark-substrait`` command, from spark-submit's options.

``--master``, ``--conf k=v``, ``--driver-memory`` and ``--name`` mean what they mean to
spark-submit (client mode: the driver is this process, which prints the result);
``--remote sc://…`` opens a Spark Connect session instead. The bundled jar is added with
``spark.jars`` (no ``--packages``), and the extension with ``spark.sql.extensions``.

Quiet by default: Spark's log4j output is switched off (``-v`` keeps Spark's own logging on
stderr; ``--log-file PATH`` sends it to a file). A progress line shows on long jobs when
standard output is a terminal, and a status line while the driver starts when stderr is one
(cli/status.py; ``--quiet`` turns both off).
"""

import argparse
import atexit
import contextlib
import os
import shlex
import sys
import threading
from typing import Optional

from spark_substrait import _functions
from spark_substrait.cli.status import Status

# The setting --allow-path sets (docs/security.md), read by the JVM's LocalFiles reader.
ALLOWED_PREFIXES = "spark.substrait.localFiles.allowedPrefixes"
# What `pip install` adds the Spark Connect client with (setup.py's extras_require).
CONNECT_EXTRA = "pip install 'spark-substrait[connect]'"

# An appender must be there, else Spark takes the configuration for log4j's default and loads
# its own; a PySpark driver sets the root level to the repl logger's (WARN unless set).
_QUIET_LOG4J = """status = error
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %m%n
rootLogger.level = off
rootLogger.appenderRef.console.ref = console
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = off
"""

_FILE_LOG4J = """status = error
appender.file.type = File
appender.file.name = file
appender.file.fileName = {path}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{{yy/MM/dd HH:mm:ss}} %p %c{{1}}: %m%n
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.jetty.name = org.sparkproject.jetty
logger.jetty.level = warn
logger.repl.name = org.apache.spark.repl.Main
logger.repl.level = info
"""


class SessionStartError(Exception):
    """The Spark driver did not start; the message ends with what it wrote."""


class ConnectClientMissing(Exception):
    """``--remote`` without PySpark's Connect client packages: the message names the extra."""


def _conf_arg(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key.strip(), value


def _function_arg(text: str) -> tuple[str, str, str]:
    """URN#NAME=SQL: the plan's function NAME of the extension URN as a SQL expression over $1..$n."""
    spec, sep, sql = text.partition("=")
    urn, hash_sign, name = spec.rpartition("#")
    if not sep or not hash_sign or not sql.strip():
        raise argparse.ArgumentTypeError(
            f"expected URN#NAME=SQL, e.g. 'extension:org.example:my_functions#my_add=($1 + $2) * 2', got {text!r}")
    try:
        return _functions._check_urn(urn, "--function"), _functions._check_name(name, "--function"), sql
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def add_session_options(parser: argparse.ArgumentParser) -> None:
    """spark-submit's options for where and how the plan runs."""
    group = parser.add_argument_group("Spark session (as spark-submit takes them)")
    group.add_argument("--master", metavar="URL",
                       help="local[N] (default local[2]), spark://…, yarn, k8s://…: the driver runs here")
    group.add_argument("--remote", metavar="sc://HOST:PORT",
                       help="run on a Spark Connect server instead (its spark-substrait plugin must be set up)")
    group.add_argument("--conf", metavar="KEY=VALUE", action="append", type=_conf_arg, default=[],
                       help="a Spark setting (repeatable)")
    group.add_argument("--function", metavar="URN#NAME=SQL", action="append", type=_function_arg, default=[],
                       help="map the plan's function NAME of the extension URN to a SQL expression over its "
                            "arguments $1..$n, e.g. 'extension:org.example:my_functions#my_add=($1 + $2) * 2' "
                            "(repeatable; the settings spark.substrait.function.*, which --conf can also set)")
    group.add_argument("--driver-memory", metavar="MEM", help="the driver's heap, e.g. 4g")
    group.add_argument("--name", default="spark-substrait", help="the application name")
    group.add_argument("-v", "--verbose", action="store_true", help="show Spark's log on stderr")
    group.add_argument("--log-file", metavar="PATH", help="write Spark's log to PATH")
    group.add_argument("-q", "--quiet", action="store_true",
                       help="no status line while Spark starts, no progress line, no notes: only rows and errors")
    group.add_argument("--debug", action="store_true", help="print the traceback of a failure")


def check_session_options(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    if args.remote and (args.master or args.driver_memory):
        parser.error("--remote runs on a Spark Connect server: --master and --driver-memory belong to that server")
    if args.verbose and args.log_file:
        parser.error("choose one of -v and --log-file")


def settings(args: argparse.Namespace) -> list[tuple[str, str]]:
    """``--conf`` with what other options stand for: ``--function`` is the settings of a
    function mapping (spark.substrait.function.<alias>.*, as register_function sets them);
    ``--allow-path`` (run and explain) is spark.substrait.localFiles.allowedPrefixes, appended
    to a value given with ``--conf``."""
    conf = list(args.conf)
    for urn, name, sql in getattr(args, "function", None) or []:
        conf += _functions.function_settings(urn, name, sql=sql)
    prefixes = list(getattr(args, "allow_path", None) or [])
    if not prefixes:
        return conf
    if not args.remote:  # a relative folder is this directory's, as for --table
        prefixes = [p if ":" in p else os.path.abspath(p) for p in prefixes]
    given = [v for k, v in conf if k == ALLOWED_PREFIXES]
    conf = [(k, v) for k, v in conf if k != ALLOWED_PREFIXES]
    return conf + [(ALLOWED_PREFIXES, ",".join(given + prefixes))]


def open_session(args: argparse.Namespace, status: Optional[Status] = None):
    """The session the options describe, with spark-substrait enabled."""
    status = status or Status(quiet=True)
    if args.remote:
        with status.step(f"connecting to {args.remote}"):
            return _remote_session(args)
    master = args.master or next((v for k, v in args.conf if k == "spark.master"), "local[2]")
    with status.step(f"starting Spark ({master})"):
        return _classic_session(args)


def _remote_session(args: argparse.Namespace):
    from pyspark.sql import SparkSession

    try:
        builder = SparkSession.builder.remote(args.remote)
        for key, value in settings(args):
            builder = builder.config(key, value)
        return builder.getOrCreate()
    except ImportError as e:
        # PySpark checks the Connect client's packages (pandas, pyarrow, grpcio, …) here and
        # names one, not how to get them all.
        said = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ConnectClientMissing(f"--remote needs the Spark Connect client's packages: {CONNECT_EXTRA} "
                                   f"(PySpark said: {said})") from e


def _classic_session(args: argparse.Namespace):
    from pyspark.sql import SparkSession

    import spark_substrait

    # Options the driver JVM needs at its start go where pyspark starts it from.
    os.environ["PYSPARK_SUBMIT_ARGS"] = _submit_args(args)
    builder = SparkSession.builder.appName(args.name)
    if not args.verbose:
        _JvmStderr.capture(log_file=args.log_file)
    if args.master:
        builder = builder.master(args.master)
    elif not any(key == "spark.master" for key, _ in args.conf):
        builder = builder.master("local[2]")
    progress = sys.stdout.isatty() and not args.quiet
    builder = builder.config("spark.ui.showConsoleProgress", "true" if progress else "false")
    for key, value in settings(args):
        builder = builder.config(key, value)
    try:
        return spark_substrait.configure(builder).getOrCreate()
    except Exception as e:
        # The driver did not start: what it said is the explanation.
        said = _JvmStderr.recent(wait=True)
        raise SessionStartError(f"{e}\n{said}" if said else str(e)) from e
    finally:
        _JvmStderr.restore()


class _JvmStderr:
    """The driver JVM's standard error, read through a pipe: the JVM writes there what no
    log configuration reaches (the JDK's own warnings at start). Spark's progress line goes
    on to our stderr; the rest to --log-file, or nowhere."""

    @staticmethod
    def capture(log_file: Optional[str]) -> None:
        read_end, write_end = os.pipe()
        saved = os.dup(2)
        sys.stderr.flush()
        os.dup2(write_end, 2)
        os.close(write_end)
        # The JVM starts with the pipe as its stderr; ours is back once it runs.
        _JvmStderr._restore = saved
        _JvmStderr._thread = threading.Thread(target=_JvmStderr._forward, args=(read_end, saved, log_file), daemon=True)
        _JvmStderr._thread.start()

    @staticmethod
    def restore() -> None:
        saved = getattr(_JvmStderr, "_restore", None)
        if saved is not None:
            os.dup2(saved, 2)
            _JvmStderr._restore = None

    _recent = bytearray()

    _thread: Optional[threading.Thread] = None

    @staticmethod
    def recent(wait: bool = False) -> str:
        """The last of what the JVM wrote (without the progress line), for a failed start;
        `wait`: a moment for the rest of a JVM that has exited."""
        if wait and _JvmStderr._thread is not None:
            _JvmStderr._thread.join(timeout=3)
        return bytes(_JvmStderr._recent).decode("utf-8", "replace").strip()

    @staticmethod
    def _forward(read_end: int, terminal: int, log_file: Optional[str]) -> None:
        with open(log_file, "ab") if log_file else contextlib.nullcontext() as log:
            pending = b""
            while True:
                chunk = os.read(read_end, 65536)
                if not chunk:
                    break
                pending += chunk
                lines = pending.split(b"\n")
                # The progress line redraws itself with carriage returns and no newline: it goes on at once.
                pending = lines.pop()
                if b"[Stage " in pending or pending.startswith(b"\r"):
                    lines.append(pending)
                    pending = b""
                else:
                    lines.append(None)
                for line in lines:
                    if line is None:
                        continue
                    if b"[Stage " in line or (line.startswith(b"\r") and not line.strip()):
                        os.write(terminal, line)
                        continue
                    text = line + b"\n"
                    _JvmStderr._recent += text
                    del _JvmStderr._recent[:-8192]
                    if log:
                        log.write(text)
                        log.flush()
            if pending:
                _JvmStderr._recent += pending
                if log:
                    log.write(pending)


def _submit_args(args: argparse.Namespace) -> str:
    parts: list[str] = []
    if args.driver_memory:
        parts += ["--driver-memory", args.driver_memory]
    for key, value in args.conf:
        # Settings read when the driver JVM starts (e.g. spark.driver.extraJavaOptions).
        if key.startswith("spark.driver.") and key != "spark.driver.extraJavaOptions":
            parts += ["--conf", f"{key}={value}"]
    java_options = [v for k, v in args.conf if k == "spark.driver.extraJavaOptions"]
    log_config = _log_config(args)
    if log_config:
        java_options.append(f"-Dlog4j2.configurationFile=file:{log_config}")
    if java_options:
        parts += ["--driver-java-options", " ".join(java_options)]
    user = os.environ.get("PYSPARK_SUBMIT_ARGS", "").split()
    user = [a for a in user if a != "pyspark-shell"]
    return " ".join(shlex.quote(p) for p in parts + user + ["pyspark-shell"])


def _log_config(args: argparse.Namespace) -> str:
    """A log4j2 configuration file: off, or to --log-file; none with -v (Spark's own)."""
    if args.verbose:
        return ""
    import tempfile

    text = _FILE_LOG4J.format(path=os.path.abspath(args.log_file)) if args.log_file else _QUIET_LOG4J
    fd, path = tempfile.mkstemp(prefix="spark-substrait-log4j2-", suffix=".properties")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    atexit.register(lambda: os.path.exists(path) and os.remove(path))
    return path
