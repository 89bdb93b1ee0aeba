package io.sparksubstrait.write

import io.sparksubstrait.errors.SubstraitErrors

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
 */
private[sparksubstrait] final case class WriteTarget(name: String, extensionUris: Boolean, legacyFetch: Boolean,
  legacyGroupings: Boolean,
  legacyValues: Boolean, localPaths: Boolean, dateParts: Boolean = false)

private[sparksubstrait] object WriteTarget {
  val Current: WriteTarget = WriteTarget("substrait-0.108", extensionUris = false, legacyFetch = false,
    legacyGroupings = false, legacyValues = false, localPaths = false)

  /** DuckDB 1.1's substrait extension reads extension URIs, FetchRel's integer bounds, inline groupings, `values`
   * and local paths (it globs the URI as a path). */
  val DuckDb11: WriteTarget = WriteTarget("duckdb-1.1", extensionUris = true, legacyFetch = true,
    legacyGroupings = true, legacyValues = true, localPaths = true)

  /** DataFusion 55 reads the current encoding but no enumeration arguments: date parts as its date_part. */
  val DataFusion55: WriteTarget = Current.copy(name = "datafusion-55", dateParts = true)

  val all: Seq[WriteTarget] = Seq(Current, DuckDb11, DataFusion55)

  /** A target by name; null or empty is [[Current]]. */
  def named(name: String): WriteTarget =
    if (name == null || name.trim.isEmpty) Current
    else all.find(_.name.equalsIgnoreCase(name.trim)).getOrElse(
      throw SubstraitErrors.invalidSetting("target", name, all.map(_.name).mkString("one of ", ", ", "")))
}
