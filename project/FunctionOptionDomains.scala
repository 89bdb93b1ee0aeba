import java.nio.file.Files

import scala.collection.JavaConverters._

import org.yaml.snakeyaml.Yaml

import sbt._

/**
 * The option values every standard function allows, read from the pinned spec release's
 * extension YAMLs (build/substrait-spec) into a resource of the jar,
 * io/sparksubstrait/function-options.tsv (generated, never checked in). The function catalog
 * reads it to refuse an option value the YAML does not list (a plan error), so that no
 * option value is guessed; bumping the pin regenerates it.
 *
 * One line per (extension, function, option): `extension \t function \t option \t V1,V2,…`,
 * the values of all the function's overloads in the YAML's order.
 */
object FunctionOptionDomains {
  private val UrnPrefix = "extension:io.substrait:"

  def generate(extensions: File, out: File): Seq[File] = {
    val yamls = (extensions * "*.yaml").get.filterNot(_.getName.startsWith("simple_extensions")).sortBy(_.getName)
    if (yamls.isEmpty) sys.error(s"no extension YAMLs in $extensions (build/substrait-spec)")
    val rows = yamls.flatMap(rowsOf)
    val text =
      rows.map { case ((ext, fn, opt), values) => s"$ext\t$fn\t$opt\t${values.mkString(",")}" }.mkString("", "\n", "\n")
    if (!out.exists || IO.read(out) != text) IO.write(out, text)
    Seq(out)
  }

  private def rowsOf(yaml: File): Seq[((String, String, String), Seq[String])] = {
    val doc = new Yaml().load[java.util.Map[String, AnyRef]](Files.newInputStream(yaml.toPath))
    val extension = Option(doc.get("urn")).map(_.toString.stripPrefix(UrnPrefix))
      .getOrElse(yaml.getName.stripSuffix(".yaml"))
    val found = scala.collection.mutable.LinkedHashMap.empty[(String, String, String), Seq[String]]
    for {
      kind <- Seq("scalar_functions", "aggregate_functions", "window_functions")
      fn <- list(doc.get(kind))
      impl <- list(fn.get("impls"))
      (option, spec) <- map(impl.get("options")).asScala.toSeq
      value <- list(map(spec).get("values")).map(name)
    } {
      val key = (extension, fn.get("name").toString, option)
      val values = found.getOrElse(key, Nil)
      if (!values.contains(value)) found(key) = values :+ value
    }
    found.toSeq
  }

  private def list(v: AnyRef): Seq[java.util.Map[String, AnyRef]] = v match {
    case l: java.util.List[_] => l.asScala.toSeq.map {
        case m: java.util.Map[_, _] => m.asInstanceOf[java.util.Map[String, AnyRef]]
        case other => java.util.Collections.singletonMap("value", other.asInstanceOf[AnyRef])
      }
    case _ => Nil
  }

  private def map(v: AnyRef): java.util.Map[String, AnyRef] = v match {
    case m: java.util.Map[_, _] => m.asInstanceOf[java.util.Map[String, AnyRef]]
    case _ => java.util.Collections.emptyMap()
  }

  /** An option value as the plan spells it: YAML reads unquoted NULL, TRUE, FALSE as null and booleans. */
  private def name(v: java.util.Map[String, AnyRef]): String = v.get("value") match {
    case null => "NULL"
    case b: java.lang.Boolean => b.toString.toUpperCase
    case other => other.toString
  }
}
