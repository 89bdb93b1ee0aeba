"""DataFusion Python: plans from datafusion.substrait's serde; rows from DataFusion's SQL."""

import pyarrow as pa
from datafusion import SessionContext

from common import all_queries, args, arrow_rows, tables, write_query


def serializer():
    """serialize_bytes(sql, ctx): `datafusion.substrait.serde` (<= 35), `Serde` (newer)."""
    import datafusion.substrait as s
    for holder in ("serde", "Serde"):
        for parent in (s, getattr(s, "substrait", None)):
            obj = getattr(parent, holder, None) if parent is not None else None
            if obj is not None and hasattr(obj, "serialize_bytes"):
                return obj.serialize_bytes
    raise RuntimeError(f"no serialize_bytes in datafusion.substrait ({dir(s)})")


def main():
    data, out = args()
    ctx = SessionContext()
    for t in tables():
        ctx.register_parquet(t, str(data / "parquet" / f"{t}.parquet"))
    serialize = serializer()
    for qid, sql in all_queries().items():
        write_query(out, qid, sql, lambda sql=sql: bytes(serialize(sql, ctx)),
                    lambda sql=sql: arrow_rows(pa.Table.from_batches(ctx.sql(sql).collect())))


if __name__ == "__main__":
    main()
