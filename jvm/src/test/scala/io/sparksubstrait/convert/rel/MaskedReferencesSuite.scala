package io.sparksubstrait
package convert.rel

import scala.jdk.CollectionConverters._

import io.sparksubstrait.proto.{Expression, Type}
import io.sparksubstrait.proto.Expression.{FieldReference, MaskExpression}
import io.sparksubstrait.proto.Expression.MaskExpression.{ListSelect, MapSelect, Select, StructItem, StructSelect}
import io.sparksubstrait.proto.Expression.MaskExpression.ListSelect.ListSelectItem
import org.apache.spark.sql.Row
import org.apache.spark.sql.types.{ArrayType, DataType, MapType, StructType}

import io.sparksubstrait.testing.{PlanBuilder, SparkSuite, SubstraitAssertions}
import io.sparksubstrait.testing.PlanBuilder._

/**
 * Masked references (MaskExpression) in expressions and in a read's projection: rows checked
 * against the same selection written in Spark SQL, or against hand-worked rows where SQL has no
 * direct spelling (inclusive slices from either end).
 */
class MaskedReferencesSuite extends SparkSuite with SubstraitAssertions {
  override def beforeAll(): Unit = {
    super.beforeAll()
    spark.sql("""CREATE OR REPLACE TEMP VIEW masked AS SELECT * FROM VALUES
      (named_struct('a', 1, 'b', 'x', 'c', named_struct('x', 7, 'y', 'p')), array(10, 20, 30, 40), map('k', 1, 'j', 2),
        array(named_struct('v', 5, 'w', 's'), NULL), map('k', named_struct('v', 1, 'w', 'kw'), 'j', named_struct('v', 2, 'w', 'jw'))),
      (named_struct('a', NULL, 'b', 'y', 'c', NULL), array(), map('j', 3), array(), map('j', NULL)),
      (NULL, NULL, NULL, NULL, NULL),
      (named_struct('a', 2, 'b', NULL, 'c', named_struct('x', NULL, 'y', NULL)), array(5), map('k', NULL),
        array(named_struct('v', NULL, 'w', NULL)), map())
      AS t(st, arr, m, arrs, ms)""")
  }

  private def list(t: Type): Type = Type.newBuilder().setList(Type.List.newBuilder().setType(t)).build()
  private def map(k: Type, v: Type): Type =
    Type.newBuilder().setMap(Type.Map.newBuilder().setKey(k).setValue(v)).build()
  private val maskedSchema = schema("st" -> struct(i32(), string(), struct(i32(), string())), "arr" -> list(i32()),
    "m" -> map(string(false), i32()), "arrs" -> list(struct(i32(), string())),
    "ms" -> map(string(false), struct(i32(), string())))
    .toBuilder.clearNames().addAllNames(Seq("st", "a", "b", "c", "x", "y", "arr", "m", "arrs", "v", "w", "ms", "v",
        "w").asJava).build()

  // Mask builders: struct items (field, optional child), list items, map selections.
  private def item(field: Int, child: Option[Select] = None): StructItem = {
    val b = StructItem.newBuilder().setField(field)
    child.foreach(b.setChild)
    b.build()
  }
  private def structSel(items: StructItem*): StructSelect =
    StructSelect.newBuilder().addAllStructItems(items.asJava).build()
  private def sStruct(items: StructItem*): Select = Select.newBuilder().setStruct(structSel(items: _*)).build()
  private def elem(i: Int): ListSelectItem =
    ListSelectItem.newBuilder().setItem(ListSelectItem.ListElement.newBuilder().setField(i)).build()
  private def slice(start: Int, end: Int): ListSelectItem =
    ListSelectItem.newBuilder().setSlice(ListSelectItem.ListSlice.newBuilder().setStart(start).setEnd(end)).build()
  private def sList(items: Seq[ListSelectItem], child: Option[Select] = None): Select = {
    val b = ListSelect.newBuilder().addAllSelection(items.asJava)
    child.foreach(b.setChild)
    Select.newBuilder().setList(b).build()
  }
  private def sMap(key: Option[String], child: Option[Select] = None): Select = {
    val b = MapSelect.newBuilder()
    key.foreach(k => b.setKey(MapSelect.MapKey.newBuilder().setMapKey(k)))
    child.foreach(b.setChild)
    Select.newBuilder().setMap(b).build()
  }
  private def mask(maintain: Boolean, items: StructItem*): MaskExpression =
    MaskExpression.newBuilder().setSelect(structSel(items: _*)).setMaintainSingularStruct(maintain).build()

  /** A masked reference rooted at the input record. */
  private def masked(m: MaskExpression): Expression = Expression.newBuilder().setSelection(FieldReference.newBuilder()
      .setMaskedReference(m).setRootReference(FieldReference.RootReference.getDefaultInstance)).build()

  /** A masked reference rooted at an expression. */
  private def maskedOf(e: Expression, m: MaskExpression): Expression =
    Expression.newBuilder().setSelection(FieldReference.newBuilder()
        .setMaskedReference(m).setExpression(e)).build()

  /** A masked reference of one column (kept singular struct unwrapped): the column with `child` applied. */
  private def column(i: Int, child: Select): Expression = masked(mask(maintain = false, item(i, Some(child))))

  /** Root names for a type, depth first as Substrait lists them (struct fields through lists and maps). */
  private def namesOf(t: DataType, prefix: String): Seq[String] = t match {
    case s: StructType => s.fields.toSeq.zipWithIndex.flatMap { case (f, i) =>
        s"$prefix$i" +: namesOf(f.dataType, s"$prefix${i}_")
      }
    case ArrayType(e, _) => namesOf(e, prefix)
    case MapType(k, v, _) => namesOf(k, prefix + "k") ++ namesOf(v, prefix + "v")
    case _ => Nil
  }

  /** The expressions projected over the `masked` view, only their columns kept. */
  private def project(exprs: Seq[Expression], types: DataType): org.apache.spark.sql.DataFrame = {
    val b = new PlanBuilder()
    run(b.plan(emit(PlanBuilder.project(readNamed(maskedSchema, "masked"), exprs: _*), exprs.indices.map(_ + 5): _*),
        namesOf(types, "c"): _*))
  }

  test(
    "masked references: struct selections with nested child selections, the singular struct unwrapped or kept, NULL structs stay NULL") {
    val expected = spark.sql("""SELECT
      named_struct('arr', arr, 'st', IF(st IS NULL, NULL, named_struct('c', IF(st.c IS NULL, NULL, named_struct('y', st.c.y)), 'a', st.a))),
      m, named_struct('m', m),
      IF(st IS NULL, NULL, named_struct('b', st.b, 'a', st.a)),
      IF(st IS NULL, NULL, IF(st.c IS NULL, NULL, named_struct('x', st.c.x)))
      FROM masked""")
    val exprs = Seq(
      masked(mask(maintain = true, item(1), item(0, Some(sStruct(item(2, Some(sStruct(item(1)))), item(0)))))),
      masked(mask(maintain = false, item(2))),
      masked(mask(maintain = true, item(2))),
      maskedOf(field(0), mask(maintain = false, item(1), item(0))),
      maskedOf(field(0), mask(maintain = false, item(2, Some(sStruct(item(0)))))))
    assertSameRows(project(exprs, expected.schema), expected)
  }

  test(
    "masked references: list elements and inclusive slices from either end, out of range selects nothing, child selections per element") {
    val (min, max) = (Int.MinValue, Int.MaxValue)
    val exprs = Seq(
      column(1, sList(Seq(elem(0), slice(-2, -1)))),
      column(1, sList(Seq(slice(1, 2)))),
      column(1, sList(Seq(slice(2, 1)))),
      column(1, sList(Seq(slice(-100, 1)))),
      column(1, sList(Seq(elem(5), elem(-10), slice(max, max), slice(min, min), slice(-1, -2)))),
      column(1, sList(Seq(elem(-1)))),
      column(1, sList(Nil)),
      column(1, sList(Seq(slice(min, max)))),
      column(3, sList(Nil, Some(sStruct(item(1))))),
      column(3, sList(Seq(elem(1), elem(0)), Some(sStruct(item(0))))))
    val types = spark.sql("SELECT " + (0 until 8).map(i => s"array(1) AS l$i").mkString(", ") +
      ", array(named_struct('w', 's')) AS a0, array(named_struct('v', 1)) AS a1").schema
    // arr per row: [10, 20, 30, 40], [], NULL, [5]; arrs: [{5, s}, NULL], [], NULL, [{NULL, NULL}].
    assertRows(project(exprs, types),
      Seq(
        Row(Seq(10, 30, 40), Seq(20, 30), Seq(), Seq(10, 20), Seq(), Seq(40), Seq(10, 20, 30, 40), Seq(10, 20, 30, 40),
          Seq(Row("s"), null), Seq(null, Row(5))),
        Row(Seq(), Seq(), Seq(), Seq(), Seq(), Seq(), Seq(), Seq(), Seq(), Seq()),
        Row(null, null, null, null, null, null, null, null, null, null),
        Row(Seq(5, 5), Seq(), Seq(), Seq(5), Seq(), Seq(5), Seq(5), Seq(5), Seq(Row(null)), Seq(Row(null)))))
  }

  test("masked references: a map selection by key keeps that entry, child selections apply to every value") {
    val exprs = Seq(
      column(2, sMap(Some("k"))),
      column(4, sMap(None, Some(sStruct(item(1))))),
      column(4, sMap(Some("j"), Some(sStruct(item(0))))),
      column(2, sMap(None)))
    val types = spark.sql(
      "SELECT map('k', 1), map('k', named_struct('w', 'x')), map('k', named_struct('v', 1)), map('k', 1)").schema
    // m per row: {k: 1, j: 2}, {j: 3}, NULL, {k: NULL}; ms: {k: {1, kw}, j: {2, jw}}, {j: NULL}, NULL, {}.
    assertRows(project(exprs, types),
      Seq(
        Row(Map("k" -> 1), Map("k" -> Row("kw"), "j" -> Row("jw")), Map("j" -> Row(2)), Map("k" -> 1, "j" -> 2)),
        Row(Map(), Map("j" -> null), Map("j" -> null), Map("j" -> 3)),
        Row(null, null, null, null),
        Row(Map("k" -> null), Map(), Map(), Map("k" -> null))))
  }

  test("a read's projection masks inside columns as a masked reference does") {
    val read = readNamed(maskedSchema, "masked").toBuilder
    read.getReadBuilder.setProjection(MaskExpression.newBuilder().setSelect(structSel(
          item(0, Some(sStruct(item(1)))), item(1, Some(sList(Seq(slice(0, 0))))))))
    val expected = spark.sql("SELECT IF(st IS NULL, NULL, named_struct('b', st.b)), slice(arr, 1, 1) FROM masked")
    assertSameRows(run(new PlanBuilder().plan(read.build(), "st", "b", "arr")), expected)
  }

  test("masked references Spark cannot evaluate or the plan gets wrong are the plan's errors, where written") {
    val at = "relations[0].root.input.project.expressions[0].selection.masked_reference"
    def fails(condition: String, location: String)(e: Expression): Unit =
      assertPlanError(condition, location)(project(Seq(e), spark.sql("SELECT 1").schema))
    fails("SUBSTRAIT_TYPE_MISMATCH", s"$at.select.struct_items[0].child.list")(column(0, sList(Nil)))
    fails("SUBSTRAIT_TYPE_MISMATCH", s"$at.select.struct_items[0].child.map.key")(
      maskedOf(structOf(mapOf(litI32(1) -> litI32(2))), mask(maintain = false, item(0, Some(sMap(Some("k")))))))
    fails("SUBSTRAIT_UNSUPPORTED_FEATURE", s"$at.select.struct_items[0].child.map.expression")(column(2,
        Select.newBuilder().setMap(MapSelect.newBuilder().setExpression(
            MapSelect.MapKeyExpression.newBuilder().setMapKeyExpression("k*"))).build()))
    fails("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE", s"$at.select.struct_items[0].child.struct.struct_items[0].field")(
      column(0, sStruct(item(3))))
    fails("SUBSTRAIT_FIELD_REFERENCE_OUT_OF_RANGE", s"$at.select.struct_items[1].field")(masked(mask(maintain = true,
          item(0), item(5))))
    fails("SUBSTRAIT_INVALID_PLAN", s"$at.select.struct_items")(masked(mask(maintain = true)))
    fails("SUBSTRAIT_MISSING_FIELD", at)(masked(MaskExpression.getDefaultInstance))
    fails("SUBSTRAIT_MISSING_FIELD", s"$at.select.struct_items[0].child")(column(0, Select.getDefaultInstance))
    fails("SUBSTRAIT_TYPE_MISMATCH", at)(maskedOf(litI32(1), mask(maintain = false, item(0))))
  }
}
