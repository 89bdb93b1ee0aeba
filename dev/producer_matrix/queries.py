"""The matrix's fixed query set: the 22 TPC-H queries (DuckDB's text, as the Scala tests read
it) and a feature set of our own over three small tables with NULLs, duplicates and an
empty table. Pure Python: every release's writer imports it from its own virtualenv."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TPCH_SQL = REPO / "jvm" / "src" / "test" / "resources" / "tpch"

TPCH_TABLES: dict[str, list[tuple[str, str]]] = {
    "part": [("p_partkey", "BIGINT"), ("p_name", "VARCHAR"), ("p_mfgr", "VARCHAR"), ("p_brand", "VARCHAR"),
             ("p_type", "VARCHAR"), ("p_size", "INTEGER"), ("p_container", "VARCHAR"),
             ("p_retailprice", "DECIMAL(15,2)"), ("p_comment", "VARCHAR")],
    "supplier": [("s_suppkey", "BIGINT"), ("s_name", "VARCHAR"), ("s_address", "VARCHAR"), ("s_nationkey", "INTEGER"),
                 ("s_phone", "VARCHAR"), ("s_acctbal", "DECIMAL(15,2)"), ("s_comment", "VARCHAR")],
    "partsupp": [("ps_partkey", "BIGINT"), ("ps_suppkey", "BIGINT"), ("ps_availqty", "BIGINT"),
                 ("ps_supplycost", "DECIMAL(15,2)"), ("ps_comment", "VARCHAR")],
    "customer": [("c_custkey", "BIGINT"), ("c_name", "VARCHAR"), ("c_address", "VARCHAR"), ("c_nationkey", "INTEGER"),
                 ("c_phone", "VARCHAR"), ("c_acctbal", "DECIMAL(15,2)"), ("c_mktsegment", "VARCHAR"),
                 ("c_comment", "VARCHAR")],
    "orders": [("o_orderkey", "BIGINT"), ("o_custkey", "BIGINT"), ("o_orderstatus", "VARCHAR"),
               ("o_totalprice", "DECIMAL(15,2)"), ("o_orderdate", "DATE"), ("o_orderpriority", "VARCHAR"),
               ("o_clerk", "VARCHAR"), ("o_shippriority", "INTEGER"), ("o_comment", "VARCHAR")],
    "lineitem": [("l_orderkey", "BIGINT"), ("l_partkey", "BIGINT"), ("l_suppkey", "BIGINT"), ("l_linenumber", "BIGINT"),
                 ("l_quantity", "DECIMAL(15,2)"), ("l_extendedprice", "DECIMAL(15,2)"), ("l_discount", "DECIMAL(15,2)"),
                 ("l_tax", "DECIMAL(15,2)"), ("l_returnflag", "VARCHAR"), ("l_linestatus", "VARCHAR"),
                 ("l_shipdate", "DATE"), ("l_commitdate", "DATE"), ("l_receiptdate", "DATE"),
                 ("l_shipinstruct", "VARCHAR"), ("l_shipmode", "VARCHAR"), ("l_comment", "VARCHAR")],
    "nation": [("n_nationkey", "INTEGER"), ("n_name", "VARCHAR"), ("n_regionkey", "INTEGER"), ("n_comment", "VARCHAR")],
    "region": [("r_regionkey", "INTEGER"), ("r_name", "VARCHAR"), ("r_comment", "VARCHAR")],
}

# Small tables: NULLs in every column, duplicate rows and keys, and an empty table.
FEATURE_TABLES: dict[str, list[tuple[str, str]]] = {
    "emp": [("id", "INTEGER"), ("name", "VARCHAR"), ("dept", "INTEGER"), ("salary", "DECIMAL(10,2)"),
            ("bonus", "DOUBLE"), ("hired", "DATE"), ("active", "BOOLEAN"), ("code", "BIGINT")],
    "dept": [("dept_id", "INTEGER"), ("dname", "VARCHAR"), ("budget", "BIGINT")],
    "nothing": [("id", "INTEGER"), ("name", "VARCHAR"), ("dept", "INTEGER")],
}

FEATURE_ROWS = {
    "emp": [
        (1, "Ann", 10, "1000.50", 10.5, "2020-01-15", True, 100),
        (2, "bob", 10, "2000.00", None, "2019-06-30", False, 200),
        (3, "Cid", 20, "1500.25", 5.25, "2021-03-01", True, 300),
        (3, "Cid", 20, "1500.25", 5.25, "2021-03-01", True, 300),   # a duplicate row
        (4, None, 30, None, 0.0, "2018-12-31", None, None),
        (5, "Eve", None, "750.00", 1.5, None, True, 500),
        (6, "fay", 20, "3000.00", 2.0, "2020-02-29", False, 600),
        (None, "Gus", 10, "10.10", None, "2022-07-04", True, 700),
    ],
    "dept": [
        (10, "Sales", 5000),
        (20, "R&D", 9000),
        (20, "R&D", 9000),                                        # a duplicate key
        (40, "Legal", None),
        (None, "Nowhere", 1),
    ],
    "nothing": [],
}

FEATURES: dict[str, str] = {
    # projections, filters, NULL handling
    "f01_filter": "SELECT id, name FROM emp WHERE salary > 1000",
    "f02_null_tests": "SELECT id, name IS NULL AS no_name, bonus IS NOT NULL AS has_bonus FROM emp",
    "f03_coalesce": "SELECT id, COALESCE(name, 'none') AS n, COALESCE(dept, -1) AS d FROM emp",
    "f04_case": "SELECT id, CASE WHEN salary >= 2000 THEN 'high' WHEN salary >= 1000 THEN 'mid' ELSE 'low' END AS band FROM emp",
    "f05_nullif": "SELECT id, NULLIF(dept, 10) AS d FROM emp",
    "f06_null_arith": "SELECT id, bonus + 1 AS b1, code * 2 AS c2 FROM emp",
    "f07_boolean": "SELECT id FROM emp WHERE active AND NOT (dept = 20) OR name = 'bob'",
    "f08_in_list": "SELECT id FROM emp WHERE dept IN (10, 30)",
    "f09_between": "SELECT id FROM emp WHERE salary BETWEEN 750 AND 1500.25",
    "f10_distinct": "SELECT DISTINCT dept FROM emp",
    "f11_order_limit": "SELECT id, salary FROM emp WHERE id IS NOT NULL ORDER BY salary DESC, id LIMIT 3",
    "f12_offset": "SELECT id FROM emp WHERE id IS NOT NULL ORDER BY id LIMIT 2 OFFSET 2",
    # joins
    "f20_inner_join": "SELECT e.id, d.dname FROM emp e JOIN dept d ON e.dept = d.dept_id",
    "f21_left_join": "SELECT e.id, d.dname FROM emp e LEFT JOIN dept d ON e.dept = d.dept_id",
    "f22_right_join": "SELECT e.id, d.dname FROM emp e RIGHT JOIN dept d ON e.dept = d.dept_id",
    "f23_full_join": "SELECT e.id, d.dname FROM emp e FULL JOIN dept d ON e.dept = d.dept_id",
    "f24_cross_join": "SELECT e.id, d.dname FROM emp e CROSS JOIN dept d WHERE e.id < 3",
    "f25_semi_exists": "SELECT d.dname FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.dept_id)",
    "f26_anti_not_exists": "SELECT d.dname FROM dept d WHERE NOT EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.dept_id)",
    "f27_in_subquery": "SELECT id FROM emp WHERE dept IN (SELECT dept_id FROM dept WHERE budget > 6000)",
    "f28_not_in_subquery": "SELECT dept_id FROM dept WHERE dept_id NOT IN (SELECT id FROM emp WHERE id IS NOT NULL)",
    "f29_non_equi_join": "SELECT e.id, d.dept_id FROM emp e JOIN dept d ON e.dept < d.dept_id AND e.salary > 1000",
    "f30_join_empty": "SELECT e.id, n.name FROM emp e LEFT JOIN nothing n ON e.id = n.id",
    "f31_self_join": "SELECT a.id, b.id AS other FROM emp a JOIN emp b ON a.dept = b.dept AND a.id < b.id",
    # set operations
    "f40_union": "SELECT dept FROM emp UNION SELECT dept_id FROM dept",
    "f41_union_all": "SELECT dept FROM emp UNION ALL SELECT dept_id FROM dept",
    "f42_intersect": "SELECT dept FROM emp INTERSECT SELECT dept_id FROM dept",
    "f43_except": "SELECT dept_id FROM dept EXCEPT SELECT dept FROM emp",
    # aggregation
    "f50_group_by": "SELECT dept, COUNT(*) AS n, COUNT(name) AS named, SUM(salary) AS total, MIN(hired) AS first, MAX(bonus) AS top FROM emp GROUP BY dept",
    "f51_having": "SELECT dept, AVG(salary) AS mean FROM emp GROUP BY dept HAVING COUNT(*) > 1",
    "f52_count_distinct": "SELECT COUNT(DISTINCT dept) AS depts, COUNT(DISTINCT name) AS names FROM emp",
    "f53_global_empty": "SELECT COUNT(*) AS n, SUM(dept) AS s, MAX(name) AS m FROM nothing",
    "f54_group_empty": "SELECT dept, COUNT(*) AS n FROM nothing GROUP BY dept",
    "f55_grouping_sets": "SELECT dept, active, COUNT(*) AS n FROM emp GROUP BY GROUPING SETS ((dept), (active), ())",
    "f56_rollup": "SELECT dept, active, SUM(code) AS s FROM emp GROUP BY ROLLUP (dept, active)",
    "f57_cube": "SELECT dept, active, COUNT(*) AS n FROM emp GROUP BY CUBE (dept, active)",
    "f58_agg_filter_null": "SELECT SUM(bonus) AS b, AVG(bonus) AS a, COUNT(bonus) AS c FROM emp WHERE name IS NOT NULL",
    "f59_decimal_avg": "SELECT dept, AVG(salary) AS a, SUM(salary * 2) AS s2 FROM emp GROUP BY dept",
    # windows
    "f60_row_number": "SELECT id, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY id, salary) AS rn FROM emp WHERE id IS NOT NULL",
    "f61_rank": "SELECT id, RANK() OVER (ORDER BY salary) AS r, DENSE_RANK() OVER (ORDER BY salary) AS dr FROM emp",
    "f62_running_sum": "SELECT id, SUM(code) OVER (PARTITION BY dept ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM emp WHERE id IS NOT NULL",
    "f63_lag_lead": "SELECT id, LAG(code) OVER (ORDER BY id) AS prev, LEAD(code) OVER (ORDER BY id) AS next FROM emp WHERE id IS NOT NULL AND id <> 3",
    "f64_window_agg": "SELECT id, COUNT(*) OVER (PARTITION BY dept) AS n, MAX(salary) OVER (PARTITION BY dept) AS m FROM emp",
    # subqueries
    "f70_scalar_subquery": "SELECT id FROM emp WHERE salary > (SELECT AVG(salary) FROM emp)",
    "f71_correlated_scalar": "SELECT id FROM emp e WHERE salary = (SELECT MAX(salary) FROM emp x WHERE x.dept = e.dept)",
    "f72_derived_table": "SELECT d, n FROM (SELECT dept AS d, COUNT(*) AS n FROM emp GROUP BY dept) t WHERE n >= 2",
    # casts
    "f80_cast_to_string": "SELECT id, CAST(code AS VARCHAR) AS s, CAST(hired AS VARCHAR) AS h FROM emp",
    "f81_cast_numbers": "SELECT id, CAST(salary AS DOUBLE) AS d, CAST(bonus AS BIGINT) AS b, CAST(id AS DECIMAL(12,3)) AS x FROM emp",
    "f82_cast_from_string": "SELECT CAST('42' AS INTEGER) + id AS v, CAST('2021-01-01' AS DATE) AS d FROM emp WHERE id = 1",
    # strings
    "f90_upper_lower": "SELECT id, UPPER(name) AS u, LOWER(name) AS l FROM emp",
    "f91_substring": "SELECT id, SUBSTRING(name, 2, 2) AS s FROM emp",
    "f92_concat": "SELECT id, name || '-' || CAST(dept AS VARCHAR) AS c FROM emp",
    "f93_like": "SELECT id FROM emp WHERE name LIKE '%a%'",
    "f94_length_trim": "SELECT id, CHAR_LENGTH(name) AS n, TRIM('  ' || name || ' ') AS t FROM emp",
    "f95_not_like": "SELECT id FROM emp WHERE name NOT LIKE 'C%'",
    # a pattern DuckDB's optimizer keeps a LIKE (not contains/prefix): written as not_equal by DuckDB 1.0-1.1.3
    "f96_not_like_pattern": "SELECT id FROM emp WHERE name NOT LIKE '%n%n'",
    # dates
    "f100_date_literal": "SELECT id FROM emp WHERE hired >= DATE '2020-01-01'",
    "f101_extract": "SELECT id, EXTRACT(YEAR FROM hired) AS y, EXTRACT(MONTH FROM hired) AS m FROM emp",
    "f102_date_interval": "SELECT id, hired + INTERVAL '1' MONTH AS next FROM emp",
    "f103_date_between": "SELECT id FROM emp WHERE hired BETWEEN DATE '2019-01-01' AND DATE '2020-12-31'",
    # arithmetic and decimals
    "f110_decimal_arith": "SELECT id, salary * 1.1 AS raised, salary - 0.5 AS less, salary / 4 AS quarter FROM emp",
    "f111_integer_ops": "SELECT id, code % 7 AS m, ABS(dept - 25) AS a, id * dept AS p FROM emp",
    "f112_round": "SELECT id, ROUND(salary, 1) AS r, ROUND(bonus) AS b FROM emp",
    "f113_double_ops": "SELECT id, bonus * 2.5 AS d, bonus / 2 AS h FROM emp",
    # products whose digits add up to more than 19: isthmus declares them DECIMAL(19,s)
    "f114_decimal_product": "SELECT id, salary * code AS p, salary * salary AS sq FROM emp",
    # shapes TPC-DS showed (issue 34): DataFusion's simple CASE (q39), a date plus days (q72),
    # a range DuckDB's statistics prove true but for NULLs (constant_or_null, q13), GROUPING() (q70)
    "f130_simple_case": "SELECT id, CASE dept WHEN 10 THEN 'ten' WHEN 20 THEN 'twenty' ELSE 'other' END AS d FROM emp",
    "f131_date_plus_days": "SELECT id, hired + 5 AS later, hired - 3 AS earlier FROM emp",
    "f132_folded_between": "SELECT id FROM emp WHERE salary BETWEEN -100000000 AND 100000000 OR code > 5",
    "f133_grouping": "SELECT dept, active, GROUPING(dept) AS gd, GROUPING(active) AS ga, COUNT(*) AS n "
                     "FROM emp GROUP BY ROLLUP (dept, active)",
    # issue 35: grouping sets whose aggregate reaches the root (DataFusion 31-42 writes no project over it, isthmus
    # 0.52-0.66 never do; both leave the set's index unnamed), under a join that numbers its columns without the
    # index (isthmus 0.52-0.66); a query without FROM (DuckDB 1.1's dummy row, a virtual table without schema)
    "f134_grouping_sets_at_root": "SELECT dept, active, COUNT(*), SUM(code) FROM emp GROUP BY GROUPING SETS ((dept), (active), ())",
    "f135_rollup_joined": "SELECT d.dname, t.n FROM dept d JOIN (SELECT dept, COUNT(*) AS n FROM emp GROUP BY ROLLUP (dept)) t "
                          "ON t.dept = d.dept_id",
    "f136_select_constants": "SELECT 1 AS a, 'x' AS s, 2.5 AS d",
    # issue 62: what peers' plans showed. A typeless NULL as a UNION branch's column (DuckDB's TPC-DS q27) and
    # in IS NOT DISTINCT FROM; branches of INTEGER and BIGINT (DataFusion writes no cast); a subquery in a
    # subquery that references the outermost query (DataFusion: steps_out 2)
    "f140_union_null_column": "SELECT id, name FROM emp UNION ALL SELECT dept_id, NULL FROM dept",
    "f141_not_distinct_null": "SELECT id FROM emp WHERE dept IS NOT DISTINCT FROM NULL",
    "f142_not_distinct_join": "SELECT e.id, d.dname FROM emp e JOIN dept d ON e.dept IS NOT DISTINCT FROM d.dept_id",
    "f143_union_int_bigint": "SELECT dept FROM emp UNION ALL SELECT budget FROM dept",
    "f144_nested_correlation": "SELECT d.dname FROM dept d WHERE EXISTS (SELECT 1 FROM emp e WHERE e.dept = d.dept_id "
                               "AND EXISTS (SELECT 1 FROM emp x WHERE x.id = e.id AND x.code * 50 > d.budget))",
}

# Producer-specific spellings: aggregates the known issue names (DuckDB's median, product,
# string_agg) and DuckDB's `//`, tried by the producers whose SQL has them.
DIALECT_FEATURES: dict[str, str] = {
    "f120_median": "SELECT dept, MEDIAN(bonus) AS m FROM emp GROUP BY dept",
    "f121_string_agg": "SELECT dept, STRING_AGG(name, ',' ORDER BY name) AS names FROM emp GROUP BY dept",
    "f122_product": "SELECT dept, PRODUCT(bonus) AS p FROM emp GROUP BY dept",
    # DuckDB's integer division: NULL by zero (id 3, twice), NULL inputs, negative quotients truncated.
    "f123_integer_division": "SELECT id, code // (id - 3) AS q FROM emp",
    # issue 62: an order-insensitive aggregate with a sort (DataFusion keeps it), MEDIAN of decimals, struct
    # outputs whose root names DuckDB gives only at the top level, list literals with a NULL or no element,
    # DuckDB's decimal division and modulus by zero (NULL there)
    "f124_count_ordered": "SELECT dept, COUNT(name ORDER BY name) AS n FROM emp GROUP BY dept",
    "f125_median_decimal": "SELECT dept, MEDIAN(salary) AS m FROM emp GROUP BY dept",
    "f126_struct_output": "SELECT id, {'a': dept, 'b': name} AS s FROM emp",
    "f127_named_struct": "SELECT id, named_struct('a', dept, 'b', name) AS s FROM emp",
    "f128_list_literals": "SELECT id, [1, NULL, 3] AS l, [] AS e FROM emp WHERE id < 3",
    "f129_decimal_by_zero": "SELECT id, salary / CAST(code - code AS DECIMAL(10,2)) AS q, "
                            "salary % CAST(code - code AS DECIMAL(10,2)) AS r, code % (code - code) AS m FROM emp",
}


# substrait-java's Spark module writes Spark's own functions under its dialect YAML
# (extension:substrait:spark): queries whose optimized Spark plan holds them, written by
# that producer only (their SQL is Spark's). emp.salary cast to DECIMAL(7,2) is small enough
# for Spark's DecimalAggregates (an AVG or SUM over the unscaled long).
SPARK_DIALECT_FEATURES: dict[str, str] = {
    "s01_year": "SELECT id, YEAR(hired) AS y FROM emp",
    "s02_date_add_filter": "SELECT id, hired FROM emp WHERE hired + 5 > DATE '2020-01-01'",
    "s03_small_decimal_avg": "SELECT dept, AVG(CAST(salary AS DECIMAL(7,2))) AS a FROM emp GROUP BY dept",
    "s04_small_decimal_sum": "SELECT dept, SUM(CAST(salary AS DECIMAL(7,2))) AS s FROM emp GROUP BY dept",
    "s05_shift_right": "SELECT id, SHIFTRIGHT(code, 2) AS r64, SHIFTRIGHT(CAST(code AS INT), 33) AS r32 FROM emp",
}


def tpch_queries() -> dict[str, str]:
    return {f"q{n:02d}": (TPCH_SQL / f"q{n:02d}.sql").read_text(encoding="utf-8").strip().rstrip(";")
            for n in range(1, 23)}


def all_queries() -> dict[str, str]:
    return {**tpch_queries(), **FEATURES, **DIALECT_FEATURES}


def tables() -> dict[str, list[tuple[str, str]]]:
    return {**TPCH_TABLES, **FEATURE_TABLES}


def is_tpch(query_id: str) -> bool:
    return query_id.startswith("q")
