package io.sparksubstrait.convert.functions

import java.util.regex.{Pattern, PatternSyntaxException}

import org.apache.spark.sql.catalyst.expressions.{Expression, Literal}

import io.sparksubstrait.errors.SubstraitErrors
import io.sparksubstrait.runtime.RegexReplacement

/**
 * regexp_replace's pattern and replacement, when the plan gives them as literals: what the
 * spec leaves undefined (a pattern that does not compile, an escape its replacement syntax
 * lacks, a group the pattern does not have) is the plan's error here, before anything runs.
 * Values that arrive with the data are checked as they are used (TextFunctions.regexpReplace).
 */
private[functions] object RegexReplacements {
  def checkLiterals(c: FunctionCall, pattern: Expression, replacement: Expression): Unit = {
    val groups = pattern match {
      case Literal(p, _) if p != null =>
        try Some(Pattern.compile(p.toString).matcher("").groupCount)
        catch {
          case e: PatternSyntaxException => throw SubstraitErrors.invalidPlan(c.at.at("arguments", 1),
              s"the pattern '$p', which does not compile (${e.getDescription})", "a regular expression")
        }
      case _ => None
    }
    replacement match {
      case Literal(r, _) if r != null =>
        val java = RegexReplacement.toJava(r.toString).fold(
          e =>
            throw SubstraitErrors.invalidPlan(c.at.at("arguments", 2), s"the replacement '$r': $e",
              "a replacement in the spec's syntax"),
          identity)
        groups.filter(_ < java.maxGroup).foreach { n =>
          throw SubstraitErrors.invalidPlan(c.at.at("arguments", 2),
            s"the replacement '$r', which refers to group ${java.maxGroup} of a pattern with $n group(s)",
            "groups the pattern has (\\0 is the whole match)")
        }
      case _ =>
    }
  }
}
