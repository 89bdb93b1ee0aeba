"""Bad plans raise the documented Python errors, and leave the session usable."""

import json

import pytest

import spark_substrait
from spark_substrait import SubstraitInvalidPlanError, SubstraitPlanError, SubstraitUnsupportedError
from spark_substrait._errors import from_java

Q6_MEASURE_FUNCTION = ("relations[0].root.input.project.input.aggregate.measures[0].measure"
                       ".arguments[0].value.scalar_function")


def expect_error(spark, plan, cls, condition, location):
    with pytest.raises(SubstraitPlanError) as info:
        spark.read.substrait(plan).collect()
    error = info.value
    assert type(error) is cls, f"{type(error).__name__}: {error}"
    assert error.condition == condition
    assert error.getCondition() == condition
    assert error.location == location
    assert error.message.startswith(f"[{condition}] ")
    assert str(error) == error.message
    if location is not None:
        assert error.message.startswith(f"[{condition}] At {location}: ")
        assert error.parameters["location"] == location
    # The session is still fine.
    assert [tuple(r) for r in spark.sql("select 1").collect()] == [(1,)]
    return error


@pytest.mark.parametrize("plan", [b"\x01\x02 not a plan \xff", bytearray(b"\x0a\x05abc")],
                         ids=["garbage", "truncated"])
def test_malformed_bytes(spark, plan):
    error = expect_error(spark, plan, SubstraitInvalidPlanError, "SUBSTRAIT_MALFORMED_PLAN", "plan")
    assert error.parameters["format"] == "binary"


def test_malformed_json(spark):
    error = expect_error(spark, '{"relations": [', SubstraitInvalidPlanError,
                         "SUBSTRAIT_MALFORMED_PLAN", "plan")
    assert error.parameters["format"] == "JSON"


def test_unknown_function_in_json(spark, tpch, lineitem_view):
    plan = json.loads(tpch.duckdb_json[6])
    renamed = 0
    for ext in plan["extensions"]:
        function = ext.get("extensionFunction", {})
        if function.get("name", "").startswith("multiply"):
            function["name"] = "no_such_function"
            renamed += 1
    assert renamed == 1
    error = expect_error(spark, json.dumps(plan), SubstraitUnsupportedError,
                         "SUBSTRAIT_UNKNOWN_FUNCTION", Q6_MEASURE_FUNCTION)
    assert "no_such_function" in error.message
    assert error.parameters["name"] == "no_such_function"


def test_unknown_function_in_binary(spark, tpch, lineitem_view):
    from substrait.plan_pb2 import Plan

    plan = Plan()
    plan.ParseFromString(tpch.datafusion_bin[6])
    names = [e.extension_function.name for e in plan.extensions]
    assert "multiply" in names
    for e in plan.extensions:
        if e.extension_function.name == "multiply":
            e.extension_function.name = "no_such_function"
    error = expect_error(spark, plan.SerializeToString(), SubstraitUnsupportedError,
                         "SUBSTRAIT_UNKNOWN_FUNCTION",
                         "relations[0].root.input.project.input.aggregate.measures[0].measure"
                         ".arguments[0].value.scalar_function")
    assert "no_such_function" in error.message


def test_field_reference_out_of_range(spark, tpch, lineitem_view):
    plan = json.loads(tpch.duckdb_json[6])
    top = plan["relations"][0]["root"]["input"]["project"]
    top["expressions"][0]["selection"]["directReference"]["structField"]["field"] = 7
    error = expect_error(
        spark, json.dumps(plan), SubstraitInvalidPlanError,
        "SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE",
        "relations[0].root.input.project.expressions[0].selection.direct_reference"
        ".struct_field.field")
    assert error.parameters["index"] == "7"
    assert "field reference 7 is out of range" in error.message


def test_table_not_found(spark, tpch, lineitem_view):
    plan = tpch.duckdb_json[6].replace('"lineitem"', '"no_such_table"')
    error = expect_error(spark, plan, SubstraitInvalidPlanError, "SUBSTRAIT_TABLE_NOT_FOUND",
                         "relations[0].root.input.project.input.aggregate.input.read"
                         ".named_table.names")
    assert "no_such_table" in error.message


def test_errors_are_one_family():
    assert issubclass(SubstraitInvalidPlanError, SubstraitPlanError)
    assert issubclass(SubstraitUnsupportedError, SubstraitPlanError)
    assert issubclass(spark_substrait.SubstraitNotInstalledError, SubstraitPlanError)
    assert not issubclass(SubstraitInvalidPlanError, SubstraitUnsupportedError)


def test_translates_py4j_errors(spark):
    from py4j.protocol import Py4JJavaError

    entry_point = spark._jvm.io.sparksubstrait.SubstraitPlans
    with pytest.raises(Py4JJavaError) as info:
        entry_point.read(spark._jsparkSession, b"\x01garbage")
    error = from_java(info.value)
    assert isinstance(error, SubstraitInvalidPlanError)
    assert error.condition == "SUBSTRAIT_MALFORMED_PLAN"


def test_translates_pyspark_converted_errors(spark, tpch, lineitem_view):
    """A SubstraitException inside an exception that pyspark converts (it keeps the Java
    exception at ``_origin``) is found through the cause chain."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors.exceptions.captured import CapturedException, convert_exception

    plan = json.loads(tpch.duckdb_json[6])
    plan["relations"][0]["root"]["input"]["project"]["expressions"][0]["selection"][
        "directReference"]["structField"]["field"] = 3
    entry_point = spark._jvm.io.sparksubstrait.SubstraitPlans
    with pytest.raises(Py4JJavaError) as info:
        entry_point.readJson(spark._jsparkSession, json.dumps(plan))
    wrapper = spark._jvm.java.lang.IllegalArgumentException("wrapped", info.value.java_exception)
    converted = convert_exception(wrapper)
    assert isinstance(converted, CapturedException) and converted._origin is not None
    error = from_java(converted)
    assert isinstance(error, SubstraitInvalidPlanError)
    assert error.condition == "SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE"
    assert error.location == ("relations[0].root.input.project.expressions[0].selection"
                              ".direct_reference.struct_field.field")
    assert error.message.startswith("[SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE] At relations[0]")


def test_other_errors_are_not_translated(spark):
    from py4j.protocol import Py4JJavaError
    from pyspark.errors.exceptions.captured import CapturedException

    with pytest.raises((Py4JJavaError, CapturedException)) as info:
        spark._jvm.java.lang.Integer.parseInt("not a number")
    assert from_java(info.value) is None


def test_several_roots_need_a_root_index(spark, tpch, lineitem_view):
    from substrait.plan_pb2 import Plan

    plan = Plan()
    plan.ParseFromString(tpch.datafusion_bin[6])
    plan.relations.append(plan.relations[0])
    two_roots = plan.SerializeToString()
    expect_error(spark, two_roots, SubstraitInvalidPlanError, "SUBSTRAIT_NO_ROOT", "relations")
    expected = [tuple(r) for r in spark.read.substrait(tpch.datafusion_bin[6]).collect()]
    for root in (0, 1):
        assert [tuple(r) for r in spark.read.substrait(two_roots, root=root).collect()] == expected
    with pytest.raises(TypeError):
        spark.read.substrait(two_roots, root="1")


def test_join_without_its_expression_is_refused_at_conversion(spark):
    """A JoinRel without its expression (ran as a cross join before): refused at conversion with the spec's rule;
    the same join on the literal true gives every pair."""
    def read(name, values):
        fields = [{"literal": {"i32": v}} if v is not None
                  else {"literal": {"null": {"i32": {"nullability": "NULLABILITY_NULLABLE"}}}} for v in values]
        return {"read": {
            "baseSchema": {"names": [name], "struct": {
                "types": [{"i32": {"nullability": "NULLABILITY_NULLABLE"}}], "nullability": "NULLABILITY_REQUIRED"}},
            "virtualTable": {"expressions": [{"fields": [f]} for f in fields]}}}

    join = {"left": read("a", [1, 2, 2]), "right": read("b", [None, 3]), "type": "JOIN_TYPE_INNER"}
    plan = {"version": {"minorNumber": 87, "producer": "tests"},
            "relations": [{"root": {"input": {"join": join}, "names": ["a", "b"]}}]}
    error = expect_error(spark, json.dumps(plan), SubstraitInvalidPlanError, "SUBSTRAIT_INVALID_PLAN",
                         "relations[0].root.input.join.expression")
    assert "Can be the literal True" in error.message
    assert "a cross join is a CrossRel" in error.message
    join["expression"] = {"literal": {"boolean": True}}
    rows = sorted((tuple(r) for r in spark.read.substrait(json.dumps(plan)).collect()), key=repr)
    assert rows == sorted(((a, b) for a in [1, 2, 2] for b in [None, 3]), key=repr)
