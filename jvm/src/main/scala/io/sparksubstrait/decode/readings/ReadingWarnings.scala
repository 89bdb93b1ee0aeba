package io.sparksubstrait.decode.readings

import org.slf4j.LoggerFactory

/** A plan that asks another question than its query (a known producer bug) runs as written: the driver log says so. */
private[sparksubstrait] object ReadingWarnings {
  private val logger = LoggerFactory.getLogger("io.sparksubstrait.ProducerReadings")

  def log(readings: Seq[AppliedReading]): Unit = readings.filter(_.isWarning).foreach { r =>
    logger.warn(s"Substrait plan written by a producer with a known bug, run as written: ${r.name} (${r.releases}): " +
      s"${r.meaning}; at ${r.where.mkString("; ")}")
  }
}
