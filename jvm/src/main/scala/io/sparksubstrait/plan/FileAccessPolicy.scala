package io.sparksubstrait.plan

import java.net.URI
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._
import scala.util.Try

import io.sparksubstrait.errors.SubstraitErrors

/**
 * Which files a plan may read. A plan may come from a third party, so LocalFiles reads are
 * refused unless `spark.substrait.localFiles.allowedPrefixes` lists a prefix the path lies
 * under (docs/security.md). Local paths are compared after removing `.` and `..` and, for
 * what exists, after resolving symbolic links; a glob is checked through its fixed part.
 */
final class FileAccessPolicy(allowedPrefixes: Seq[String]) {
  private val allowed: Seq[(Option[String], String)] = allowedPrefixes.map(FileAccessPolicy.normalized)

  def check(uri: String, at: PlanPath): Unit = {
    // Hadoop's globber expands {a/b,c} into paths and unescapes \. before normalizing, so
    // `..` inside a glob or any backslash could step out of the fixed part checked below.
    if (FileAccessPolicy.isGlob(uri) && uri.contains("..") || uri.contains("\\")) {
      throw SubstraitErrors.localFilesNotAllowed(at, uri, allowedPrefixes)
    }
    val (scheme, path) = FileAccessPolicy.normalized(FileAccessPolicy.fixedPart(uri))
    val candidates = scheme match {
      // A local folder (or a glob's folder) is read with everything under it: a symbolic
      // link in it that points outside the prefixes would be followed, so each must resolve inside.
      case None => Seq(path) ++ FileAccessPolicy.realPath(path).toSeq ++ FileAccessPolicy.linkTargetsUnder(path)
      case _ => Seq(path)
    }
    val ok = candidates.forall(p => allowed.exists { case (s, prefix) => s == scheme && FileAccessPolicy.under(p, prefix) })
    if (!ok) throw SubstraitErrors.localFilesNotAllowed(at, uri, allowedPrefixes)
  }
}

object FileAccessPolicy {
  val ConfKey = "spark.substrait.localFiles.allowedPrefixes"

  def fromConf(value: String): FileAccessPolicy =
    new FileAccessPolicy(Option(value).toSeq.flatMap(_.split(",")).map(_.trim).filter(_.nonEmpty))

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
    }.toList finally walk.close()
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
