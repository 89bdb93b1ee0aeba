package io.sparksubstrait.architecture

import java.nio.file.Paths

import scala.reflect.runtime.{universe => ru}
import scala.util.Try

import com.tngtech.archunit.ArchConfiguration
import com.tngtech.archunit.base.DescribedPredicate
import com.tngtech.archunit.core.domain.{JavaClass, JavaClasses}
import com.tngtech.archunit.core.importer.{ClassFileImporter, ImportOption, Location}
import com.tngtech.archunit.lang.{ArchCondition, ConditionEvents, SimpleConditionEvent}
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes
import com.tngtech.archunit.library.Architectures.layeredArchitecture
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices
import org.scalatest.funsuite.AnyFunSuite

import io.sparksubstrait.SubstraitExtensions

/**
 * The pipeline's structure (docs/architecture.md), proved on the compiled classes by
 * ArchUnit: the stages import each other one way only, and nothing outside the public
 * surface is public. The rules read bytecode, so they see what the compiler linked, not
 * what a file's imports say (a fully qualified name counts; a comment does not).
 */
class ArchitectureSuite extends AnyFunSuite {
  import ArchitectureSuite._

  /**
   * The main classes: the folder (or jar) SubstraitExtensions was loaded from; not the tests.
   * The generated message classes (proto/, thousands) import nothing of ours, and Spark's and
   * Scala's classes are in no layer: neither is read, so the rules take seconds, not a minute.
   */
  private lazy val main: JavaClasses = {
    ArchConfiguration.get().setResolveMissingDependenciesFromClassPath(false)
    new ClassFileImporter()
      .withImportOption(new ImportOption {
        override def includes(location: Location): Boolean = !location.contains("/io/sparksubstrait/proto/")
      })
      .importPath(Paths.get(classOf[SubstraitExtensions].getProtectionDomain.getCodeSource.getLocation.toURI))
  }

  test("the top-level packages of io.sparksubstrait import each other without cycles") {
    slices().matching("io.sparksubstrait.(*)..").should().beFreeOfCycles().check(main)
  }

  test("the stages import only the stages below them (foundation < decode < convert < shape < read < API)") {
    layeredArchitecture().consideringOnlyDependenciesInLayers()
      .layer(Foundation).definedBy(FoundationPackages: _*)
      .layer(Runtime).definedBy("io.sparksubstrait.runtime..")
      .layer(Arrow).definedBy("io.sparksubstrait.arrow..")
      .layer(Decode).definedBy("io.sparksubstrait.decode..")
      .layer(Extending).definedBy("io.sparksubstrait.extending..")
      .layer(Convert).definedBy("io.sparksubstrait.convert..")
      .layer(Shape).definedBy("io.sparksubstrait.shape..")
      .layer(Read).definedBy("io.sparksubstrait.read..")
      .layer(Write).definedBy("io.sparksubstrait.write..")
      .layer(Explain).definedBy("io.sparksubstrait.explain..")
      .layer(Api).definedBy("io.sparksubstrait", "io.sparksubstrait.catalyst..", "io.sparksubstrait.connect..")
      .whereLayer(Foundation).mayNotAccessAnyLayer()
      .whereLayer(Runtime).mayOnlyAccessLayers(Foundation)
      .whereLayer(Arrow).mayOnlyAccessLayers(Foundation)
      .whereLayer(Decode).mayOnlyAccessLayers(Foundation)
      .whereLayer(Extending).mayOnlyAccessLayers(Foundation)
      .whereLayer(Convert).mayOnlyAccessLayers(Foundation, Decode, Extending, Runtime, Arrow)
      .whereLayer(Shape).mayOnlyAccessLayers(Foundation, Decode, Convert)
      .whereLayer(Read).mayOnlyAccessLayers(Foundation, Decode, Extending, Convert, Shape)
      .whereLayer(Write).mayOnlyAccessLayers(Foundation, Extending, Runtime, Convert)
      .whereLayer(Explain).mayOnlyAccessLayers(Foundation, Decode, Extending, Convert, Shape, Read)
      .whereLayer(Api).mayOnlyAccessLayers(Foundation, Runtime, Arrow, Decode, Extending, Convert, Shape, Read,
        Write, Explain)
      .check(main)
  }

  test("nothing outside the public surface is public in Scala's sense (private[sparksubstrait] or narrower)") {
    classes().that(ourScalaDefinitions).should(beInternal).check(main)
  }
}

private object ArchitectureSuite {
  val Foundation = "foundation"
  val Runtime = "runtime"
  val Arrow = "arrow"
  val Decode = "decode"
  val Extending = "extending"
  val Convert = "convert"
  val Shape = "shape"
  val Read = "read"
  val Write = "write"
  val Explain = "explain"
  val Api = "API (entry points, catalyst, connect)"

  /**
   * Under every stage: plan paths, the spec release, extension URNs, introduced attributes,
   * a uuid's bytes (runtime and convert share them); the error factory and its public exceptions; small
   * utilities; the pinned spec's message classes (generated).
   */
  val FoundationPackages: Seq[String] = Seq("io.sparksubstrait.foundation..", "io.sparksubstrait.errors..",
    "io.sparksubstrait.util..", "io.sparksubstrait.proto..")

  /**
   * The public surface (docs/architecture.md, "The public surface"): what users may call or
   * implement. Everything else of ours is internal, free to change between releases.
   */
  val PublicSurface: Set[String] = Set(
    "io.sparksubstrait.SubstraitExtensions",
    "io.sparksubstrait.SubstraitPlans",
    "io.sparksubstrait.implicits",
    "io.sparksubstrait.errors.SubstraitException",
    "io.sparksubstrait.errors.SubstraitInvalidPlanException",
    "io.sparksubstrait.errors.SubstraitUnsupportedException",
    "io.sparksubstrait.errors.SubstraitFunctionException",
    "io.sparksubstrait.connect.SubstraitRelationPlugin",
    "io.sparksubstrait.extending.ExtensionRelation",
    "io.sparksubstrait.extending.UserDefinedTypeHandler",
    "io.sparksubstrait.extending.ExtensionPayload")

  /**
   * Public in the bytecode's sense only, on purpose: generated code and serialized plans name
   * runtime/'s classes; generated message classes are Java.
   */
  val PublicForMachines: Seq[String] = Seq("io.sparksubstrait.runtime", "io.sparksubstrait.proto",
    "io.sparksubstrait.connect.proto")

  /** The Scala name a class file stands for: a top-level class, trait or object (`X$`) of ours. */
  private def scalaName(c: JavaClass): Option[String] = {
    val name = c.getName.stripSuffix("$")
    val simple = name.substring(name.lastIndexOf('.') + 1)
    Option(name).filter(_ => !simple.contains('$') && simple != "package")
  }

  val ourScalaDefinitions: DescribedPredicate[JavaClass] =
    DescribedPredicate.describe[JavaClass](
      "are top-level Scala definitions of io.sparksubstrait outside the public surface",
      c =>
        c.getPackageName.startsWith("io.sparksubstrait") &&
          !PublicForMachines.exists(p => c.getPackageName == p || c.getPackageName.startsWith(p + ".")) &&
          scalaName(c).exists(n => !PublicSurface(n)))

  /**
   * Scala's qualified private (`private[sparksubstrait]`) is public in the bytecode, so the
   * class file's modifiers say nothing: the Scala signature the compiler pickled does. An
   * object is read from its class file `X$`. The plain class file `X` of an object without a
   * companion class holds only static forwarders to it (no constructor): no definition of its own.
   */
  val beInternal: ArchCondition[JavaClass] =
    new ArchCondition[JavaClass]("be private[sparksubstrait] or narrower in Scala") {
      private val loader = getClass.getClassLoader
      private val mirror = ru.runtimeMirror(loader)

      private def forwardersOnly(c: JavaClass): Boolean =
        !c.getName.endsWith("$") && !c.isInterface && c.getConstructors.isEmpty &&
          Try(Class.forName(c.getName + "$", false, loader)).isSuccess

      private def definition(c: JavaClass): Try[Option[ru.Symbol]] = Try {
        if (c.getName.endsWith("$")) Some(mirror.classSymbol(c.reflect()).asClass.module)
        else if (forwardersOnly(c)) None
        else Some(mirror.classSymbol(c.reflect()))
      }

      override def check(c: JavaClass, events: ConditionEvents): Unit = {
        val found = definition(c)
        val internal = found.toOption.map(_.forall(s => !s.isJava && (s.isPrivate || s.privateWithin != ru.NoSymbol)))
        if (!internal.contains(true)) {
          events.add(SimpleConditionEvent.violated(c,
              s"${c.getName} is public in Scala: make it private[sparksubstrait] (or narrower), or name it in " +
                "docs/architecture.md's public surface and ArchitectureSuite.PublicSurface" +
                found.failed.toOption.map(e => s" (its Scala signature did not read: $e)").getOrElse("")))
        }
      }
    }
}
