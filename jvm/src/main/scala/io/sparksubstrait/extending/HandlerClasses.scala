package io.sparksubstrait.extending

import java.lang.reflect.Modifier

import scala.util.control.NonFatal

import org.apache.spark.sql.internal.SQLConf

import io.sparksubstrait.foundation.PlanPath
import io.sparksubstrait.errors.{SubstraitErrors, SubstraitException}

/**
 * The handlers a session setting names by class (`spark.substrait.extensionRelations`,
 * `spark.substrait.userDefinedTypes`): one instance per class, made the first time any
 * session names it and kept while the class is loaded, since handlers are stateless and
 * some sessions read many plans. Calls into a handler go through [[call]], so whatever a
 * user's code throws becomes the project's error naming the handler and the place.
 */
private[sparksubstrait] object HandlerClasses {

  /** Per class, not per name: the same name in another class loader (ADD JAR) is another class. */
  private val instances = new ClassValue[AnyRef] {
    override protected def computeValue(c: Class[_]): AnyRef = {
      // A Scala object's class is `Name$`, its one instance the static MODULE$.
      val module = try Option(c.getField("MODULE$")).filter(f => Modifier.isStatic(f.getModifiers))
      catch { case _: NoSuchFieldException => None }
      module.map(_.get(null)).getOrElse(c.getConstructor().newInstance().asInstanceOf[AnyRef])
    }
  }

  /**
   * The handlers of class `kind` that setting `key` names, in its order. `at` is the place in
   * the plan that needed them (None: writing), which the error for a name that is not such a
   * handler names.
   */
  def load[T](conf: SQLConf, key: String, kind: Class[T], at: Option[PlanPath]): Seq[T] = {
    val value = conf.getConfString(key, "")
    value.split(",").map(_.trim).filter(_.nonEmpty).distinct.toSeq.map { name =>
      val made = candidates(name).map(instanceOf)
      made.collectFirst { case Right(i) if kind.isInstance(i) => kind.cast(i) }.getOrElse {
        val why = made.collectFirst { case Right(i) => s"is a ${i.getClass.getName}, not a ${kind.getSimpleName}" }
          .orElse(made.collectFirst { case Left(w) if w != NotFound => w }).getOrElse(NotFound)
        throw SubstraitErrors.invalidSetting(key, value,
          s"class names of ${kind.getName} implementations, each a class with a public no-argument constructor " +
            s"or a Scala object, on the driver's classpath (docs/extending.md): $name $why", at)
      }
    }
  }

  private val NotFound = "was not found"

  /** `Name$` (a Scala object) first, then `Name` itself: a setting may name either. */
  private def candidates(name: String): Seq[String] = if (name.endsWith("$")) Seq(name) else Seq(name + "$", name)

  private def instanceOf(name: String): Either[String, AnyRef] = {
    val loader = Option(Thread.currentThread.getContextClassLoader).getOrElse(getClass.getClassLoader)
    try Right(instances.get(Class.forName(name, true, loader)))
    catch {
      case _: ClassNotFoundException => Left(NotFound)
      case e: NoSuchMethodException => Left(s"has no public no-argument constructor (${e.getMessage})")
      case e: Throwable if NonFatal(e) || e.isInstanceOf[LinkageError] =>
        val cause = e match {
          case r: java.lang.reflect.InvocationTargetException if r.getCause != null => r.getCause
          case other => other
        }
        Left(s"could not be made: ${cause.getClass.getSimpleName}: ${cause.getMessage}")
    }
  }

  /**
   * Calls `handler` for `what` at `location`: its SubstraitException passes as it is (a
   * handler may read a nested plan through this project), anything else it throws becomes
   * SUBSTRAIT_EXTENSION_FAILED naming the handler, the call and the place.
   */
  def call[T](handler: AnyRef, what: String, location: String)(body: => T): T =
    try body
    catch {
      case e: SubstraitException => throw e
      case e: Throwable if NonFatal(e) || e.isInstanceOf[LinkageError] =>
        throw SubstraitErrors.extensionFailed(location, describe(handler), what,
          s"${e.getClass.getSimpleName}: ${Option(e.getMessage).map(_.linesIterator.next()).getOrElse("no message")}",
          e)
    }

  /** A handler as errors and the plan explorer name it: its class, as a setting names it. */
  def describe(handler: AnyRef): String = handler.getClass.getName.stripSuffix("$")
}
