import java.nio.charset.StandardCharsets.UTF_8

import org.scalafmt.Scalafmt
import org.scalafmt.config.ScalafmtConfig

import sbt._

/**
 * The Scala formatter over every Scala source of the project: each Spark version's folders
 * (not only those the current build compiles), the benches, build.sbt and project/. Run in
 * the build (scalafmt-core on the meta-build's classpath) rather than through a plugin, so
 * one check sees all version folders and nothing is downloaded outside sbt's resolution.
 */
object ScalaFormat {

  /** The files the formatter owns, under `root`: generated and cached folders excluded. */
  def sources(root: File): Seq[File] = {
    val trees = Seq(root / "jvm" / "src", root / "bench" / "src", root / "bench" / "anchor" / "src")
    val build = (root / "project" * "*.scala").get :+ (root / "build.sbt")
    (trees.flatMap(t => (t ** "*.scala").get) ++ build).filter(_.isFile).sortBy(_.getPath)
  }

  /** Formats (check = false) or checks (check = true) every source; returns those not formatted. */
  def run(root: File, check: Boolean, log: Logger): Seq[File] = {
    val style = ScalafmtConfig.fromHoconFile((root / ".scalafmt.conf").toPath).get
    val unformatted = sources(root).filter { file =>
      val code = IO.read(file, UTF_8)
      val formatted = Scalafmt.format(code, style, Set.empty, file.getPath).get
      val differs = formatted != code
      if (differs && !check) IO.write(file, formatted, UTF_8)
      differs
    }
    val verb = if (check) "not formatted" else "formatted"
    unformatted.foreach(f => log.info(s"$verb: ${root.toPath.relativize(f.toPath)}"))
    unformatted
  }
}
