package io.sparksubstrait.decode

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Plan, SimpleExtensionDeclaration, SimpleExtensionURN}

/**
 * Extension URIs, the form before URNs (`Plan.extension_uris`, and each declaration's
 * `extension_uri_reference`), become URNs whose text is the URI: the function resolver reads
 * either spelling ([[io.sparksubstrait.foundation.ExtensionUrns.canonical]]).
 *
 * A declaration that names a declared URN keeps it (plans of the transition write both); one
 * that names a declared URI gets a new URN anchor for it. A reference to neither stays as it
 * is, so the function is resolved by name.
 */
private[decode] object LegacyExtensionUris {
  def apply(plan: Plan): Plan = {
    val urns = plan.getExtensionUrnsList.asScala.map(_.getExtensionUrnAnchor).toSet
    val firstFree = if (urns.isEmpty) 1 else urns.max + 1
    // URI anchor -> the URN anchor that now carries it.
    val uris = plan.getExtensionUrisList.asScala.zipWithIndex.map { case (u, i) =>
      u.getExtensionUriAnchor -> (u.getUri, firstFree + i)
    }.toMap
    def lifted(urnRef: Int, uriRef: Int): Option[Int] =
      if (urns(urnRef)) None else uris.get(uriRef).map(_._2)

    val b = plan.toBuilder.clearExtensionUris()
    uris.values.toSeq.sortBy(_._2).foreach { case (uri, anchor) =>
      b.addExtensionUrns(SimpleExtensionURN.newBuilder().setExtensionUrnAnchor(anchor).setUrn(uri))
    }
    plan.getExtensionsList.asScala.zipWithIndex.foreach { case (d, i) =>
      val db = d.toBuilder
      d.getMappingTypeCase match {
        case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_FUNCTION =>
          val f = d.getExtensionFunction
          val fb = f.toBuilder.clearExtensionUriReference()
          lifted(f.getExtensionUrnReference, f.getExtensionUriReference).foreach(fb.setExtensionUrnReference)
          db.setExtensionFunction(fb)
        case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_TYPE =>
          val t = d.getExtensionType
          val tb = t.toBuilder.clearExtensionUriReference()
          lifted(t.getExtensionUrnReference, t.getExtensionUriReference).foreach(tb.setExtensionUrnReference)
          db.setExtensionType(tb)
        case SimpleExtensionDeclaration.MappingTypeCase.EXTENSION_TYPE_VARIATION =>
          val v = d.getExtensionTypeVariation
          val vb = v.toBuilder.clearExtensionUriReference()
          lifted(v.getExtensionUrnReference, v.getExtensionUriReference).foreach(vb.setExtensionUrnReference)
          db.setExtensionTypeVariation(vb)
        case _ =>
      }
      b.setExtensions(i, db)
    }
    b.build()
  }
}
