package io.sparksubstrait.functiontests

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.yaml.snakeyaml.Yaml

import io.sparksubstrait.convert.functions.{DeclaredFunction, FunctionCatalog}

/**
 * Every function of the standard extension YAMLs (shipped beside the test cases in
 * substrait-extensions) and whether the catalog maps it: the status list of docs/function-tests.md.
 */
object StandardFunctions {
  final case class Function(extension: String, kind: String, name: String) {
    def mapped: Boolean = {
      val fn = DeclaredFunction(0, Some(extension), name)
      kind match {
        case "scalar" => FunctionCatalog.scalar(fn).nonEmpty
        case "aggregate" => FunctionCatalog.aggregate(fn).nonEmpty
        case _ => FunctionCatalog.window(fn).nonEmpty || FunctionCatalog.aggregate(fn).nonEmpty
      }
    }
  }

  /** The functions of the YAML files in `extensions`, sorted by extension, kind and name. */
  def list(extensions: Path): Seq[Function] = {
    if (!Files.isDirectory(extensions)) return Nil
    val files = Files.list(extensions).iterator().asScala.filter(_.toString.endsWith(".yaml")).toSeq.sortBy(_.toString)
    files.flatMap { f =>
      val doc = new Yaml().load[java.util.Map[String, AnyRef]](Files.newInputStream(f))
      val urn = Option(doc.get("urn")).map(_.toString).getOrElse("")
      val extension = urn.stripPrefix("extension:io.substrait:")
      Seq("scalar_functions" -> "scalar", "aggregate_functions" -> "aggregate",
        "window_functions" -> "window").flatMap {
        case (key, kind) =>
          Option(doc.get(key)).toSeq.flatMap(_.asInstanceOf[java.util.List[java.util.Map[String, AnyRef]]].asScala)
            .map(fn => Function(extension, kind, fn.get("name").toString))
      }
    }.distinct
  }
}
