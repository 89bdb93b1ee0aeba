package io.sparksubstrait.convert.rel

import org.apache.spark.sql.catalyst.expressions.{Alias, Cast, NamedExpression}
import org.apache.spark.sql.catalyst.plans.logical.{LogicalPlan, Project}
import org.apache.spark.sql.types.{StructType, TimestampNTZType, TimestampType}

import io.sparksubstrait.convert.ConversionContext

/**
 * ORC timestamps read as the type base_schema declares. Spark reads an ORC `timestamp`
 * column as a timestamp with time zone (the stored date and time taken as UTC) unless Spark
 * itself wrote it as TIMESTAMP_NTZ, and `timestamp with local time zone` as an instant; a plan
 * may declare either column either way. Both readings are the same microseconds since the
 * epoch: precision_timestamp is the UTC date and time of the instant (ORC's wall clock for
 * a zone-less column), precision_timestamp_tz the instant of that UTC date and time. So the
 * value is kept and only its type changes (a cast in UTC, which moves no microsecond), never
 * shifted by the session's time zone. Top-level columns; other types are left to the layout.
 */
private[sparksubstrait] object OrcTimestamps {
  def asDeclared(read: LogicalPlan, schema: StructType)(implicit ctx: ConversionContext): LogicalPlan = {
    val resolver = ctx.conf.resolver
    var changed = false
    val columns: Seq[NamedExpression] = read.output.map { a =>
      val declared = schema.fields.find(f => resolver(f.name, a.name)).map(_.dataType)
      (a.dataType, declared) match {
        case (TimestampType, Some(TimestampNTZType)) | (TimestampNTZType, Some(TimestampType)) =>
          changed = true
          Alias(Cast(a, declared.get, Some("UTC")), a.name)()
        case _ => a
      }
    }
    if (changed) Project(columns, read) else read
  }
}
