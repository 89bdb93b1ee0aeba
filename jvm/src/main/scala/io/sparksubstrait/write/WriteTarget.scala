package io.sparksubstrait.write

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.SpecRelease

/**
 * The encoding a written plan uses, keyed on the consumer release that needs it. The default
 * is the pinned spec (0.108: extension URNs, FetchRel's expression bounds); older consumers
 * read fields the spec has since deprecated.
 *
 * @param extensionUris declare extensions by URI (`extension_uris`) rather than URN
 * @param legacyFetch   FetchRel's integer `offset`/`count` rather than `offset_expr`/`count_expr`
 * @param legacyGroupings each grouping lists its expressions itself (not by reference)
 * @param legacyValues  virtual tables as `values` structs of literals rather than `expressions`
 * @param localPaths    local files by path (`/data/t.parquet`) rather than `file:` URI
 * @param dateParts     `extract(YEAR, x)` as `date_part('YEAR', x)` of no declared extension
 *                      (DataFusion reads no enumeration arguments; this is its own spelling)
 * @param readsRounding whether the consumer honours a `rounding` option other than its own
 *                      rounding: DataFusion 55 ignores function options, and a TRUNCATE round
 *                      (the exact form of a DECIMAL(38, s) round) would round half up there
 * @param fieldsOfExpressions whether the consumer reads a field reference rooted at an
 *                      expression (a field of a struct an expression makes): DuckDB 1.1 reads
 *                      it as a column of the input (TPC-DS q09 gave `r_reason_desc`)
 * @param setsAsUnion   grouping sets as a UNION ALL of one aggregate per set: DataFusion 55
 *                      reads its own layout of several groupings (the set index before the
 *                      measures), not the spec's
 * @param outerByName   the consumer binds an outer reference by its column's name: DataFusion 55
 *                      binds it to the subquery's own column of that name (TPC-DS q06)
 */
private[sparksubstrait] final case class WriteTarget(name: String, extensionUris: Boolean, legacyFetch: Boolean,
  legacyGroupings: Boolean,
  legacyValues: Boolean, localPaths: Boolean, dateParts: Boolean = false, readsRounding: Boolean = true,
  fieldsOfExpressions: Boolean = true, setsAsUnion: Boolean = false,
  outerByName: Boolean = false)

private[sparksubstrait] object WriteTarget {

  /** The pinned spec release's own encoding, named after it (`substrait-0.108`). */
  val Current: WriteTarget = WriteTarget(s"substrait-${SpecRelease.Pinned.major}.${SpecRelease.Pinned.minor}",
    extensionUris = false, legacyFetch = false,
    legacyGroupings = false, legacyValues = false, localPaths = false)

  /** DuckDB 1.1's substrait extension reads extension URIs, FetchRel's integer bounds, inline groupings, `values`
   * and local paths (it globs the URI as a path). */
  val DuckDb11: WriteTarget = WriteTarget("duckdb-1.1", extensionUris = true, legacyFetch = true,
    legacyGroupings = true, legacyValues = true, localPaths = true, fieldsOfExpressions = false)

  /**
   * DataFusion 55 reads the current encoding but no enumeration arguments (date parts as its
   * date_part), no function options, and its own layout of grouping sets.
   */
  val DataFusion55: WriteTarget = Current.copy(name = "datafusion-55", dateParts = true, readsRounding = false,
    setsAsUnion = true, outerByName = true)

  val all: Seq[WriteTarget] = Seq(Current, DuckDb11, DataFusion55)

  /** A target by name; null or empty is [[Current]]. */
  def named(name: String): WriteTarget =
    if (name == null || name.trim.isEmpty) Current
    else all.find(_.name.equalsIgnoreCase(name.trim)).getOrElse(
      throw SubstraitErrors.invalidSetting("target", name, all.map(_.name).mkString("one of ", ", ", "")))
}
