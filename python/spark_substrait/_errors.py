"""The Python side of spark-substrait's one error family.

The JVM raises ``io.sparksubstrait.errors.SubstraitException`` (a ``SparkThrowable``)
with two kinds below it; here each becomes the Python class of the same kind, carrying
the same message, error condition and plan location.
"""

import contextlib
from collections.abc import Iterator
from typing import Optional

_JVM_BASE = "io.sparksubstrait.errors.SubstraitException"
_JVM_INVALID = "io.sparksubstrait.errors.SubstraitInvalidPlanException"
_JVM_UNSUPPORTED = "io.sparksubstrait.errors.SubstraitUnsupportedException"


class SubstraitPlanError(Exception):
    """A Substrait plan could not be turned into a DataFrame.

    Attributes:
        message: the JVM message, e.g. ``[SUBSTRAIT_UNKNOWN_FUNCTION] At relations[0]...``.
        condition: the error condition, e.g. ``SUBSTRAIT_UNKNOWN_FUNCTION``.
        location: where in the plan, e.g. ``relations[0].root.input.filter.condition``,
            or None when the error is about the plan as a whole.
        parameters: the message parameters, a dict of strings.
        java_exception: the Py4J error it was raised from, when it came from the JVM.
        connect_exception: the pyspark Spark Connect error it was raised from, when it
            came from a Spark Connect server.
    """

    def __init__(
        self,
        message: str,
        condition: Optional[str] = None,
        location: Optional[str] = None,
        parameters: Optional[dict[str, str]] = None,
    ):
        super().__init__(message)
        self.message = message
        self.condition = condition
        self.location = location
        self.parameters = dict(parameters or {})
        self.java_exception = None
        self.connect_exception = None

    def __reduce__(self):
        return type(self), (self.message, self.condition, self.location, self.parameters)

    def getCondition(self) -> Optional[str]:  # noqa: N802 - mirrors PySparkException
        return self.condition

    def getMessageParameters(self) -> dict[str, str]:  # noqa: N802
        return dict(self.parameters)

    def __str__(self) -> str:
        return self.message


class SubstraitInvalidPlanError(SubstraitPlanError):
    """The plan is not valid Substrait (or not a plan at all): fix the plan."""


class SubstraitUnsupportedError(SubstraitPlanError):
    """The plan is valid Substrait but asks for something this consumer cannot do."""


class SubstraitNotInstalledError(SubstraitPlanError):
    """The spark-substrait jar is not on the Spark driver's classpath."""


def malformed_plan(format: str, reason: str) -> SubstraitInvalidPlanError:
    """``SUBSTRAIT_MALFORMED_PLAN`` found before the plan reaches the JVM (the command line
    checks the input first): the same condition and words as the JVM's
    (``SubstraitErrors.malformedPlan``), so a caller cannot tell who found it."""
    reason = reason.strip().rstrip(".")
    return SubstraitInvalidPlanError(
        f"[SUBSTRAIT_MALFORMED_PLAN] At plan: cannot decode the Substrait plan ({format}): {reason}. "
        "Expected a serialized substrait.Plan message.",
        condition="SUBSTRAIT_MALFORMED_PLAN", location="plan",
        parameters={"location": "plan", "format": format, "reason": reason})


def classic_session_required(caller: str, instead: str) -> NotImplementedError:
    """``caller`` runs in the driver JVM, which a Spark Connect client does not have: the
    error says so and what to do ``instead``. A NotImplementedError, as PySpark raises for
    what its Connect client cannot do (PySparkNotImplementedError), not a plan error: the
    plan may be fine."""
    return NotImplementedError(
        f"{caller} needs a classic (JVM-backed) SparkSession: it runs in the Spark driver's JVM, "
        f"and this session has none (a Spark Connect session?). {instead}")


def _class_names(jclass):
    """Names of a Java class and all its superclasses."""
    names = []
    while jclass is not None:
        names.append(jclass.getName())
        jclass = jclass.getSuperclass()
    return names


def _java_throwables(error):
    """The Java throwables behind a Py4JJavaError or a pyspark converted exception."""
    java_exception = getattr(error, "java_exception", None)  # py4j's Py4JJavaError
    if java_exception is not None:
        yield java_exception
    seen = 0
    captured = error
    while captured is not None and seen < 100:  # pyspark's CapturedException chain
        origin = getattr(captured, "_origin", None)
        if origin is not None:
            yield origin
        captured = getattr(captured, "_cause", None)
        seen += 1


def from_java(error: BaseException) -> Optional[SubstraitPlanError]:
    """The Python error for ``error`` if its Java cause chain holds a SubstraitException."""
    for throwable in _java_throwables(error):
        seen = 0
        while throwable is not None and seen < 100:
            names = _class_names(throwable.getClass())
            if _JVM_BASE in names:
                return _translate(throwable, names)
            throwable = throwable.getCause()
            seen += 1
    return None


def _python_class(names):
    if _JVM_UNSUPPORTED in names:
        return SubstraitUnsupportedError
    if _JVM_INVALID in names:
        return SubstraitInvalidPlanError
    return SubstraitPlanError


def _translate(throwable, names) -> SubstraitPlanError:
    cls = _python_class(names)
    parameters = {}
    jparams = throwable.getMessageParameters()
    if jparams is not None:
        parameters = {str(k): str(v) for k, v in dict(jparams).items()}
    return cls(
        message=str(throwable.getMessage()),
        condition=throwable.getCondition(),
        location=throwable.getLocation(),
        parameters=parameters,
    )


# Spark Connect sends a server error's condition and message parameters, not its Java
# class, so the kind comes from the condition: the same split as SubstraitErrors (the
# Connect tests check both agree on every condition of error-conditions.json).
_UNSUPPORTED_CONDITIONS = frozenset({
    "SUBSTRAIT_UNKNOWN_FIELD", "SUBSTRAIT_UNKNOWN_FUNCTION", "SUBSTRAIT_UNSUPPORTED_FEATURE",
    "SUBSTRAIT_UNSUPPORTED_FUNCTION_OPTION", "SUBSTRAIT_LOCAL_FILES_NOT_ALLOWED",
    "SUBSTRAIT_PLAN_TOO_LARGE", "SUBSTRAIT_UNSUPPORTED_VERSION", "SUBSTRAIT_UNWRITABLE_PLAN"})
_NO_HANDLER = "CONNECT_INVALID_PLAN.NO_HANDLER_FOR_EXTENSION"
_TYPE_NAME = "spark_substrait.connect."  # SubstraitRelation (reads) and SubstraitWrite (writes)


def from_connect(error: BaseException) -> Optional[SubstraitPlanError]:
    """The Python error for an error a Spark Connect server sent, if it is ours: a
    SubstraitException (condition ``SUBSTRAIT_…``), or the server not knowing our relation."""
    get_condition = getattr(error, "getCondition", None)
    condition = get_condition() if callable(get_condition) else None
    if not isinstance(condition, str):
        return None
    get_parameters = getattr(error, "getMessageParameters", None)
    parameters = {str(k): str(v) for k, v in ((get_parameters() if callable(get_parameters) else None) or {}).items()}
    message = getattr(error, "_message", None) or str(error)
    if condition == _NO_HANDLER and _TYPE_NAME in message + " ".join(parameters.values()):
        return SubstraitNotInstalledError(
            "[SUBSTRAIT_NOT_INSTALLED] The Spark Connect server does not run the spark-substrait "
            "relation plugin, so this session cannot read Substrait plans. Start the server with "
            "the settings of spark_substrait.connect_server_conf() (the jar in spark.jars, "
            "spark.sql.extensions and spark.connect.extensions.relation.classes). "
            f"The server said: {message}",
            condition="SUBSTRAIT_NOT_INSTALLED")
    if not condition.startswith("SUBSTRAIT_"):
        return None
    # pyspark puts the server exception's class in front: "(io.sparksubstrait...) [SUBSTRAIT_...".
    start = message.find(f"[{condition}]")
    if start > 0 and message.startswith("("):
        message = message[start:]
    cls = SubstraitUnsupportedError if condition in _UNSUPPORTED_CONDITIONS else SubstraitInvalidPlanError
    return cls(message=message, condition=condition, location=parameters.get("location"),
               parameters=parameters)


@contextlib.contextmanager
def java_errors_as_plan_errors() -> Iterator[None]:
    """Inside it, a converter error raised in the driver JVM (through Py4J) becomes the
    matching :class:`SubstraitPlanError`, keeping the JVM exception as ``java_exception``;
    any other error passes unchanged."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors.exceptions.captured import CapturedException

    try:
        yield
    except (Py4JJavaError, CapturedException) as e:
        error = from_java(e)
        if error is None:
            raise
        error.java_exception = e
        raise error from None
