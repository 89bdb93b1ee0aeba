import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.SparkSession;

/**
 * Writes substrait-java's Spark module's plan for each query, as its own tests do: the query
 * run by spark.sql in a local session of the Spark its release was built for, over catalog
 * tables of the matrix's Parquet files (so the module writes named tables), its optimized
 * plan converted by io.substrait.spark.logical.ToSubstraitRel and io.substrait.plan.
 * PlanProtoConverter. args = Parquet folder (<table>.parquet), table names (comma-separated),
 * query folder (<id>.sql), output folder (<id>.bin, or <id>.failed with the module's error).
 * Reflection, because the module's classes are the release's (the driver only needs Spark).
 */
public class SubstraitSparkWriter {
  public static void main(String[] args) throws Exception {
    Path parquet = Path.of(args[0]);
    Path out = Path.of(args[3]);
    Files.createDirectories(out);
    SparkSession spark = SparkSession.builder().master("local[1]").appName("substrait-java-spark-writer")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
        .config("spark.sql.warehouse.dir", out.resolve("warehouse").toString())
        .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    for (String table : args[1].split(",")) {
      if (table.isBlank()) continue;
      spark.sql("CREATE TABLE " + table + " USING parquet LOCATION '" + parquet.resolve(table + ".parquet") + "'");
    }
    List<Path> queries = new ArrayList<>();
    try (var s = Files.list(Path.of(args[2]))) { s.filter(p -> p.toString().endsWith(".sql")).sorted().forEach(queries::add); }
    for (Path q : queries) {
      String id = q.getFileName().toString().replace(".sql", "");
      String sql = Files.readString(q, StandardCharsets.UTF_8).trim();
      if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
      try {
        Object optimized = spark.sql(sql).queryExecution().optimizedPlan();
        Files.write(out.resolve(id + ".bin"), plan(optimized));
      } catch (Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof java.lang.reflect.InvocationTargetException || c.getMessage() == null)) c = c.getCause();
        String msg = c.getClass().getSimpleName() + ": " + String.valueOf(c.getMessage()).lines().findFirst().orElse("");
        Files.writeString(out.resolve(id + ".failed"), msg + "\n");
      }
    }
    spark.stop();
  }

  static byte[] plan(Object optimized) throws Exception {
    Class<?> toRel = Class.forName("io.substrait.spark.logical.ToSubstraitRel");
    Object converter = toRel.getConstructor().newInstance();
    Method convert = null;
    for (Method m : toRel.getMethods()) if (m.getName().equals("convert") && m.getParameterCount() == 1) convert = m;
    Object pojo = convert.invoke(converter, optimized);
    Class<?> ppc = Class.forName("io.substrait.plan.PlanProtoConverter");
    Object proto = ppc.getMethod("toProto", Class.forName("io.substrait.plan.Plan")).invoke(ppc.getConstructor().newInstance(), pojo);
    return (byte[]) proto.getClass().getMethod("toByteArray").invoke(proto);
  }
}
