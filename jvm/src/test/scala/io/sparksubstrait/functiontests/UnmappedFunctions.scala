package io.sparksubstrait.functiontests

/**
 * Why each function of the standard YAMLs that the catalog does not map is left out: shown in
 * docs/function-tests.md, and FunctionTestRunnerSuite fails when an unmapped function has no
 * reason here (or a mapped one still has).
 */
object UnmappedFunctions {
  private val Geometry =
    "Substrait's geometry is a user-defined type (u!geometry) with no Spark equivalent on the Spark versions built for"

  private val reasons: Map[(String, String), String] = Map(
    ("functions_arithmetic", "quantile") ->
      ("Spark's percentile and percentile_approx return one value per fraction, " +
        "not the N-bin boundaries with MINIMUM/MAXIMUM choices and the rounding of interpolated integers that quantile defines"),
    ("functions_datetime", "round_temporal") ->
      ("rounding to a multiple of a unit from an arbitrary origin, with four tie " +
        "rules and a time zone: Spark's date_trunc floors to calendar units only"),
    ("functions_datetime", "round_calendar") ->
      ("rounding to multiples of a unit within calendar origins (ISO and US weeks " +
        "among them), with four tie rules: Spark's date_trunc floors to one unit only"),
    ("functions_datetime", "strptime_time") ->
      "parses into precision_time: Spark's TIME type exists from Spark 4.1 only, and its to_time takes Java patterns, not strptime's"
  ) ++ Seq("point", "make_line", "x_coordinate", "y_coordinate", "num_points", "is_empty", "is_closed", "is_simple",
    "is_ring", "geometry_type", "envelope", "dimension", "is_valid", "collection_extract", "flip_coordinates",
    "remove_repeated_points", "buffer", "centroid", "minimum_bounding_circle").map(f =>
    ("functions_geometry", f) -> Geometry)

  def reason(extension: String, function: String): Option[String] = reasons.get((extension, function))
  def all: Map[(String, String), String] = reasons
}
