import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes isthmus' plan for each query: args = DDL file (one CREATE TABLE per line), query
 * folder (<id>.sql), output folder (<id>.bin, or <id>.failed with isthmus' error). Reflection,
 * because isthmus' entry point changed: SqlToSubstrait.execute(sql, ddl) returning the proto
 * in older releases; convert(sql, catalog) returning its POJO plan (PlanProtoConverter to
 * proto) in newer ones.
 */
public class IsthmusWriter {
  public static void main(String[] args) throws Exception {
    List<String> ddl = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[0]))) if (!line.isBlank()) ddl.add(line);
    Path out = Path.of(args[2]);
    Files.createDirectories(out);
    List<Path> queries = new ArrayList<>();
    try (var s = Files.list(Path.of(args[1]))) { s.filter(p -> p.toString().endsWith(".sql")).sorted().forEach(queries::add); }
    for (Path q : queries) {
      String id = q.getFileName().toString().replace(".sql", "");
      String sql = Files.readString(q, StandardCharsets.UTF_8).trim();
      if (sql.endsWith(";")) sql = sql.substring(0, sql.length() - 1);
      try {
        byte[] plan = plan(sql, ddl);
        Files.write(out.resolve(id + ".bin"), plan);
      } catch (Throwable e) {
        Throwable c = e;
        while (c.getCause() != null && (c instanceof java.lang.reflect.InvocationTargetException || c.getMessage() == null)) c = c.getCause();
        String msg = c.getClass().getSimpleName() + ": " + String.valueOf(c.getMessage()).lines().findFirst().orElse("");
        Files.writeString(out.resolve(id + ".failed"), msg + "\n");
      }
    }
  }

  static byte[] plan(String sql, List<String> ddl) throws Exception {
    Class<?> s2s = Class.forName("io.substrait.isthmus.SqlToSubstrait");
    Object converter = s2s.getConstructor().newInstance();
    for (Method m : s2s.getMethods()) {
      if (m.getName().equals("execute") && m.getParameterCount() == 2 && m.getParameterTypes()[1] == List.class) {
        return toBytes(m.invoke(converter, sql, ddl));
      }
    }
    Class<?> parser = Class.forName("io.substrait.isthmus.sql.SubstraitCreateStatementParser");
    Object catalog = parser.getMethod("processCreateStatementsToCatalog", String[].class)
        .invoke(null, (Object) ddl.toArray(new String[0]));
    Method convert = null;
    for (Method m : s2s.getMethods()) if (m.getName().equals("convert") && m.getParameterCount() == 2) convert = m;
    Object pojo = convert.invoke(converter, sql, catalog);
    Class<?> ppc = Class.forName("io.substrait.plan.PlanProtoConverter");
    Object proto = ppc.getMethod("toProto", Class.forName("io.substrait.plan.Plan")).invoke(ppc.getConstructor().newInstance(), pojo);
    return toBytes(proto);
  }

  static byte[] toBytes(Object proto) throws Exception {
    return (byte[]) proto.getClass().getMethod("toByteArray").invoke(proto);
  }
}
