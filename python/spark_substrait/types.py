"""Spark types spark-substrait gives columns that Spark has no type of its own for."""
import uuid

from pyspark.sql.types import BinaryType, UserDefinedType


class UuidType(UserDefinedType):
    """Substrait's uuid: 16 bytes (big-endian) that Spark compares and sorts as bytes; values are uuid.UUID."""

    @classmethod
    def sqlType(cls):
        return BinaryType()

    @classmethod
    def module(cls):
        return "spark_substrait.types"

    @classmethod
    def scalaUDT(cls):
        return "io.sparksubstrait.convert.types.UuidType"

    def serialize(self, obj):
        return None if obj is None else bytearray(obj.bytes)

    def deserialize(self, datum):
        return None if datum is None else uuid.UUID(bytes=bytes(datum))

    def simpleString(self):
        return "uuid"
