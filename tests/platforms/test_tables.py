"""Catalogs and table formats where Spark users keep their tables: the Hive metastore (Spark's
embedded Derby one), Delta Lake in the session catalog and Iceberg as a catalog of its own
(``ice``, type hadoop), on each Spark line that format is released for (sparklines.py). Every
check runs a Substrait plan and the same statement in Spark SQL on an identical table, and
compares the rows (NULLs, duplicates, an empty case); writes also compare the tables after.

One driver process per area and line runs all its steps (tables_driver.py) and prints each
step's rows or error; the tests below read those lines. The ``ci`` mark sits on the Spark 3.5
parameter of the tests CI runs (``pytest -m ci``: the Hive metastore's two drivers and Delta's
DELETE, three drivers); dev/cluster-test runs every line.
"""

import json
import os
import subprocess
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from helpers import accepts, free_port, stop_process_group
from plan_json import Plan, ddl, field, filt, lit, project, read, schema, update, virtual, write
from sparklines import LINES

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "tables_driver.py"
# Which formats each line tests: the newest release of each built for it.
FORMATS = {"3.5": ("delta", "iceberg"), "4.1": ("delta", "iceberg"), "4.2": ("delta",)}
COLUMNS = [("id", "i32"), ("name", "string")]
# NULL ids and names, a duplicated row, a non-ASCII name.
ROWS_SQL = "(1, 'a'), (2, NULL), (2, NULL), (3, 'c'), (NULL, 'd'), (4, NULL), (5, 'É')"
WALL: dict[str, float] = {}


def lines(ci: bool):
    """The lines as parameters; ``ci`` marks the 3.5 one (CI's run: EMR 7, Databricks 14-16)."""
    return [pytest.param(v, marks=[pytest.mark.ci] if ci and v == "3.5" else [], id=f"spark{v}") for v in FORMATS]


def run_job(line_version: str, job: dict, folder: Path, name: str) -> dict[str, dict]:
    """Runs the steps in one driver of the line; returns each step's result by id."""
    line = LINES[line_version]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(job), encoding="utf-8")
    started = time.monotonic()
    done = subprocess.run([str(line.python), str(DRIVER), str(path)], cwd=folder, env=line.env(),
                          capture_output=True, text=True, timeout=1200)
    WALL[f"{name}[{line_version}]"] = time.monotonic() - started
    (folder / f"{name}.out").write_text(done.stdout + "\n--- stderr\n" + done.stderr, encoding="utf-8")
    print(f"[wall] {name} on Spark {line_version}: {WALL[f'{name}[{line_version}]']:.1f} s, {len(job['steps'])} steps")
    results = {}
    for raw in done.stdout.splitlines():
        if raw.startswith("{"):
            item = json.loads(raw)
            results[item["id"]] = item
    assert done.returncode == 0, f"{name}: exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    return results


def rows(results: dict[str, dict], step: str) -> Counter:
    """A step's rows as a multiset (duplicates count); the step must have given rows."""
    got = results[step]
    assert "rows" in got, f"{step}: {got.get('error')}"
    return Counter(json.dumps(r) for r in got["rows"])


def same(results: dict[str, dict], plan_step: str, sql_step: str) -> Counter:
    got, expected = rows(results, plan_step), rows(results, sql_step)
    assert got == expected, f"{plan_step} vs {sql_step}: {sorted(got.elements())} != {sorted(expected.elements())}"
    return got


def failed(results: dict[str, dict], step: str) -> dict:
    assert "error" in results[step], f"{step} gave rows: {results[step].get('rows')}"
    return results[step]["error"]


def steps(*pairs) -> list[dict]:
    out = []
    for p in pairs:
        out.extend(p if isinstance(p, list) else [p])
    return out


def sql(step_id, text, setup=False):
    return {"id": step_id, "sql": text, "setup": setup}


def plan(step_id, text):
    return {"id": step_id, "plan": text}


def setup(*statements):
    return [{"sql": s, "setup": True} for s in statements]


# ---------------------------------------------------------------- Hive metastore


def hive_conf(line_version: str, base: Path) -> dict:
    """Spark's embedded Hive metastore (Derby) and warehouse in ``base``: a second driver after the
    first stopped sees what the first created."""
    return {**LINES[line_version].conf(),
            "spark.sql.catalogImplementation": "hive",
            "spark.sql.warehouse.dir": str(base / "warehouse"),
            "spark.hadoop.javax.jdo.option.ConnectionURL": f"jdbc:derby:;databaseName={base / 'metastore_db'};create=true",
            "spark.driver.extraJavaOptions": f"-Dderby.system.home={base}"}


def hive_first_steps(base: Path) -> list[dict]:
    p = Plan()
    gt = lambda i, v: p.cmp("gt", field(i), lit("i32", v))  # noqa: E731
    out = setup(
        "CREATE DATABASE db",
        "CREATE TABLE db.t (id INT, name STRING) USING parquet",
        f"INSERT INTO db.t VALUES {ROWS_SQL}",
        # A Hive SerDe table (ORC through the metastore's storage descriptor), mixed case and a
        # keyword that SQL must quote.
        "CREATE TABLE db.h (id INT, name STRING) STORED AS ORC",
        f"INSERT INTO db.h VALUES {ROWS_SQL}",
        "CREATE TABLE db.MixedCase (Id INT, Name STRING) USING parquet",
        f"INSERT INTO db.MixedCase VALUES {ROWS_SQL}",
        "CREATE TABLE db.`select` (id INT, name STRING) USING parquet",
        f"INSERT INTO db.`select` VALUES {ROWS_SQL}",
        "CREATE TABLE db.empty (id INT, name STRING) USING parquet")
    reads = [
        ("t", ["db", "t"], COLUMNS, None, "SELECT id, name FROM db.t"),
        ("t3", ["spark_catalog", "db", "t"], COLUMNS, None, "SELECT id, name FROM spark_catalog.db.t"),
        ("t_gt1", ["db", "t"], COLUMNS, gt(0, 1), "SELECT id, name FROM db.t WHERE id > 1"),
        ("h", ["db", "h"], COLUMNS, None, "SELECT id, name FROM db.h"),
        ("mixed", ["DB", "MIXEDCASE"], [("ID", "i32"), ("nAmE", "string")], None, "SELECT Id, Name FROM DB.MixedCase"),
        ("keyword", ["db", "select"], COLUMNS, None, "SELECT id, name FROM db.`select`"),
        ("empty", ["db", "empty"], COLUMNS, None, "SELECT id, name FROM db.empty"),
    ]
    for key, names, columns, condition, text in reads:
        out += [plan(f"read_{key}", p.json(read(names, columns, condition), [c for c, _ in COLUMNS])),
                sql(f"sql_{key}", text)]
    # Refusals: a missing table, a missing database, with and without the catalog; a data source
    # and an existing path, and one that does not exist (the docs promise the same text).
    for key, names in [("no_table", ["db", "nope"]), ("no_db", ["nodb", "t"]),
                       ("no_db3", ["spark_catalog", "nodb", "t"]),
                       ("path_exists", ["parquet", str(base / "warehouse" / "db.db" / "t")]),
                       ("path_missing", ["parquet", str(base / "warehouse" / "db.db" / "missing")])]:
        out.append(plan(f"refuse_{key}", p.json(read(names, COLUMNS), [c for c, _ in COLUMNS])))
    # Writes: DdlRel CREATE TABLE, WriteRel INSERT (records with NULLs and a duplicate; the
    # table's rows; an empty input), CTAS; each beside the same SQL on a twin table.
    records = [[lit("i32", 7), lit("string", None)], [lit("i32", 7), lit("string", None)],
               [lit("i32", None), lit("string", "x")]]
    out += [{"set": {"spark.substrait.allowWrites": "true"}},
            plan("create", p.json(ddl(["db", "made"], "TABLE", "CREATE", schema(COLUMNS)))),
            sql("create_sql", "CREATE TABLE db.made_sql (id INT, name STRING) USING parquet"),
            plan("create_mixed", p.json(ddl(["db", "NewMixed"], "TABLE", "CREATE",
                                            schema([("Id", "i32"), ("Name", "string")])))),
            sql("create_mixed_sql", "CREATE TABLE db.NewMixed_sql (Id INT, Name STRING) USING parquet"),
            plan("insert_values", p.json(write(["db", "made"], "INSERT", virtual(COLUMNS, records)))),
            sql("insert_values_sql", "INSERT INTO db.made_sql VALUES (7, NULL), (7, NULL), (NULL, 'x')"),
            plan("insert_select", p.json(write(["spark_catalog", "db", "made"], "INSERT",
                                               read(["db", "t"], COLUMNS, gt(0, 1))))),
            sql("insert_select_sql", "INSERT INTO spark_catalog.db.made_sql SELECT * FROM db.t WHERE id > 1"),
            plan("insert_empty", p.json(write(["db", "made"], "INSERT", read(["db", "empty"], COLUMNS)))),
            sql("insert_empty_sql", "INSERT INTO db.made_sql SELECT * FROM db.empty"),
            plan("insert_mixed", p.json(write(["DB", "newmixed"], "INSERT", read(["db", "t"], COLUMNS)))),
            sql("insert_mixed_sql", "INSERT INTO DB.newmixed_sql SELECT * FROM db.t"),
            plan("ctas", p.json(write(["db", "made_ctas"], "CTAS", read(["db", "h"], COLUMNS, gt(0, 2)),
                                      schema([("k", "i32"), ("v", "string")])))),
            sql("ctas_sql", "CREATE TABLE db.made_ctas_sql USING parquet AS SELECT id AS k, name AS v FROM db.h "
                            "WHERE id > 2"),
            sql("in_process", "SELECT * FROM db.made"), sql("in_process_sql", "SELECT * FROM db.made_sql")]
    # A persistent view from a plan is refused (docs/security.md); so is one written in SQL over
    # substrait_json(...): Spark keeps no persistent view over a session's injected function.
    view_plan = p.json(read(["db", "t"], COLUMNS, gt(0, 1)), [c for c, _ in COLUMNS])
    out += [plan("persistent_view", p.json(ddl(["db", "pv"], "VIEW", "CREATE", schema(COLUMNS),
                                               read(["db", "t"], COLUMNS)))),
            sql("sql_view", "CREATE VIEW db.sv AS SELECT * FROM substrait_json('{}')".format(view_plan.replace("'", "\\'")))]
    return out


def hive_second_steps() -> list[dict]:
    """A new driver on the same metastore: the plans' tables are there, as the SQL ones."""
    p = Plan()
    out = []
    for key, table, columns in [("made", "made", COLUMNS), ("mixed", "newmixed", [("Id", "i32"), ("Name", "string")]),
                                ("ctas", "made_ctas", [("k", "i32"), ("v", "string")])]:
        names = [c for c, _ in columns]
        out += [plan(f"read_{key}", p.json(read(["db", table], columns), names)),
                sql(f"sql_{key}", f"SELECT {', '.join(names)} FROM db.{table}_sql"),
                sql(f"describe_{key}", f"DESCRIBE TABLE db.{table}"),
                sql(f"describe_{key}_sql", f"DESCRIBE TABLE db.{table}_sql")]
    out.append(sql("tables", "SHOW TABLES IN db"))
    # The view SQL made over substrait_json(...), where the line let it be made: this driver's
    # session converts the plan again, and must give the rows of the statement it stands for.
    out += [sql("read_sql_view", "SELECT * FROM db.sv"), sql("read_sql_view_sql", "SELECT id, name FROM db.t WHERE id > 1")]
    return out


_hive_cache: dict[str, tuple] = {}


@pytest.fixture(scope="module")
def hive_runs(tmp_path_factory):
    def run(line_version):
        if line_version not in _hive_cache:
            base = tmp_path_factory.mktemp(f"hive{line_version}")
            conf = hive_conf(line_version, base)
            first = run_job(line_version, {"conf": conf, "hive": True, "steps": hive_first_steps(base)}, base, "hive1")
            second = run_job(line_version, {"conf": conf, "hive": True, "steps": hive_second_steps()}, base, "hive2")
            _hive_cache[line_version] = (first, second, base)
        return _hive_cache[line_version]
    return run


@pytest.mark.parametrize("line", lines(ci=True))
def test_hive_metastore_reads_names_and_cases(hive_runs, line):
    first, _, _ = hive_runs(line)
    for key in ("t", "t3", "t_gt1", "h", "mixed", "keyword", "empty"):
        got = same(first, f"read_{key}", f"sql_{key}")
        assert (key == "empty") == (not got), key  # every table but the empty one has rows
    # NULLs and the duplicate arrive as they are in the table.
    assert rows(first, "read_t")[json.dumps([2, None])] == 2
    assert rows(first, "read_t")[json.dumps([None, "d"])] == 1


@pytest.mark.parametrize("line", lines(ci=True))
def test_hive_metastore_refusals_name_what_was_asked(hive_runs, line):
    first, _, base = hive_runs(line)
    for key, name in [("no_table", "db.nope"), ("no_db", "nodb.t"), ("no_db3", "spark_catalog.nodb.t")]:
        e = failed(first, f"refuse_{key}")
        assert e["condition"] == "SUBSTRAIT_TABLE_NOT_FOUND" and e["type"] == "SubstraitInvalidPlanError", e
        assert f"table={name}" in e["message"] or name in e["message"], e
    # A data source and a path: the same refusal whether the path exists or not (docs/security.md),
    # once the path itself is taken out of the text.
    texts = []
    for key, leaf in [("path_exists", "t"), ("path_missing", "missing")]:
        e = failed(first, f"refuse_{key}")
        assert e["condition"] == "SUBSTRAIT_TABLE_NOT_FOUND", e
        texts.append(e["message"].replace(str(base / "warehouse" / "db.db" / leaf), "<path>"))
    assert texts[0] == texts[1], texts


@pytest.mark.parametrize("line", lines(ci=True))
def test_hive_metastore_ddl_and_writes_seen_by_a_second_driver(hive_runs, line):
    first, second, _ = hive_runs(line)
    for step in ("create", "create_mixed", "insert_values", "insert_select", "insert_empty", "insert_mixed", "ctas"):
        assert "rows" in first[step], (step, first[step].get("error"))
        assert "rows" in first[f"{step}_sql"], (step, first[f"{step}_sql"].get("error"))
    made = same(first, "in_process", "in_process_sql")
    assert made[json.dumps([7, None])] == 2 and sum(made.values()) == 3 + 5  # 3 records, 5 rows with id > 1
    for key in ("made", "mixed", "ctas"):
        assert same(second, f"read_{key}", f"sql_{key}"), key
        assert rows(second, f"describe_{key}") == rows(second, f"describe_{key}_sql"), key
    tables = {r[1] for r in second["tables"]["rows"]}
    assert {"made", "newmixed", "made_ctas"} <= tables, tables


@pytest.mark.parametrize("line", lines(ci=True))
def test_hive_metastore_persistent_views_are_refused(hive_runs, line):
    """DdlRel CREATE VIEW of a catalog view is refused, naming it (docs/security.md says why), and
    the next driver finds no such view. The SQL route over the table function is Spark's own
    refusal: a persistent view may not use a session's injected (temporary) function."""
    first, second, _ = hive_runs(line)
    e = failed(first, "persistent_view")
    assert e["condition"] == "SUBSTRAIT_UNSUPPORTED_FEATURE" and "db.pv" in e["message"], e
    assert "pv" not in {r[1] for r in second["tables"]["rows"]}
    # Spark 3.5 and 4.1 refuse the SQL route; Spark 4.2 accepts it (2026-12-07), and then a second
    # driver's session converts the view's plan again: its rows must be the statement's.
    if line in ("3.5", "4.1"):
        e = failed(first, "sql_view")
        assert e["condition"] == "INVALID_TEMP_OBJ_REFERENCE" and "substrait_json" in e["message"], e
        failed(second, "read_sql_view")
    else:
        assert "rows" in first["sql_view"], first["sql_view"]
        assert same(second, "read_sql_view", "read_sql_view_sql")


# ---------------------------------------------------------------- a metastore service

METASTORE_SITE = """<configuration>
  <property><name>javax.jdo.option.ConnectionURL</name><value>jdbc:derby:;databaseName={db};create=true</value></property>
  <property><name>hive.metastore.warehouse.dir</name><value>file:{warehouse}</value></property>
  <property><name>datanucleus.schema.autoCreateAll</name><value>true</value></property>
  <property><name>hive.metastore.schema.verification</name><value>false</value></property>
  <property><name>hive.async.log.enabled</name><value>false</value></property>
</configuration>
"""


@contextmanager
def metastore_service(line_version: str, base: Path):
    """Hive's metastore as a service of its own, as EMR and Dataproc run one for many clusters:
    its Thrift server (``HiveMetaStore``, from the Hive 2.3 jars every PySpark ships), backed by
    Derby in ``base``. Yields its thrift:// URI. (Hive's async logging wants a jar PySpark lacks:
    ``hive.async.log.enabled`` is off.)"""
    conf_dir = base / "metastore-conf"
    conf_dir.mkdir(parents=True)
    (conf_dir / "hive-site.xml").write_text(
        METASTORE_SITE.format(db=base / "metastore_db", warehouse=base / "warehouse"), encoding="utf-8")
    port = free_port()
    java = str(Path(os.environ["JAVA_HOME"]) / "bin" / "java") if os.environ.get("JAVA_HOME") else "java"
    log = base / "metastore.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([java, "-Xmx512m", "-cp", f"{conf_dir}:{LINES[line_version].spark_home / 'jars'}/*",
                                   "org.apache.hadoop.hive.metastore.HiveMetaStore", "-p", str(port)],
                                  cwd=base, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 240
        while not accepts(port):
            assert server.poll() is None and time.monotonic() < deadline, \
                f"the metastore did not start:\n{log.read_text(errors='replace')[-4000:]}"
            time.sleep(1)
        yield f"thrift://127.0.0.1:{port}"
    finally:
        stop_process_group(server)


def shared_metastore_steps(own: str, other: str) -> list[dict]:
    """One of two drivers running at once on one metastore service: it creates its database's
    tables by plans (DdlRel, WriteRel) and their SQL twins, marks them done, waits for the other
    driver's, and reads those by a plan and by SQL."""
    p = Plan()
    records = [[lit("i32", 7), lit("string", None)], [lit("i32", 7), lit("string", None)],
               [lit("i32", None), lit("string", own)]]
    names = [c for c, _ in COLUMNS]
    return [*setup(f"CREATE DATABASE {own}"),
            {"set": {"spark.substrait.allowWrites": "true"}},
            plan("create", p.json(ddl([own, "t"], "TABLE", "CREATE", schema(COLUMNS)))),
            sql("create_sql", f"CREATE TABLE {own}.t_sql (id INT, name STRING) USING parquet"),
            plan("insert", p.json(write([own, "t"], "INSERT", virtual(COLUMNS, records)))),
            sql("insert_sql", f"INSERT INTO {own}.t_sql VALUES (7, NULL), (7, NULL), (NULL, '{own}')"),
            *setup(f"CREATE TABLE {own}.done (x INT) USING parquet"),
            {"wait_table": f"{other}.done", "setup": True, "seconds": 600},
            plan("read_other", p.json(read([other, "t"], COLUMNS), names)),
            sql("read_other_sql", f"SELECT id, name FROM {other}.t_sql"),
            plan("read_other3", p.json(read(["spark_catalog", other, "t"], COLUMNS), names)),
            plan("refuse_missing", p.json(read([other, "nope"], COLUMNS), names))]


@pytest.mark.parametrize("line", ["3.5", "4.3"], ids=lambda v: f"spark{v}")
def test_two_drivers_at_once_on_a_metastore_service(tmp_path, line):
    """Two drivers alive at the same time on one metastore service (not Spark's embedded Derby,
    which one process at a time may open): each sees the tables the other's plans made, with the
    rows the SQL twins have, and a missing table is refused naming it."""
    with metastore_service(line, tmp_path) as uri:
        conf = {**LINES[line].conf(), "spark.sql.catalogImplementation": "hive",
                "spark.hadoop.hive.metastore.uris": uri, "spark.sql.warehouse.dir": str(tmp_path / "warehouse")}
        with ThreadPoolExecutor(2) as pool:
            futures = {own: pool.submit(run_job, line, {"conf": conf, "hive": True,
                                                        "steps": shared_metastore_steps(own, other)},
                                        tmp_path / own, f"driver_{own}")
                       for own, other in (("da", "db2"), ("db2", "da"))}
            results = {own: f.result() for own, f in futures.items()}
    for own, other in (("da", "db2"), ("db2", "da")):
        got = same(results[own], "read_other", "read_other_sql")
        assert got == Counter({json.dumps([7, None]): 2, json.dumps([None, other]): 1}), got
        assert rows(results[own], "read_other3") == got
        e = failed(results[own], "refuse_missing")
        assert e["condition"] == "SUBSTRAIT_TABLE_NOT_FOUND" and f"{other}.nope" in e["message"], e


# ---------------------------------------------------------------- Delta and Iceberg


class Fmt:
    """Where a format's tables live: Delta in the session catalog, Iceberg in its own ``ice``."""

    def __init__(self, name: str):
        self.name = name
        self.prefix = ["default"] if name == "delta" else ["ice", "db"]

    def names(self, table: str) -> list[str]:
        return [*self.prefix, f"{self.name[0]}_{table}"]

    def sql(self, table: str) -> str:
        return ".".join(f"`{n}`" for n in self.names(table))

    @property
    def odd(self) -> str:
        """A table name SQL must quote: a mixed-case keyword (the session catalog takes only
        letters, digits and _), or with a space and a dash (Iceberg)."""
        return "Select" if self.name == "delta" else "odd name-1"

    def history(self, step_id: str, table: str) -> dict:
        """The table's versions: Delta's history, Iceberg's snapshots."""
        if self.name == "delta":
            return sql(step_id, f"DESCRIBE HISTORY {self.sql(table)}")
        return sql(step_id, f"SELECT committed_at, operation, snapshot_id FROM {self.sql(table)}.snapshots")


def versions(results: dict[str, dict], step: str, fmt: str) -> list[tuple]:
    """(when, operation, id) of each version, oldest first: Delta's history (version, timestamp,
    user id, user name, operation, …) or Iceberg's snapshots (committed_at, operation, snapshot_id)."""
    got = results[step]
    assert "rows" in got, f"{step}: {got.get('error')}"
    if fmt == "delta":
        return sorted((r[0], r[4], r[0]) for r in got["rows"])
    return sorted((r[0], r[1], r[2]) for r in got["rows"])


def format_conf(line_version: str, base: Path, fmt: str) -> dict:
    formats = (fmt,)
    conf = {**LINES[line_version].conf(*formats), "spark.sql.warehouse.dir": str(base / "warehouse"),
            "spark.sql.shuffle.partitions": "4", "spark.sql.ansi.enabled": "true"}
    if "iceberg" in formats:
        conf.update({"spark.sql.catalog.ice": "org.apache.iceberg.spark.SparkCatalog",
                     "spark.sql.catalog.ice.type": "hadoop",
                     "spark.sql.catalog.ice.warehouse": str(base / "ice")})
    return conf


def format_steps(fmt: Fmt, section: str) -> list[dict]:
    """The steps of one section: ``rw`` (reads, INSERT, CTAS, UPDATE, CREATE / DROP) or ``delete``."""
    p = Plan()
    f, T = fmt.name[0], fmt.sql
    using = f"USING {fmt.name}"
    out = [{"set": {"spark.sql.sources.default": "delta" if fmt.name == "delta" else "parquet",
                    "spark.substrait.allowWrites": "true"}}]
    if fmt.name == "iceberg":
        out += setup("CREATE NAMESPACE IF NOT EXISTS ice.db")
    out += setup(f"CREATE TABLE {T('base')} (id INT, name STRING) {using}", f"INSERT INTO {T('base')} VALUES {ROWS_SQL}")
    copies = ("del1", "del2", "del3") if section == "delete" else ("ins", "upd")
    for copy in copies:
        out += setup(*(f"CREATE TABLE {T(f'{copy}_{w}')} {using} AS SELECT * FROM {T('base')}" for w in "ps"))
    out.append(sql(f"{f}_read_sql", f"SELECT * FROM {T('base')}"))
    return out + (delete_steps(p, fmt) if section == "delete" else rw_steps(p, fmt))


def rw_steps(p: Plan, fmt: Fmt) -> list[dict]:
    f, T, N = fmt.name[0], fmt.sql, fmt.names
    using = f"USING {fmt.name}"
    out = setup(f"CREATE TABLE {T(fmt.odd)} (id INT, name STRING) {using}", f"INSERT INTO {T(fmt.odd)} VALUES {ROWS_SQL}")
    names = [c for c, _ in COLUMNS]
    is_null = lambda i: p.cmp("is_null", field(i))  # noqa: E731
    cmp = lambda name, i, v: p.cmp(name, field(i), lit("i32", v))  # noqa: E731
    # Reads.
    out += [plan(f"{f}_read", p.json(read(N("base"), COLUMNS), names)),
            plan(f"{f}_read_null", p.json(read(N("base"), COLUMNS, is_null(1)), names)),
            sql(f"{f}_read_null_sql", f"SELECT * FROM {T('base')} WHERE name IS NULL"),
            plan(f"{f}_read_odd", p.json(read(N(fmt.odd), COLUMNS), names)),
            sql(f"{f}_read_odd_sql", f"SELECT * FROM {T(fmt.odd)}")]
    # INSERT: records with NULLs and a duplicate; the table's own rows; an empty input.
    records = [[lit("i32", 7), lit("string", None)], [lit("i32", 7), lit("string", None)],
               [lit("i32", None), lit("string", "x")]]
    out += [plan(f"{f}_ins1", p.json(write(N("ins_p"), "INSERT", virtual(COLUMNS, records)))),
            sql(f"{f}_ins1_sql", f"INSERT INTO {T('ins_s')} VALUES (7, NULL), (7, NULL), (NULL, 'x')"),
            plan(f"{f}_ins2", p.json(write(N("ins_p"), "INSERT", read(N("base"), COLUMNS, cmp("gt", 0, 1))))),
            sql(f"{f}_ins2_sql", f"INSERT INTO {T('ins_s')} SELECT * FROM {T('base')} WHERE id > 1"),
            plan(f"{f}_ins3", p.json(write(N("ins_p"), "INSERT", filt(read(N("base"), COLUMNS), lit("boolean", False))))),
            sql(f"{f}_ins3_sql", f"INSERT INTO {T('ins_s')} SELECT * FROM {T('base')} WHERE false"),
            sql(f"{f}_ins", f"SELECT * FROM {T('ins_p')}"), sql(f"{f}_ins_sql", f"SELECT * FROM {T('ins_s')}")]
    # CTAS, named by table_schema, in the session's default format (Delta) / the catalog's (Iceberg).
    out += [plan(f"{f}_ctas", p.json(write(N("ctas_p"), "CTAS", read(N("base"), COLUMNS, cmp("gt", 0, 1)),
                                           schema([("k", "i32"), ("v", "string")])))),
            sql(f"{f}_ctas_sql", f"CREATE TABLE {T('ctas_s')} {using} AS SELECT id AS k, name AS v FROM {T('base')} "
                                 "WHERE id > 1"),
            sql(f"{f}_ctas_rows", f"SELECT * FROM {T('ctas_p')}"), sql(f"{f}_ctas_rows_sql", f"SELECT * FROM {T('ctas_s')}"),
            sql(f"{f}_ctas_desc", f"DESCRIBE TABLE EXTENDED {T('ctas_p')}"),
            sql(f"{f}_ctas_desc_sql", f"DESCRIBE TABLE EXTENDED {T('ctas_s')}")]
    # UpdateRel: id = id + 10, name = 'two' where id = 2 (NULL for the NULL id: that row stays).
    add = p.call("functions_arithmetic", "add:i32_i32", "i32", field(0), lit("i32", 10))
    out += [plan(f"{f}_upd", p.json(update(N("upd_p"), schema(COLUMNS), cmp("equal", 0, 2),
                                           {1: lit("string", "two"), 0: add}))),
            sql(f"{f}_upd_sql", f"UPDATE {T('upd_s')} SET name = 'two', id = id + 10 WHERE id = 2"),
            sql(f"{f}_upd_rows", f"SELECT * FROM {T('upd_p')}"), sql(f"{f}_upd_rows_sql", f"SELECT * FROM {T('upd_s')}")]
    # DdlRel CREATE then DROP, beside SQL's.
    ns = ".".join(f"`{n}`" for n in fmt.prefix)
    out += [plan(f"{f}_create", p.json(ddl(N("new_p"), "TABLE", "CREATE", schema(COLUMNS)))),
            sql(f"{f}_create_sql", f"CREATE TABLE {T('new_s')} (id INT, name STRING) {using}"),
            plan(f"{f}_create_ins", p.json(write(N("new_p"), "INSERT", read(N("base"), COLUMNS)))),
            sql(f"{f}_create_ins_sql", f"INSERT INTO {T('new_s')} SELECT * FROM {T('base')}"),
            sql(f"{f}_new_rows", f"SELECT * FROM {T('new_p')}"), sql(f"{f}_new_rows_sql", f"SELECT * FROM {T('new_s')}"),
            sql(f"{f}_new_desc", f"DESCRIBE TABLE EXTENDED {T('new_p')}"),
            sql(f"{f}_new_desc_sql", f"DESCRIBE TABLE EXTENDED {T('new_s')}"),
            sql(f"{f}_tables_created", f"SHOW TABLES IN {ns}"),
            plan(f"{f}_drop", p.json(ddl(N("new_p"), "TABLE", "DROP"))),
            sql(f"{f}_drop_sql", f"DROP TABLE {T('new_s')}"),
            sql(f"{f}_tables_dropped", f"SHOW TABLES IN {ns}")]
    return out


def delete_steps(p: Plan, fmt: Fmt) -> list[dict]:
    f, T, N = fmt.name[0], fmt.sql, fmt.names
    is_null = lambda i: p.cmp("is_null", field(i))  # noqa: E731
    cmp = lambda name, i, v: p.cmp(name, field(i), lit("i32", v))  # noqa: E731
    out = []
    # DELETE of the table's rows meeting filters (the read's own and two FilterRels), as SQL's
    # DELETE … WHERE; then one filter; then records that are not the table's (the EXISTS form).
    chain = filt(filt(read(N("del1_p"), COLUMNS, cmp("not_equal", 0, 3)), is_null(1)), cmp("lt", 0, 4))
    out += [plan(f"{f}_del1", p.json(write(N("del1_p"), "DELETE", chain))),
            sql(f"{f}_del1_sql", f"DELETE FROM {T('del1_s')} WHERE id <> 3 AND name IS NULL AND id < 4"),
            plan(f"{f}_del2", p.json(write(N("del2_p"), "DELETE", filt(read(N("del2_p"), COLUMNS), cmp("gt", 0, 2))))),
            sql(f"{f}_del2_sql", f"DELETE FROM {T('del2_s')} WHERE id > 2"),
            plan(f"{f}_del3", p.json(write(N("del3_p"), "DELETE", virtual(COLUMNS, [
                [lit("i32", 2), lit("string", None)], [lit("i32", None), lit("string", "d")],
                [lit("i32", 9), lit("string", "z")]])))),
            sql(f"{f}_del3_sql", f"DELETE FROM {T('del3_s')} t WHERE EXISTS (SELECT 1 FROM VALUES (2, NULL), "
                                 "(NULL, 'd'), (9, 'z') AS v(id, name) WHERE v.id <=> t.id AND v.name <=> t.name)")]
    for n in (1, 2, 3):
        out += [sql(f"{f}_del{n}_rows", f"SELECT * FROM {T(f'del{n}_p')}"),
                sql(f"{f}_del{n}_rows_sql", f"SELECT * FROM {T(f'del{n}_s')}"),
                fmt.history(f"{f}_del{n}_hist", f"del{n}_p"), fmt.history(f"{f}_del{n}_hist_sql", f"del{n}_s")]
    return out


_format_cache: dict[tuple, dict[str, dict]] = {}


@pytest.fixture(scope="module")
def format_run(tmp_path_factory):
    """One driver per (line, format, section): the ci subset starts only the drivers it needs."""
    def run(line_version, fmt, section):
        key = (line_version, fmt, section)
        if key not in _format_cache:
            base = tmp_path_factory.mktemp(f"{fmt}-{section}{line_version}")
            steps = failure_steps(Fmt(fmt)) if section == "failures" else format_steps(Fmt(fmt), section)
            job = {"conf": format_conf(line_version, base, fmt), "steps": steps}
            _format_cache[key] = run_job(line_version, job, base, f"{fmt}-{section}")
        return _format_cache[key]
    return run


def format_params(ci_formats=()):
    """(line, format) parameters; ``ci_formats`` are marked ci on the 3.5 line."""
    return [pytest.param(v, name, marks=[pytest.mark.ci] if name in ci_formats and v == "3.5" else [],
                         id=f"spark{v}-{name}")
            for v, names in FORMATS.items() for name in names]


def provider(described: Counter) -> str:
    """The Provider row of DESCRIBE TABLE EXTENDED."""
    found = [json.loads(r)[1] for r in described if json.loads(r)[0] == "Provider"]
    return found[0] if found else None


@pytest.mark.parametrize("line,fmt", format_params())
def test_format_reads_inserts_ctas_update_ddl(format_run, line, fmt):
    results, f = format_run(line, fmt, "rw"), fmt[0]
    for key in ("read", "read_null", "read_odd"):
        assert same(results, f"{f}_{key}", f"{f}_{key}_sql"), key
    for step in ("ins1", "ins2", "ins3", "ctas", "upd", "create", "create_ins", "drop"):
        assert "rows" in results[f"{f}_{step}"], (step, results[f"{f}_{step}"].get("error"))
    inserted = same(results, f"{f}_ins", f"{f}_ins_sql")
    assert inserted[json.dumps([7, None])] == 2 and inserted[json.dumps([2, None])] == 4
    assert same(results, f"{f}_ctas_rows", f"{f}_ctas_rows_sql")
    assert provider(rows(results, f"{f}_ctas_desc")) == provider(rows(results, f"{f}_ctas_desc_sql")) == fmt
    updated = same(results, f"{f}_upd_rows", f"{f}_upd_rows_sql")
    assert updated[json.dumps([12, "two"])] == 2 and updated[json.dumps([None, "d"])] == 1
    assert same(results, f"{f}_new_rows", f"{f}_new_rows_sql")
    assert provider(rows(results, f"{f}_new_desc")) == provider(rows(results, f"{f}_new_desc_sql")) == fmt
    created = {r[1] for r in results[f"{f}_tables_created"]["rows"]}
    dropped = {r[1] for r in results[f"{f}_tables_dropped"]["rows"]}
    assert {f"{f}_new_p", f"{f}_new_s"} <= created and not {f"{f}_new_p", f"{f}_new_s"} & dropped, (created, dropped)


@pytest.mark.parametrize("line,fmt", format_params(ci_formats=("delta",)))
def test_format_delete_is_sqls_delete(format_run, line, fmt):
    """WriteRel DELETE of the table's own filtered rows runs as SQL's DELETE … WHERE (on Delta
    too, which refuses a subquery in DELETE), with the same rows and the same kind of version."""
    results, f = format_run(line, fmt, "delete"), fmt[0]
    for n in (1, 2):
        assert "rows" in results[f"{f}_del{n}"], results[f"{f}_del{n}"].get("error")
        assert same(results, f"{f}_del{n}_rows", f"{f}_del{n}_rows_sql")
        # As many versions as SQL's, the newest of the same operation (Delta: DELETE).
        plan_v, sql_v = versions(results, f"{f}_del{n}_hist", fmt), versions(results, f"{f}_del{n}_hist_sql", fmt)
        assert [v[1] for v in plan_v] == [v[1] for v in sql_v], (plan_v, sql_v)
    kept = rows(results, f"{f}_del1_rows")
    assert json.dumps([2, None]) not in kept and kept[json.dumps([4, None])] == 1 and kept[json.dumps([3, "c"])] == 1
    # Records that are not the table's own rows: the EXISTS form. SQL's EXISTS DELETE on the same
    # table either works, with the same rows, or is refused (Delta), and so is the plan, changing nothing.
    if "error" in results[f"{f}_del3_sql"]:
        e = failed(results, f"{f}_del3")
        assert e["condition"] == "SUBSTRAIT_UNSUPPORTED_FEATURE", e
        assert rows(results, f"{f}_del3_rows") == rows(results, f"{f}_read_sql")
    else:
        assert "rows" in results[f"{f}_del3"], results[f"{f}_del3"]["error"]
    same(results, f"{f}_del3_rows", f"{f}_del3_rows_sql")
    assert [v[1] for v in versions(results, f"{f}_del3_hist", fmt)] == \
        [v[1] for v in versions(results, f"{f}_del3_hist_sql", fmt)]


# ---------------------------------------------------------------- Nothing lost


# The failing inserts: (key, what the plan projects from src's columns, the same in SQL). src
# has 4,000 rows in 4 partitions; only its last row (id 4000: v 0, n NULL, c 1000000) fails,
# so the last task fails after the others wrote their files.
SRC_COLUMNS = [("id", "i32"), ("v", "i32"), ("n", "i32"), ("c", "i32"), ("s", "string")]


def failing_inserts(p: Plan, fmt: Fmt):
    out = [("overflow", p.call("functions_arithmetic", "add:i32_i32", "i32", field(0), lit("i32", 2147479648),
                               overflow="ERROR"), "id + 2147479648"),
           ("div0", p.call("functions_arithmetic", "divide:i32_i32", "i32", field(0), field(1),
                           on_division_by_zero="ERROR"), "CAST(id / v AS INT)"),
           ("notnull", field(2), "n")]
    if fmt.name == "delta":  # Iceberg has no CHECK constraints (only required columns)
        out.append(("check", field(3), "c"))
    return out


def failure_steps(fmt: Fmt) -> list[dict]:
    p = Plan()
    f, T, N = fmt.name[0], fmt.sql, fmt.names
    using = f"USING {fmt.name}"
    out = [{"set": {"spark.substrait.allowWrites": "true"}}]
    if fmt.name == "iceberg":
        out += setup("CREATE NAMESPACE IF NOT EXISTS ice.db")
    out += setup("CREATE OR REPLACE TEMP VIEW src AS SELECT CAST(id AS INT) AS id, IF(id = 4000, 0, 1) AS v, "
                 "CAST(IF(id = 4000, NULL, id) AS INT) AS n, CAST(IF(id = 4000, 1000000, id) AS INT) AS c, "
                 "CAST(id AS STRING) AS s FROM range(1, 4001, 1, 4)")
    for w in "ps":
        out += setup(f"CREATE TABLE {T(f'tgt_{w}')} (id INT NOT NULL, name STRING) {using}",
                     f"INSERT INTO {T(f'tgt_{w}')} VALUES (1, 'a'), (2, NULL), (2, NULL)",
                     f"INSERT INTO {T(f'tgt_{w}')} VALUES (3, NULL)")
        if fmt.name == "delta":
            # Broken only by the check insert's last row (a NULL is the NOT NULL insert's to refuse).
            out += setup(f"ALTER TABLE {T(f'tgt_{w}')} ADD CONSTRAINT not_a_million CHECK (id IS NULL OR id <> 1000000)")
    out += [sql(f"{f}_before", f"SELECT * FROM {T('tgt_p')}"), fmt.history(f"{f}_before_hist", "tgt_p"),
            fmt.history(f"{f}_before_hist_sql", "tgt_s")]
    for key, expression, text in failing_inserts(p, fmt):
        insert = write(N("tgt_p"), "INSERT", project(read(["src"], SRC_COLUMNS), len(SRC_COLUMNS),
                                                     [expression, field(4)]))
        out += [plan(f"{f}_{key}", p.json(insert)),
                sql(f"{f}_{key}_sql", f"INSERT INTO {T('tgt_s')} SELECT {text}, s FROM src"),
                sql(f"{f}_{key}_rows", f"SELECT * FROM {T('tgt_p')}"),
                sql(f"{f}_{key}_rows_sql", f"SELECT * FROM {T('tgt_s')}"),
                fmt.history(f"{f}_{key}_hist", "tgt_p"), fmt.history(f"{f}_{key}_hist_sql", "tgt_s")]
    # The same inserts without the failing row write 3,999 rows: the statement itself works.
    out += [plan(f"{f}_good", p.json(write(N("tgt_p"), "INSERT", project(
        filt(read(["src"], SRC_COLUMNS), p.cmp("lt", field(0), lit("i32", 4000))), len(SRC_COLUMNS),
        [p.call("functions_arithmetic", "add:i32_i32", "i32", field(0), lit("i32", 2147479648), overflow="ERROR"),
         field(4)])))),
            sql(f"{f}_good_sql", f"INSERT INTO {T('tgt_s')} SELECT id + 2147479648, s FROM src WHERE id < 4000"),
            sql(f"{f}_good_rows", f"SELECT * FROM {T('tgt_p')}"), sql(f"{f}_good_rows_sql", f"SELECT * FROM {T('tgt_s')}")]
    return out


@pytest.mark.parametrize("line,fmt", format_params())
def test_a_write_failing_part_way_leaves_rows_and_history(format_run, line, fmt):
    results, f = format_run(line, fmt, "failures"), fmt[0]
    before = rows(results, f"{f}_before")
    assert sum(before.values()) == 4
    history = versions(results, f"{f}_before_hist", fmt)
    assert [v[1] for v in history] == [v[1] for v in versions(results, f"{f}_before_hist_sql", fmt)]
    for key, _, _ in failing_inserts(Plan(), Fmt(fmt)):
        # The plan and SQL both fail; neither table has a row or a version more.
        plan_error, sql_error = failed(results, f"{f}_{key}"), failed(results, f"{f}_{key}_sql")
        assert rows(results, f"{f}_{key}_rows") == before, (key, plan_error)
        assert rows(results, f"{f}_{key}_rows_sql") == before, (key, sql_error)
        assert versions(results, f"{f}_{key}_hist", fmt) == history, key
        assert len(versions(results, f"{f}_{key}_hist_sql", fmt)) == len(history), key
    # Without the failing row the same insert writes every row, as SQL's does.
    assert "rows" in results[f"{f}_good"], results[f"{f}_good"].get("error")
    good = same(results, f"{f}_good_rows", f"{f}_good_rows_sql")
    assert sum(good.values()) == 4 + 3999
