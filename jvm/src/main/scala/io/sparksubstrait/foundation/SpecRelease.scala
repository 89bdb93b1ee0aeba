package io.sparksubstrait.foundation

/**
 * A release of the Substrait spec, as a plan's `version` stamps it or as the code names one
 * ("0.91"). The one way releases are compared: the pinned release a plan may not be newer
 * than, the release a field's meaning changed in, the releases a producer's reading covers.
 */
private[sparksubstrait] final case class SpecRelease(major: Int, minor: Int, patch: Int) extends Ordered[SpecRelease] {
  override def compare(that: SpecRelease): Int =
    Ordering[(Int, Int, Int)].compare((major, minor, patch), (that.major, that.minor, that.patch))

  /** A plan without a version stamp (0.0): written by no known release. */
  def isUnstamped: Boolean = major == 0 && minor == 0

  override def toString: String = s"$major.$minor.$patch"
}

private[sparksubstrait] object SpecRelease {

  /** The release of the protos this consumer is built with. */
  val Pinned: SpecRelease = parse(io.sparksubstrait.proto.SpecVersion.VERSION)

  /** What a plan without a `version` stamp reads as. */
  val Unstamped: SpecRelease = SpecRelease(0, 0, 0)

  /** An open upper end of a range of releases. */
  val Newest: SpecRelease = SpecRelease(999, 999, 999)

  def of(version: io.sparksubstrait.proto.Version): SpecRelease =
    SpecRelease(version.getMajorNumber, version.getMinorNumber, version.getPatchNumber)

  /** "0.91" or "0.63.1". */
  def parse(text: String): SpecRelease = text.split('.').map(_.toInt).padTo(3, 0) match {
    case Array(major, minor, patch) => SpecRelease(major, minor, patch)
    case _ => throw new IllegalArgumentException(s"not a spec release: $text")
  }
}
