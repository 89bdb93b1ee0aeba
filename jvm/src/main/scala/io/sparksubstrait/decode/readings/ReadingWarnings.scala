package io.sparksubstrait.decode.readings

import org.slf4j.LoggerFactory

/**
 * A plan of a known producer bug (run as written, or read otherwise than its declared types say, as the
 * reading's meaning tells): the driver log says so.
 */
private[sparksubstrait] object ReadingWarnings {
  private val logger = LoggerFactory.getLogger("io.sparksubstrait.ProducerReadings")

  def log(readings: Seq[AppliedReading]): Unit = readings.filter(_.isWarning).foreach { r =>
    logger.warn(s"Substrait plan written by a producer with a known bug: ${r.name} (${r.releases}): " +
      s"${r.meaning}; at ${r.where.mkString("; ")}")
  }
}
