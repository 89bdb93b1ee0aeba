package io.sparksubstrait.decode

import io.sparksubstrait.decode.SpecCoverage._

/**
 * The spec coverage table ([[SpecCoverage]]): every message a plan can hold, each field
 * classed once. When a converter learns to read a refused field, move it to `read` here
 * (SpecCoverageSuite and docs/supported.md follow).
 */
private[decode] object SpecCoverageTable {
  private object Why {
    val ext = "extension relations and objects: no extension is registered with this consumer"
    val unbound = "an unbound type has no values"
    val func = "a function type has no Spark column type (lambdas are read where a function takes them)"
    val iceberg = "Spark reads Iceberg tables through a catalog, not from a metadata file (read them as a NamedTable)"
    val exchange = "a record sent to several partitions, or to every one, is a duplicated row as a relation; exchange targets are outside Spark"
    val alias = "type aliases are not read"
    val params = "user-defined types with parameters: only the spec's unsigned integer types are read"
    val lambdainv = "an immediately invoked lambda: Spark has no such expression"
    val mapkeyexpr = "the spec defines no pattern language for map key expressions"
    val dwrf = "Spark has no DWRF reader"
    val enh = "an enhancement changes the plan's meaning in a way only its producer knows"
    val urls = "the type URLs a plan may use, informational"
    val git = "the producer's build, informational"
    val opt = "the spec lets a consumer ignore optimizations"
    val hint = "hints are advisory by the spec and change no rows"
    val nullable = "Spark derives a constant's nullability from its value; the rows are the same"
    val partition_index = "which partition a file belongs to changes no rows"
    val max_line = "the spec leaves longer lines undefined; reading them whole is one allowed behaviour"
    val rr_exact = "which partition a row lands in changes no row"
  }

  private def message(name: String)(groups: Seq[(String, Use)]*): (String, Seq[(String, Use)]) = name -> groups.flatten
  private def read(fields: String*) = fields.map(_ -> (Read: Use))
  private def lifted(fields: String*) = fields.map(_ -> (Lifted: Use))
  private def inlined(fields: String*) = fields.map(_ -> (Inlined: Use))
  private def advisory(why: String)(fields: String*) = fields.map(_ -> (Advisory(why): Use))
  private def refused(why: String)(fields: String*) = fields.map(_ -> (Refused(why): Use))

  val entries: Seq[(String, Seq[(String, Use)])] = Seq(
    message("substrait.Plan")(read("version", "extension_urns", "extensions", "relations", "advanced_extensions", "parameter_bindings"), advisory(Why.urls)("expected_type_urls"), refused(Why.alias)("type_aliases"), read("execution_behavior"), inlined("named_lambdas"), lifted("extension_uris")),
    message("substrait.Version")(read("major_number", "minor_number", "patch_number", "producer"), advisory(Why.git)("git_hash")),
    message("substrait.extensions.SimpleExtensionURN")(read("extension_urn_anchor", "urn")),
    message("substrait.extensions.SimpleExtensionDeclaration")(read("extension_type", "extension_type_variation", "extension_function")),
    message("substrait.PlanRel")(read("rel", "root"), inlined("detached_expressions", "detached_rels")),
    message("substrait.extensions.AdvancedExtension")(advisory(Why.opt)("optimization"), refused(Why.enh)("enhancement")),
    message("substrait.DynamicParameterBinding")(read("parameter_anchor", "value")),
    message("substrait.TypeAlias")(refused(Why.alias)("type_alias_anchor", "type")),
    message("substrait.ExecutionBehavior")(read("variable_eval_mode")),
    message("substrait.NamedLambda")(inlined("lambda_anchor", "lambda", "name")),
    message("substrait.extensions.SimpleExtensionDeclaration.ExtensionType")(read("extension_urn_reference", "type_anchor", "name"), lifted("extension_uri_reference")),
    message("substrait.extensions.SimpleExtensionDeclaration.ExtensionTypeVariation")(read("extension_urn_reference", "type_variation_anchor", "name"), lifted("extension_uri_reference")),
    message("substrait.extensions.SimpleExtensionDeclaration.ExtensionFunction")(read("extension_urn_reference", "function_anchor", "name"), lifted("extension_uri_reference")),
    message("substrait.Rel")(read("read", "filter", "fetch", "aggregate", "sort", "join", "lateral_join", "project", "set", "cross", "reference", "write", "ddl", "update", "hash_join", "merge_join", "nested_loop_join", "window", "exchange", "expand", "top_n"), refused(Why.ext)("extension_single", "extension_multi", "extension_leaf"), inlined("detached_rel_ordinal")),
    message("substrait.RelRoot")(read("input", "names")),
    message("substrait.Expression")(read("literal", "selection", "scalar_function", "window_function", "if_then", "switch_expression", "singular_or_list", "multi_or_list", "cast", "subquery", "nested", "dynamic_parameter", "lambda"), refused(Why.lambdainv)("lambda_invocation"), read("execution_context_variable"), inlined("detached_expression_ordinal", "named_lambda_reference"), lifted("enum")),
    message("substrait.Expression.Literal")(read("boolean", "i8", "i16", "i32", "i64", "fp32", "fp64", "string", "binary", "date", "interval_year_to_month", "interval_day_to_second", "interval_compound", "fixed_char", "var_char", "fixed_binary", "decimal", "precision_time", "precision_timestamp", "precision_timestamp_tz", "struct", "map", "null", "list", "empty_list", "empty_map", "user_defined", "type_variation_reference", "uuid"), advisory(Why.nullable)("nullable"), lifted("timestamp", "time", "timestamp_tz")),
    message("substrait.Type")(read("bool", "i8", "i16", "i32", "i64", "fp32", "fp64", "string", "binary", "date", "interval_year", "interval_day", "interval_compound", "fixed_char", "varchar", "fixed_binary", "decimal", "precision_time", "precision_timestamp", "precision_timestamp_tz", "struct", "list", "map", "user_defined", "uuid"), refused(Why.func)("func"), refused(Why.unbound)("unbound"), refused(Why.alias)("alias"), lifted("timestamp", "time", "timestamp_tz", "user_defined_type_reference")),
    message("substrait.Expression.Lambda")(read("parameters", "body")),
    message("substrait.ReadRel")(read("common", "base_schema", "filter", "best_effort_filter", "projection", "advanced_extension", "virtual_table", "local_files", "named_table"), refused(Why.ext)("extension_table"), refused(Why.iceberg)("iceberg_table")),
    message("substrait.FilterRel")(read("common", "input", "condition", "advanced_extension")),
    message("substrait.FetchRel")(read("common", "input", "offset_expr", "count_expr", "advanced_extension"), lifted("offset", "count")),
    message("substrait.AggregateRel")(read("common", "input", "groupings", "measures", "grouping_expressions", "advanced_extension")),
    message("substrait.SortRel")(read("common", "input", "sorts", "advanced_extension")),
    message("substrait.JoinRel")(read("common", "left", "right", "expression", "post_join_filter", "type", "advanced_extension")),
    message("substrait.LateralJoinRel")(read("common", "left", "right", "expression", "post_join_filter", "type", "advanced_extension")),
    message("substrait.ProjectRel")(read("common", "input", "expressions", "advanced_extension")),
    message("substrait.SetRel")(read("common", "inputs", "op", "advanced_extension")),
    message("substrait.ExtensionSingleRel")(refused(Why.ext)("common", "input", "detail")),
    message("substrait.ExtensionMultiRel")(refused(Why.ext)("common", "inputs", "detail")),
    message("substrait.ExtensionLeafRel")(refused(Why.ext)("common", "detail")),
    message("substrait.CrossRel")(read("common", "left", "right", "advanced_extension")),
    message("substrait.ReferenceRel")(read("subtree_ordinal")),
    message("substrait.WriteRel")(read("named_table", "table_schema", "op", "input", "create_mode", "output", "common", "advanced_extension"), refused(Why.ext)("extension_table")),
    message("substrait.DdlRel")(read("named_object", "table_schema", "table_defaults", "object", "op", "view_definition", "common", "advanced_extension"), refused(Why.ext)("extension_object")),
    message("substrait.UpdateRel")(read("named_table", "table_schema", "condition", "transformations", "common", "advanced_extension")),
    message("substrait.HashJoinRel")(read("common", "left", "right", "keys", "post_join_filter", "type", "build_input", "advanced_extension", "residual_expression"), lifted("left_keys", "right_keys")),
    message("substrait.MergeJoinRel")(read("common", "left", "right", "keys", "post_join_filter", "type", "advanced_extension", "residual_expression"), lifted("left_keys", "right_keys")),
    message("substrait.NestedLoopJoinRel")(read("common", "left", "right", "expression", "type", "advanced_extension")),
    message("substrait.ConsistentPartitionWindowRel")(read("common", "input", "window_functions", "partition_expressions", "sorts", "advanced_extension")),
    message("substrait.ExchangeRel")(read("common", "input", "partition_count", "scatter_by_fields", "single_target", "round_robin", "advanced_extension"), refused(Why.exchange)("targets", "multi_target", "broadcast")),
    message("substrait.ExpandRel")(read("common", "input", "fields", "advanced_extension")),
    message("substrait.TopNRel")(read("common", "input", "sorts", "offset", "count", "mode", "advanced_extension")),
    message("substrait.Expression.FieldReference")(read("direct_reference", "masked_reference", "expression", "root_reference", "outer_reference", "lambda_parameter_reference")),
    message("substrait.Expression.ScalarFunction")(read("function_reference", "arguments", "options", "output_type"), lifted("args")),
    message("substrait.Expression.WindowFunction")(read("function_reference", "arguments", "options", "output_type", "phase", "sorts", "invocation", "partitions", "bounds_type", "lower_bound", "upper_bound"), lifted("args")),
    message("substrait.Expression.IfThen")(read("ifs", "else")),
    message("substrait.Expression.SwitchExpression")(read("match", "ifs", "else")),
    message("substrait.Expression.SingularOrList")(read("value", "options")),
    message("substrait.Expression.MultiOrList")(read("value", "options")),
    message("substrait.Expression.Cast")(read("type", "input", "failure_behavior")),
    message("substrait.Expression.Subquery")(read("scalar", "in_predicate", "set_predicate", "set_comparison")),
    message("substrait.Expression.Nested")(advisory(Why.nullable)("nullable"), read("type_variation_reference", "struct", "list", "map")),
    message("substrait.DynamicParameter")(read("type", "parameter_reference")),
    message("substrait.Expression.LambdaInvocation")(refused(Why.lambdainv)("lambda", "named_lambda", "arguments")),
    message("substrait.Expression.ExecutionContextVariable")(read("current_timestamp", "current_timezone", "current_date")),
    message("substrait.Expression.NamedLambdaReference")(inlined("lambda_reference")),
    message("substrait.Expression.Literal.IntervalYearToMonth")(read("years", "months")),
    message("substrait.Expression.Literal.IntervalDayToSecond")(read("days", "seconds", "precision", "subseconds"), lifted("microseconds")),
    message("substrait.Expression.Literal.IntervalCompound")(read("interval_year_to_month", "interval_day_to_second")),
    message("substrait.Expression.Literal.VarChar")(read("value", "length")),
    message("substrait.Expression.Literal.Decimal")(read("value", "precision", "scale")),
    message("substrait.Expression.Literal.PrecisionTime")(read("precision", "value")),
    message("substrait.Expression.Literal.PrecisionTimestamp")(read("precision", "value")),
    message("substrait.Expression.Literal.Struct")(read("fields")),
    message("substrait.Expression.Literal.Map")(read("key_values")),
    message("substrait.Expression.Literal.List")(read("values")),
    message("substrait.Type.List")(read("type", "type_variation_reference", "nullability")),
    message("substrait.Type.Map")(read("key", "value", "type_variation_reference", "nullability")),
    message("substrait.Expression.Literal.UserDefined")(read("type_reference", "value", "struct"), refused(Why.alias)("type_alias_reference"), refused(Why.params)("type_parameters")),
    message("substrait.Type.Boolean")(read("type_variation_reference", "nullability")),
    message("substrait.Type.I8")(read("type_variation_reference", "nullability")),
    message("substrait.Type.I16")(read("type_variation_reference", "nullability")),
    message("substrait.Type.I32")(read("type_variation_reference", "nullability")),
    message("substrait.Type.I64")(read("type_variation_reference", "nullability")),
    message("substrait.Type.FP32")(read("type_variation_reference", "nullability")),
    message("substrait.Type.FP64")(read("type_variation_reference", "nullability")),
    message("substrait.Type.String")(read("type_variation_reference", "nullability")),
    message("substrait.Type.Binary")(read("type_variation_reference", "nullability")),
    message("substrait.Type.Date")(read("type_variation_reference", "nullability")),
    message("substrait.Type.IntervalYear")(read("type_variation_reference", "nullability")),
    message("substrait.Type.IntervalDay")(read("type_variation_reference", "nullability", "precision")),
    message("substrait.Type.IntervalCompound")(read("type_variation_reference", "nullability", "precision")),
    message("substrait.Type.UUID")(read("type_variation_reference", "nullability")),
    message("substrait.Type.FixedChar")(read("length", "type_variation_reference", "nullability")),
    message("substrait.Type.VarChar")(read("length", "type_variation_reference", "nullability")),
    message("substrait.Type.FixedBinary")(read("length", "type_variation_reference", "nullability")),
    message("substrait.Type.Decimal")(read("scale", "precision", "type_variation_reference", "nullability")),
    message("substrait.Type.PrecisionTime")(read("precision", "type_variation_reference", "nullability")),
    message("substrait.Type.PrecisionTimestamp")(read("precision", "type_variation_reference", "nullability")),
    message("substrait.Type.PrecisionTimestampTZ")(read("precision", "type_variation_reference", "nullability")),
    message("substrait.Type.Struct")(read("types", "type_variation_reference", "nullability")),
    message("substrait.Type.Func")(refused(Why.func)("parameter_types", "return_type", "nullability")),
    message("substrait.Type.Unbound")(),
    message("substrait.Type.UserDefined")(read("type_reference", "type_variation_reference", "nullability"), refused(Why.params)("type_parameters")),
    message("substrait.Type.TypeAliasReference")(refused(Why.alias)("type_alias_reference", "nullability")),
    message("substrait.RelCommon")(read("direct", "emit", "advanced_extension", "rel_anchor"), advisory(Why.hint)("hint")),
    message("substrait.NamedStruct")(read("names", "struct")),
    message("substrait.Expression.MaskExpression")(read("select", "maintain_singular_struct")),
    message("substrait.ReadRel.VirtualTable")(read("expressions"), lifted("values")),
    message("substrait.ReadRel.LocalFiles")(read("items", "advanced_extension")),
    message("substrait.ReadRel.NamedTable")(read("names", "advanced_extension")),
    message("substrait.ReadRel.ExtensionTable")(refused(Why.ext)("detail")),
    message("substrait.ReadRel.IcebergTable")(refused(Why.iceberg)("direct")),
    message("substrait.AggregateRel.Grouping")(read("expression_references"), lifted("grouping_expressions")),
    message("substrait.AggregateRel.Measure")(read("measure", "filter")),
    message("substrait.SortField")(read("expr", "direction", "comparison_function_reference")),
    message("substrait.NamedObjectWrite")(read("names", "advanced_extension")),
    message("substrait.ExtensionObject")(refused(Why.ext)("detail")),
    message("substrait.NamedTable")(read("names", "advanced_extension")),
    message("substrait.UpdateRel.TransformExpression")(read("transformation", "column_target")),
    message("substrait.ComparisonJoinKey")(read("left", "right", "comparison")),
    message("substrait.ConsistentPartitionWindowRel.WindowRelFunction")(read("function_reference", "arguments", "options", "output_type", "phase", "invocation", "lower_bound", "upper_bound", "bounds_type")),
    message("substrait.ExchangeRel.ExchangeTarget")(refused(Why.exchange)("partition_id", "uri", "extended")),
    message("substrait.ExchangeRel.ScatterFields")(read("fields")),
    message("substrait.ExchangeRel.SingleBucketExpression")(read("expression")),
    message("substrait.ExchangeRel.MultiBucketExpression")(refused(Why.exchange)("expression", "constrained_to_count")),
    message("substrait.ExchangeRel.RoundRobin")(advisory(Why.rr_exact)("exact")),
    message("substrait.ExchangeRel.Broadcast")(),
    message("substrait.ExpandRel.ExpandField")(read("switching_field", "consistent_field")),
    message("substrait.Expression.ReferenceSegment")(read("map_key", "struct_field", "list_element")),
    message("substrait.Expression.FieldReference.RootReference")(),
    message("substrait.Expression.FieldReference.OuterReference")(read("steps_out", "rel_reference")),
    message("substrait.Expression.FieldReference.LambdaParameterReference")(read("steps_out")),
    message("substrait.FunctionArgument")(read("enum", "type", "value")),
    message("substrait.FunctionOption")(read("name", "preference")),
    message("substrait.Expression.WindowFunction.Bound")(read("preceding", "following", "current_row", "unbounded")),
    message("substrait.Expression.IfThen.IfClause")(read("if", "then")),
    message("substrait.Expression.SwitchExpression.IfValue")(read("if", "then")),
    message("substrait.Expression.MultiOrList.Record")(read("fields")),
    message("substrait.Expression.Subquery.Scalar")(read("input")),
    message("substrait.Expression.Subquery.InPredicate")(read("needles", "haystack")),
    message("substrait.Expression.Subquery.SetPredicate")(read("predicate_op", "tuples")),
    message("substrait.Expression.Subquery.SetComparison")(read("reduction_op", "comparison_op", "left", "right")),
    message("substrait.Expression.Nested.Struct")(read("fields")),
    message("substrait.Expression.Nested.List")(read("values")),
    message("substrait.Expression.Nested.Map")(read("key_values")),
    message("substrait.Expression.Literal.Map.KeyValue")(read("key", "value")),
    message("substrait.Type.Parameter")(refused(Why.params)("null", "data_type", "boolean", "integer", "enum", "string")),
    message("substrait.RelCommon.Direct")(),
    message("substrait.RelCommon.Emit")(read("output_mapping")),
    message("substrait.RelCommon.Hint")(advisory(Why.hint)("stats", "constraint", "alias", "output_names", "advanced_extension", "saved_computations", "loaded_computations")),
    message("substrait.Expression.MaskExpression.StructSelect")(read("struct_items")),
    message("substrait.ReadRel.LocalFiles.FileOrFiles")(read("uri_path", "uri_path_glob", "uri_file", "uri_folder", "start", "length", "parquet", "orc", "extension", "text", "arrow"), advisory(Why.partition_index)("partition_index"), refused(Why.dwrf)("dwrf")),
    message("substrait.ReadRel.IcebergTable.MetadataFileRead")(refused(Why.iceberg)("metadata_uri", "snapshot_id", "snapshot_timestamp")),
    message("substrait.AggregateFunction")(read("function_reference", "arguments", "options", "output_type", "phase", "sorts", "invocation"), lifted("args")),
    message("substrait.ComparisonJoinKey.ComparisonType")(read("simple", "custom_function_reference")),
    message("substrait.ExpandRel.SwitchingField")(read("duplicates")),
    message("substrait.Expression.ReferenceSegment.MapKey")(read("map_key", "child")),
    message("substrait.Expression.ReferenceSegment.StructField")(read("field", "child")),
    message("substrait.Expression.ReferenceSegment.ListElement")(read("offset", "child")),
    message("substrait.Expression.WindowFunction.Bound.Preceding")(lifted("offset"), read("offset_expr")),
    message("substrait.Expression.WindowFunction.Bound.Following")(lifted("offset"), read("offset_expr")),
    message("substrait.Expression.WindowFunction.Bound.CurrentRow")(),
    message("substrait.Expression.WindowFunction.Bound.Unbounded")(),
    message("substrait.Expression.Nested.Map.KeyValue")(read("key", "value")),
    message("substrait.RelCommon.Hint.Stats")(advisory(Why.hint)("row_count", "record_size", "advanced_extension")),
    message("substrait.RelCommon.Hint.RuntimeConstraint")(advisory(Why.hint)("advanced_extension")),
    message("substrait.RelCommon.Hint.SavedComputation")(advisory(Why.hint)("computation_id", "type", "advanced_extension")),
    message("substrait.RelCommon.Hint.LoadedComputation")(advisory(Why.hint)("computation_id_reference", "type", "advanced_extension")),
    message("substrait.Expression.MaskExpression.StructItem")(read("field", "child")),
    message("substrait.ReadRel.LocalFiles.FileOrFiles.ParquetReadOptions")(),
    message("substrait.ReadRel.LocalFiles.FileOrFiles.ArrowReadOptions")(),
    message("substrait.ReadRel.LocalFiles.FileOrFiles.OrcReadOptions")(),
    message("substrait.ReadRel.LocalFiles.FileOrFiles.DwrfReadOptions")(),
    message("substrait.ReadRel.LocalFiles.FileOrFiles.DelimiterSeparatedTextReadOptions")(read("field_delimiter", "quote", "header_lines_to_skip", "escape", "value_treated_as_null"), advisory(Why.max_line)("max_line_size")),
    message("substrait.Expression.MaskExpression.Select")(read("struct", "list", "map")),
    message("substrait.Expression.MaskExpression.ListSelect")(read("selection", "child")),
    message("substrait.Expression.MaskExpression.MapSelect")(read("key", "child"), refused(Why.mapkeyexpr)("expression")),
    message("substrait.Expression.MaskExpression.ListSelect.ListSelectItem")(read("item", "slice")),
    message("substrait.Expression.MaskExpression.MapSelect.MapKey")(read("map_key")),
    message("substrait.Expression.MaskExpression.MapSelect.MapKeyExpression")(refused(Why.mapkeyexpr)("map_key_expression")),
    message("substrait.Expression.MaskExpression.ListSelect.ListSelectItem.ListElement")(read("field")),
    message("substrait.Expression.MaskExpression.ListSelect.ListSelectItem.ListSlice")(read("start", "end")),
    // Messages only the legacy fields use (merged back from older releases: project/SubstraitProtos.scala).
    message("substrait.extensions.SimpleExtensionURI")(lifted("extension_uri_anchor", "uri")),
    message("substrait.Expression.Enum")(lifted("specified", "unspecified")),
    message("substrait.Expression.Enum.Empty")(),
    message("substrait.Type.Timestamp")(lifted("type_variation_reference", "nullability")),
    message("substrait.Type.TimestampTZ")(lifted("type_variation_reference", "nullability")),
    message("substrait.Type.Time")(lifted("type_variation_reference", "nullability"))
  )
}
