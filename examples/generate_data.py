"""Writes a small synthetic TPC-H ``lineitem`` table as parquet, for examples/q06.json.

The 16 columns have the types DuckDB's plan declares in its ``base_schema``: BIGINT keys,
DECIMAL(15,2) amounts, strings, DATEs. The rows are made by a seeded generator, so every
run writes the same data. Needs only pyspark.

    python examples/generate_data.py [--rows 5000] [--seed 6] [--output examples/data/lineitem]
"""

import argparse
import datetime
import os
import random
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUTPUT = os.path.join(HERE, "data", "lineitem")

SHIP_INSTRUCT = ["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"]
SHIP_MODE = ["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]
WORDS = ["carefully", "final", "deposits", "sleep", "quickly", "ironic", "requests",
         "furiously", "pending", "accounts", "blithely", "regular", "packages"]
FIRST_ORDER_DATE = datetime.date(1992, 1, 1)
ORDER_DATE_SPAN = (datetime.date(1998, 8, 2) - FIRST_ORDER_DATE).days
CURRENT_DATE = datetime.date(1995, 6, 17)  # TPC-H's cut-off between shipped and open lines


def schema():
    from pyspark.sql.types import DateType, DecimalType, LongType, StringType, StructField, StructType

    money = DecimalType(15, 2)
    columns = [
        ("l_orderkey", LongType()), ("l_partkey", LongType()), ("l_suppkey", LongType()),
        ("l_linenumber", LongType()), ("l_quantity", money), ("l_extendedprice", money),
        ("l_discount", money), ("l_tax", money), ("l_returnflag", StringType()),
        ("l_linestatus", StringType()), ("l_shipdate", DateType()),
        ("l_commitdate", DateType()), ("l_receiptdate", DateType()),
        ("l_shipinstruct", StringType()), ("l_shipmode", StringType()),
        ("l_comment", StringType()),
    ]
    return StructType([StructField(name, t, nullable=False) for name, t in columns])


def rows(count: int, seed: int):
    """``count`` lineitem rows, following TPC-H's value ranges, from a seeded generator."""
    rnd = random.Random(seed)
    cents = Decimal("0.01")
    order_key = 0
    produced = 0
    while produced < count:
        order_key += rnd.randint(1, 4)
        order_date = FIRST_ORDER_DATE + datetime.timedelta(days=rnd.randint(0, ORDER_DATE_SPAN))
        for line_number in range(1, rnd.randint(1, 7) + 1):
            if produced == count:
                break
            part_key = rnd.randint(1, 2000)
            quantity = rnd.randint(1, 50)
            part_price = Decimal(90000 + part_key % 20001 + 100 * (part_key % 1000)) / 100
            ship_date = order_date + datetime.timedelta(days=rnd.randint(1, 121))
            receipt_date = ship_date + datetime.timedelta(days=rnd.randint(1, 30))
            shipped = receipt_date <= CURRENT_DATE
            yield (
                order_key,
                part_key,
                rnd.randint(1, 100),
                line_number,
                Decimal(quantity).quantize(cents),
                (part_price * quantity).quantize(cents),
                (Decimal(rnd.randint(0, 10)) / 100).quantize(cents),
                (Decimal(rnd.randint(0, 8)) / 100).quantize(cents),
                rnd.choice("RA") if shipped else "N",
                "F" if ship_date <= CURRENT_DATE else "O",
                ship_date,
                order_date + datetime.timedelta(days=rnd.randint(30, 90)),
                receipt_date,
                rnd.choice(SHIP_INSTRUCT),
                rnd.choice(SHIP_MODE),
                " ".join(rnd.choice(WORDS) for _ in range(rnd.randint(2, 6))),
            )
            produced += 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").appName("generate-lineitem")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        df = spark.createDataFrame(list(rows(args.rows, args.seed)), schema())
        df.coalesce(1).write.mode("overwrite").parquet(args.output)
    finally:
        spark.stop()
    print(f"wrote {args.rows} lineitem rows to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
