package io.sparksubstrait.decode

import java.net.URI
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._
import scala.util.Try

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.foundation.PlanPath

/**
 * Which files a plan may read. A plan may come from a third party, so LocalFiles reads are
 * refused unless `spark.substrait.localFiles.allowedPrefixes` lists a prefix the path lies
 * under (docs/security.md). Local paths are compared after removing `.` and `..` and, for
 * what exists, after resolving symbolic links; a glob is checked through its fixed part.
 */
private[sparksubstrait] final class FileAccessPolicy(allowedPrefixes: Seq[String]) {
  private val allowed: Seq[(Option[String], String)] = allowedPrefixes.map(FileAccessPolicy.normalized)

  def check(uri: String, at: PlanPath): Unit = {
    // Hadoop's globber expands {a/b,c} into paths and unescapes \. before normalizing, so
    // `..` inside a glob or any backslash could step out of the fixed part checked below.
    if (FileAccessPolicy.isGlob(uri) && uri.contains("..") || uri.contains("\\")) {
      throw SubstraitErrors.localFilesNotAllowed(at, uri, allowedPrefixes)
    }
    val (scheme, path) = wellFormed(uri, at)
    def inside(p: String) = allowed.exists { case (s, prefix) => s == scheme && FileAccessPolicy.under(p, prefix) }
    // The written path first: a path outside every prefix is refused before the file system is
    // asked anything, so the refusal costs the same and says the same whether it exists or not.
    if (!inside(path)) throw SubstraitErrors.localFilesNotAllowed(at, uri, allowedPrefixes)
    // A local folder (or a glob's folder) is read with everything under it: a symbolic link in
    // it that points outside the prefixes would be followed, so each must resolve inside.
    if (scheme.isEmpty && !(FileAccessPolicy.realPath(path).toSeq ++ FileAccessPolicy.linkTargetsUnder(path)).forall(
        inside)) {
      throw SubstraitErrors.localFilesNotAllowed(at, uri, allowedPrefixes)
    }
  }

  /**
   * The normalized (scheme, path) of a URI that names a path: a NUL or other control character,
   * a relative `file:` URI (`file:secret/x`, which has no path) or a URI without a path is the
   * plan's error, never an exception of the file system's.
   */
  private def wellFormed(uri: String, at: PlanPath): (Option[String], String) = {
    def malformed = SubstraitErrors.invalidPlan(at, s"the path ${FileAccessPolicy.printable(uri)}",
      "an absolute local path or a URI with a scheme and an absolute path, without control characters")
    if (uri.isEmpty || uri.exists(c => Character.isISOControl(c))) throw malformed
    val parsed = Try(new URI(FileAccessPolicy.fixedPart(uri))).toOption
    if (parsed.exists(u =>
        u.getScheme != null && (u.isOpaque || u.getPath == null || u.getPath.nonEmpty && !u.getPath.startsWith("/"))))
      throw malformed
    Try(FileAccessPolicy.normalized(FileAccessPolicy.fixedPart(uri))).getOrElse(throw malformed)
  }
}

private[sparksubstrait] object FileAccessPolicy {
  val ConfKey = "spark.substrait.localFiles.allowedPrefixes"

  def fromConf(value: String): FileAccessPolicy =
    new FileAccessPolicy(Option(value).toSeq.flatMap(_.split(",")).map(_.trim).filter(_.nonEmpty))

  /** A path as an error message shows it: control characters as \\uXXXX. */
  def printable(s: String): String =
    s.flatMap(c => if (Character.isISOControl(c)) f"\\u${c.toInt}%04x" else c.toString)

  private def isWild(c: Char): Boolean = c == '*' || c == '?' || c == '[' || c == '{'
  private def isGlob(uri: String): Boolean = uri.exists(isWild)

  /** Real paths of the symbolic links anywhere under a local folder (none for a file). */
  private def linkTargetsUnder(path: String): Seq[String] = {
    val dir = Paths.get(path)
    if (!Files.isDirectory(dir)) return Nil
    val walk = Files.walk(dir) // does not follow links, so it cannot loop
    try walk.iterator().asScala.filter(Files.isSymbolicLink).map { link =>
        // A dangling link resolves nowhere: treat it as outside.
        Try(link.toRealPath().toString).getOrElse("/\u0000dangling")
      }.toList
    finally walk.close()
  }

  /** The part of a glob before its first wildcard, cut back to a whole path segment. */
  private def fixedPart(uri: String): String = {
    val firstWild = uri.indexWhere(isWild)
    if (firstWild < 0) uri else uri.substring(0, uri.lastIndexOf('/', firstWild) + 1)
  }

  /** (scheme, normalized path); local files (no scheme or file:) have scheme None. */
  private def normalized(raw: String): (Option[String], String) = {
    val uri = Try(new URI(raw)).toOption
    uri.flatMap(u => Option(u.getScheme)).map(_.toLowerCase) match {
      case None | Some("file") =>
        val path = uri.filter(_.getScheme != null).map(u => Paths.get(u.getPath)).getOrElse(Paths.get(raw))
        (None, path.toAbsolutePath.normalize().toString)
      case Some(scheme) =>
        val u = uri.get.normalize()
        (Some(scheme), s"${Option(u.getAuthority).getOrElse("")}${Option(u.getPath).getOrElse("")}")
    }
  }

  private def realPath(path: String): Option[String] = {
    val p: Path = Paths.get(path)
    if (Files.exists(p)) Try(p.toRealPath().toString).toOption else None
  }

  private def under(path: String, prefix: String): Boolean = {
    val base = prefix.stripSuffix("/")
    path == base || path.startsWith(base + "/")
  }
}
