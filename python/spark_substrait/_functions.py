"""User function mappings: a plan's extension function -> something Spark can call.

The registry is the session's SQL configuration (``spark.substrait.function.<alias>.*``,
``spark.substrait.extensionYaml.<alias>``): the JVM reads it when it converts a plan. So
everything here only uses ``spark.conf`` and ``spark.udf`` (and ``DROP TEMPORARY FUNCTION``
for a UDF it registered itself), and works alike on classic and Spark Connect sessions; a
mapping set with ``SET``, ``--conf`` or ``spark-defaults.conf`` is the same mapping.
"""

import hashlib
import os
import re
from typing import Any, Optional, Union

#: ``spark.substrait.function.<alias>.{urn,name,spark,sql}``: one mapping per alias.
FUNCTION_PREFIX = "spark.substrait.function."
#: ``spark.substrait.extensionYaml.<alias>``: a Substrait extension YAML's text.
EXTENSION_YAML_PREFIX = "spark.substrait.extensionYaml."
#: What a UDF object given to :func:`register_function` is registered as: ``substrait_<alias>``.
UDF_PREFIX = "substrait_"

_FIELDS = ("urn", "name", "spark", "sql")
_ALIAS = re.compile(r"[A-Za-z0-9_]+")
_NOT_ALIAS_CHAR = re.compile(r"[^A-Za-z0-9_]")
_REDACTED = "(redacted)"


def function_alias(urn: str, name: str) -> str:
    """The alias :func:`register_function` files a mapping under: the name with every
    character outside ``[A-Za-z0-9_]`` as ``_``, then ``_`` and the first 8 hex digits of
    ``sha1(urn + "#" + name)`` (the same alias ``SubstraitPlans.registerFunction`` uses)."""
    digest = hashlib.sha1(f"{urn}#{name}".encode()).hexdigest()[:8]
    return f"{_NOT_ALIAS_CHAR.sub('_', name)}_{digest}"


def register_function(spark, urn: str, name: str, *, spark_function: Any = None,
                      sql: Optional[str] = None) -> dict[str, str]:
    """Maps the extension function ``name`` of the extension ``urn`` to a Spark function
    or a SQL expression, for the plans this session reads from now on.

    Give exactly one of:

    - ``spark_function``: the name of a function Spark can call (a built-in such as
      ``"upper"``, a function registered with ``spark.udf.register`` or
      ``spark.udf.registerJavaFunction``, a catalog function made with ``CREATE FUNCTION``),
      called with the plan's value arguments in order; or a PySpark UDF object (the result of
      ``pyspark.sql.functions.udf`` or ``pandas_udf``), which is first registered with
      ``spark.udf.register`` as ``substrait_<alias>`` and then called by that name;
    - ``sql``: a SQL expression over the arguments ``$1`` … ``$n``, e.g. ``"($1 + $2) * 2"``;
      ``$name`` is the call's option ``name`` (its first preference, a string, or NULL when
      the plan leaves it open), e.g. ``"concat($1, '/', coalesce($style, 'plain'))"``.

    ``name`` is the function's name in the plan (``"my_add"``: every signature), or a
    compound name with a signature (``"my_add:i64_i64"``: that signature only, which wins
    over a mapping of every signature).

    The mapping is stored in the session's configuration, under
    ``spark.substrait.function.<alias>.*`` with ``<alias>`` the name (``_`` for characters
    outside ``[A-Za-z0-9_]``), ``_`` and the first 8 hex digits of ``sha1(urn + "#" + name)``.
    So it holds for this session only, shows in ``SET``, and is what ``SET``, ``--conf`` or
    ``spark-defaults.conf`` would set. Registering the same ``urn`` and ``name`` again
    replaces the mapping, also one set under another alias. A mapping never overrides a
    standard function: one under ``extension:io.substrait:…`` of a function spark-substrait
    maps itself is refused when a plan is read.

    Works on classic and Spark Connect sessions (it only uses ``spark.conf`` and
    ``spark.udf``), so the target is checked when a plan is read, not here: a template or
    name that does not parse is ``SUBSTRAIT_INVALID_SETTING`` naming the setting, a function
    Spark cannot apply to the call's argument types ``SUBSTRAIT_TYPE_MISMATCH`` at the call.

    Example::

        from pyspark.sql.functions import udf

        urn = "extension:org.example:my_functions"
        spark_substrait.register_function(spark, urn, "my_upper", spark_function="upper")
        spark_substrait.register_function(spark, urn, "my_add", sql="($1 + $2) * 2")
        spark_substrait.register_function(spark, urn, "shout",
                                          spark_function=udf(lambda s: s and s.upper() + "!", "string"))
        df = spark.read.substrait(plan)   # a plan calling extension:org.example:my_functions

    Returns the mapping as :func:`registered_functions` lists it, e.g.
    ``{"alias": "my_add_1a2b3c4d", "urn": urn, "name": "my_add", "sql": "($1 + $2) * 2"}``.

    Raises ``ValueError`` when neither or both of ``spark_function`` and ``sql`` are given,
    or a text is empty or holds whitespace where none may be; ``TypeError`` for an argument
    of the wrong type, e.g. a plain Python function (wrap it in ``udf(f, returnType)``).
    """
    caller = "register_function"
    _check_session(spark, caller)
    urn = _check_urn(urn, caller)
    name = _check_name(name, caller)
    if spark_function is None and sql is None:
        raise ValueError(f"{caller}: give exactly one of spark_function= (a Spark function's name or a PySpark UDF) "
                         "or sql= (a SQL expression over $1..$n); got neither")
    if spark_function is not None and sql is not None:
        raise ValueError(f"{caller}: give exactly one of spark_function= or sql=; got both "
                         f"(spark_function={_describe(spark_function)}, sql={sql!r})")
    alias = function_alias(urn, name)
    if sql is not None:
        if not isinstance(sql, str):
            raise TypeError(f"{caller}: sql must be a str (a SQL expression over $1..$n), got {_describe(sql)}")
        if not sql.strip():
            raise ValueError(f"{caller}: sql is empty; expected a SQL expression over $1..$n, e.g. '($1 + $2) * 2'")
        target = ("sql", sql)
    elif isinstance(spark_function, str):
        function = spark_function.strip()
        if not function:
            raise ValueError(f"{caller}: spark_function is an empty string; expected a Spark function's name, "
                             "e.g. 'upper' or one registered with spark.udf.register")
        target = ("spark", function)
    elif _is_udf(spark_function):
        generated = UDF_PREFIX + alias
        # Registered before any setting changes: a UDF Spark refuses leaves the registry as it was.
        spark.udf.register(generated, spark_function)
        target = ("spark", generated)
    elif callable(spark_function):
        raise TypeError(
            f"{caller}: spark_function is a plain Python callable ({_describe(spark_function)}), whose return "
            "type Spark cannot know; wrap it: pyspark.sql.functions.udf(f, returnType) or pandas_udf(f, returnType), "
            "or register it with spark.udf.register(name, f, returnType) and pass that name")
    else:
        raise TypeError(f"{caller}: spark_function must be a str (a Spark function's name) or a PySpark UDF "
                        f"(pyspark.sql.functions.udf / pandas_udf), got {_describe(spark_function)}")

    settings = _settings(spark)
    replaced = [a for a in _aliases_of(settings, urn, name) if a != alias]
    for old in replaced:
        _remove(spark, old, settings)
    kind, value = target
    other = "sql" if kind == "spark" else "spark"
    previous_udf = _generated_udf(alias, settings)
    if _key(alias, other) in settings:
        spark.conf.unset(_key(alias, other))
    spark.conf.set(_key(alias, "urn"), urn)
    spark.conf.set(_key(alias, "name"), name)
    spark.conf.set(_key(alias, kind), value)
    if previous_udf and target != ("spark", previous_udf):
        _drop_udf(spark, previous_udf)
    return {"alias": alias, "urn": urn, "name": name, kind: value}


def unregister_function(spark, urn: str, name: str) -> bool:
    """Removes the mappings of ``name`` in ``urn`` from the session: the one
    :func:`register_function` made and any other set in the session's configuration for the
    same ``urn`` and ``name`` (``SET``, ``--conf``, ``spark-defaults.conf``). A UDF object's
    ``substrait_<alias>`` function is dropped too. ``name`` is matched in any case, with its
    signature: ``"my_add"`` does not remove a mapping of ``"my_add:i64_i64"``.

    Plans calling the function are then refused again (``SUBSTRAIT_UNKNOWN_FUNCTION``),
    unless a mapping file (``spark.substrait.functions.files``, read by the driver) maps it.

    Returns whether a mapping was removed. Works on classic and Spark Connect sessions.
    """
    caller = "unregister_function"
    _check_session(spark, caller)
    urn = _check_urn(urn, caller)
    name = _check_name(name, caller)
    settings = _settings(spark)
    aliases = _aliases_of(settings, urn, name)
    for alias in aliases:
        _remove(spark, alias, settings)
    return bool(aliases)


def registered_functions(spark) -> list[dict[str, str]]:
    """The function mappings in the session's configuration, by alias: one dict each with
    ``alias``, ``urn``, ``name`` and ``spark`` (a Spark function's name) or ``sql`` (a SQL
    template), e.g. ``{"alias": "my_add_1a2b3c4d", "urn": "extension:org.example:my_functions",
    "name": "my_add", "sql": "($1 + $2) * 2"}``.

    Lists what :func:`register_function`, ``SET``, ``--conf`` and ``spark-defaults.conf`` set
    (``spark.substrait.function.<alias>.*``), as it is set: a key that is missing is missing
    from its dict (the plan reading it says what is wrong). Mappings in the files of
    ``spark.substrait.functions.files`` are read by the driver, not here: the plan explorer
    (``spark_substrait.explain``) shows every mapping a plan used. Works on classic and Spark
    Connect sessions.
    """
    _check_session(spark, "registered_functions")
    return [{"alias": alias, **mapping} for alias, mapping in sorted(_mappings(_settings(spark)).items())]


def register_extension_yaml(spark, yaml: Union[str, bytes, os.PathLike]) -> str:
    """Loads a Substrait extension YAML (one with a top-level ``urn:``) into the session, so
    the signatures and options of its functions are checked like the standard ones: a plan
    calling one of them with a signature the YAML does not declare is refused.

    ``yaml`` is the YAML's text (``str`` or UTF-8 ``bytes``), or the path (``str`` or
    ``pathlib.Path``) of a YAML file on this machine, which is read here: the text is what the
    session stores, under ``spark.substrait.extensionYaml.<alias>``, so it also reaches a
    Spark Connect server, which cannot see the client's files. Loading a YAML of the same URN
    again replaces it. (A cluster can instead name files the driver reads, in
    ``spark.substrait.extensionYamls``.)

    The YAML says what a function is; :func:`register_function` still says what Spark calls
    for it. Returns the YAML's URN. Raises ``ValueError`` when the text is not a YAML
    mapping with a ``urn``, ``TypeError`` for another type.
    """
    caller = "register_extension_yaml"
    _check_session(spark, caller)
    text = _yaml_text(yaml, caller)
    urn = _yaml_urn(text, caller)
    # The alias SubstraitPlans.registerExtensionYaml gives it too: one YAML per URN, either way.
    spark.conf.set(EXTENSION_YAML_PREFIX + function_alias(urn, "yaml"), text)
    return urn


def function_settings(urn: str, name: str, sql: Optional[str] = None,
                      spark_function: Optional[str] = None) -> list[tuple[str, str]]:
    """The ``(key, value)`` settings of one mapping, as :func:`register_function` sets them
    (for the command line's ``--function``)."""
    alias = function_alias(urn, name)
    kind, value = ("sql", sql) if sql is not None else ("spark", spark_function)
    return [(_key(alias, "urn"), urn), (_key(alias, "name"), name), (_key(alias, kind), value)]


# --- the registry in the session's configuration


def _key(alias: str, field: str) -> str:
    return f"{FUNCTION_PREFIX}{alias}.{field}"


def _settings(spark) -> dict[str, str]:
    """The session's settings under spark.substrait.function(s) and extensionYaml."""
    conf = spark.conf
    try:
        every = dict(conf.getAll)  # PySpark 4.0+: a property, classic and Connect
    except AttributeError:
        # PySpark 3.5 has no getAll: SET lists what is set (values of secret-looking keys redacted).
        every = {row[0]: row[1] for row in spark.sql("SET").collect()}
    ours = {k: v for k, v in every.items() if k.startswith((FUNCTION_PREFIX, EXTENSION_YAML_PREFIX))}
    for key, value in ours.items():
        if value is not None and _REDACTED in value:
            ours[key] = conf.get(key, None)
    return ours


def _mappings(settings: dict[str, str]) -> dict[str, dict[str, str]]:
    """alias -> {urn, name, spark | sql}, from spark.substrait.function.<alias>.<field>."""
    mappings: dict[str, dict[str, str]] = {}
    for key, value in settings.items():
        if not key.startswith(FUNCTION_PREFIX):
            continue
        alias, _, field = key[len(FUNCTION_PREFIX):].rpartition(".")
        if field in _FIELDS and _ALIAS.fullmatch(alias):
            mappings.setdefault(alias, {})[field] = value
    return {alias: {f: m[f] for f in _FIELDS if f in m} for alias, m in mappings.items()}


def _aliases_of(settings: dict[str, str], urn: str, name: str) -> list[str]:
    """The aliases mapping exactly ``urn`` and ``name`` (as the JVM matches: values trimmed,
    the name in any case; ``my_add`` is not ``my_add:i64_i64``)."""
    return [alias for alias, m in _mappings(settings).items()
            if (m.get("urn") or "").strip() == urn and (m.get("name") or "").strip().lower() == name.lower()]


def _generated_udf(alias: str, settings: dict[str, str]) -> Optional[str]:
    """``substrait_<alias>`` when the alias's mapping calls the UDF register_function made."""
    generated = UDF_PREFIX + alias
    return generated if settings.get(_key(alias, "spark")) == generated else None


def _remove(spark, alias: str, settings: dict[str, str]) -> None:
    generated = _generated_udf(alias, settings)
    for field in _FIELDS:
        if _key(alias, field) in settings:
            spark.conf.unset(_key(alias, field))
    if generated:
        _drop_udf(spark, generated)


def _drop_udf(spark, name: str) -> None:
    spark.sql(f"DROP TEMPORARY FUNCTION IF EXISTS {name}").collect()


# --- checks


def _check_session(spark, caller: str) -> None:
    if not (hasattr(spark, "conf") and hasattr(spark, "udf") and hasattr(spark, "sql")):
        raise TypeError(f"{caller}: expected a SparkSession (classic or Spark Connect) as the first argument, "
                        f"got {_describe(spark)}")


def _check_text(value: Any, what: str, expected: str, caller: str) -> str:
    """`value` if it is a non-empty str without whitespace, as a plan names a URN or a function;
    else the error says which argument (`what`) was wrong and what it should look like."""
    if not isinstance(value, str):
        raise TypeError(f"{caller}: {what} must be a str ({expected}); got {_describe(value)}")
    if not value:
        raise ValueError(f"{caller}: {what} is empty; expected {expected}")
    if re.search(r"\s", value):
        raise ValueError(f"{caller}: {what} {value!r} contains whitespace; expected {expected}")
    return value


def _check_urn(urn: Any, caller: str) -> str:
    return _check_text(urn, "urn", "the extension's URN as the plan names it, e.g. 'extension:org.example:my_functions'",
                       caller)


def _check_name(name: Any, caller: str) -> str:
    _check_text(name, "name", "the function's name as the plan names it, e.g. 'my_add', or with a signature, "
                "'my_add:i64_i64'", caller)
    base, colon, signature = name.partition(":")
    if colon and (not base or not signature):
        raise ValueError(f"{caller}: name {name!r} is neither a name nor NAME:SIGNATURE (e.g. 'my_add:i64_i64')")
    return name


def _is_udf(obj: Any) -> bool:
    """A PySpark UDF (classic or Connect): what udf() / pandas_udf() / spark.udf.register return."""
    return callable(obj) and hasattr(obj, "evalType") and hasattr(obj, "asNondeterministic")


def _describe(obj: Any) -> str:
    kind = type(obj)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    text = repr(obj)
    return f"{name} {text[:60] + '...' if len(text) > 60 else text}"


def _yaml_text(yaml: Any, caller: str) -> str:
    if isinstance(yaml, (bytes, bytearray)):
        try:
            return bytes(yaml).decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"{caller}: the YAML bytes are not UTF-8 ({e.reason} at byte {e.start})") from None
    if isinstance(yaml, os.PathLike):
        return _read_yaml_file(os.fspath(yaml), caller)
    if not isinstance(yaml, str):
        raise TypeError(f"{caller}: expected a YAML text (str or bytes) or the path of a YAML file, "
                        f"got {_describe(yaml)}")
    stripped = yaml.strip()
    if not stripped:
        raise ValueError(f"{caller}: the YAML is empty; expected an extension YAML with a top-level 'urn:'")
    if "\n" in stripped or stripped.startswith(("%YAML", "---", "urn:", "{")):
        return yaml
    path = os.path.expanduser(stripped)
    if os.path.isfile(path):
        return _read_yaml_file(path, caller)
    raise ValueError(f"{caller}: {stripped[:80]!r} is neither a YAML text nor the path of an existing file")


def _read_yaml_file(path: str, caller: str) -> str:
    path = os.path.expanduser(path)
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{caller}: no YAML file at {path!r}")
    with open(path, encoding="utf-8") as f:
        return f.read()


def _yaml_urn(text: str, caller: str) -> str:
    """The YAML's top-level urn: parsed with PyYAML when it is installed, else read from its line."""
    try:
        import yaml as pyyaml
    except ImportError:
        pyyaml = None
    if pyyaml is not None:
        try:
            document = pyyaml.safe_load(text)
        except pyyaml.YAMLError as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(f"{caller}: the text is not YAML: {first}") from None
        if not isinstance(document, dict):
            raise ValueError(f"{caller}: expected an extension YAML (a mapping with a top-level 'urn:'), "
                             f"got a {type(document).__name__}")
        urn = document.get("urn")
    else:
        match = re.search(r"^urn:[ \t]*([\"']?)([^\s\"'#]+)\1[ \t]*(#.*)?$", text, re.MULTILINE)
        urn = match.group(2) if match else None
    if not isinstance(urn, str) or not urn.strip():
        raise ValueError(f"{caller}: the YAML has no top-level 'urn:' (e.g. 'urn: extension:org.example:my_functions'), "
                         "which names the extension whose functions it declares")
    return _check_urn(urn.strip(), caller)
