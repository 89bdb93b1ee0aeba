// A Hadoop cluster in one JVM for tests/platforms/test_yarn.py: HDFS (MiniDFSCluster, one
// NameNode and one DataNode) and YARN (MiniYARNCluster, one ResourceManager and N
// NodeManagers), the mini clusters Hadoop's and Spark's own YARN tests start. Hadoop 3.5.0
// (hadoop-client-minicluster and the shaded client it needs, fetched by dev/cluster/pom.xml).
//
// Run from the folder the cluster's files go in (MiniYARNCluster puts its NodeManagers' local
// and log folders under ./target/), compiled (the test compiles it into
// build/cache/hadoop-minicluster-launcher) or in Java 17's source-file mode:
//
//   java -cp 'build/cache/hadoop-minicluster/*' dev/cluster/MiniClusterMain.java \
//       --conf-dir DIR [--nodemanagers 2] [--nm-memory-mb 2560] [--put LOCAL=HDFS_PATH ...]
//
// It writes core-site.xml, hdfs-site.xml and yarn-site.xml into DIR (a HADOOP_CONF_DIR for
// spark-submit: the addresses of the NameNode and the ResourceManager), copies each --put
// file or folder into HDFS, then prints one line "READY <fs.defaultFS> <RM address>" on stdout
// and runs until its stdin reaches EOF or it gets SIGTERM; either stops YARN (whose
// NodeManagers kill the containers still running; on EOF it waits at most 5 s for that) and
// then HDFS. Hadoop's warnings and errors go to stderr (dev/cluster/log4j.properties, given
// by -Dlog4j.configuration=file:...), and so does an error that stops the launcher.

import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

public class MiniClusterMain {
  private static MiniDFSCluster dfs;
  private static MiniYARNCluster yarn;

  public static void main(String[] args) {
    try {
      run(args);
    } catch (Throwable e) {
      // Hadoop's threads would keep the JVM up: stop what started, say why, exit non-zero.
      e.printStackTrace();
      System.exit(1);   // runs the shutdown hook
    }
  }

  private static void run(String[] args) throws Exception {
    File confDir = null;
    int nodeManagers = 2;
    int nmMemoryMb = 2560;
    List<String[]> puts = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--conf-dir": confDir = new File(args[++i]).getAbsoluteFile(); break;
        case "--nodemanagers": nodeManagers = Integer.parseInt(args[++i]); break;
        case "--nm-memory-mb": nmMemoryMb = Integer.parseInt(args[++i]); break;
        case "--put": {
          String[] pair = args[++i].split("=", 2);
          if (pair.length != 2) throw new IllegalArgumentException("--put LOCAL=HDFS_PATH, got " + args[i]);
          puts.add(pair);
          break;
        }
        default: throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (confDir == null) throw new IllegalArgumentException("--conf-dir DIR is required");
    File work = new File("").getAbsoluteFile();

    // SIGTERM (and any other exit) stops both clusters; stdin's EOF exits, which runs this too.
    Runtime.getRuntime().addShutdownHook(new Thread(MiniClusterMain::stopAll, "mini-cluster-stop"));

    Configuration conf = new YarnConfiguration();
    // --- HDFS: one NameNode and one DataNode, on loopback with ports of the OS's choosing.
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, new File(work, "hdfs").getPath());
    conf.setInt("dfs.replication", 1);
    dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    dfs.waitActive();
    String defaultFs = dfs.getFileSystem().getUri().toString();
    conf.set("fs.defaultFS", defaultFs);

    // --- YARN: small containers (an executor of 512 MB plus Spark's 384 MB overhead is one),
    // so that a Spark application fits on a 2-core test machine.
    conf.setInt(YarnConfiguration.NM_PMEM_MB, nmMemoryMb);
    conf.setInt(YarnConfiguration.NM_VCORES, 4);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, nmMemoryMb);
    // Containers are JVMs with Python workers beside them; their virtual memory is many times
    // their heap, and the physical check would count the Python workers against the executor.
    conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    // A NodeManager whose disk is over 90% full marks it bad and runs nothing: a test machine's
    // disk may well be that full.
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
    // The capacity scheduler (YARN's default, and EMR's) with one queue, "default": Hadoop's
    // capacity-scheduler.xml, which says so, ships in its distribution, not in these jars.
    conf.set("yarn.scheduler.capacity.root.queues", "default");
    conf.setFloat("yarn.scheduler.capacity.root.default.capacity", 100f);
    conf.setFloat("yarn.scheduler.capacity.root.default.maximum-capacity", 100f);
    // The capacity scheduler's default leaves 10% of the cluster to application masters: a
    // cluster-mode driver (the application master) of ~1.2 GB would have to wait.
    conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 0.5f);
    // Containers start at once on any node, without waiting for locality.
    conf.setInt("yarn.scheduler.capacity.node-locality-delay", -1);

    yarn = new MiniYARNCluster("spark-substrait", nodeManagers, 1, 1);
    yarn.init(conf);
    yarn.start();
    Configuration live = yarn.getConfig();
    // The ResourceManager's real port is in its configuration once its server is bound.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (live.get(YarnConfiguration.RM_ADDRESS, "").endsWith(":0")) {
      if (System.nanoTime() > deadline) throw new IllegalStateException("the ResourceManager did not bind a port");
      Thread.sleep(100);
    }
    if (!yarn.waitForNodeManagersToConnect(60_000)) {
      throw new IllegalStateException("the NodeManagers did not register with the ResourceManager");
    }

    FileSystem fs = dfs.getFileSystem();
    for (String[] put : puts) {
      Path target = new Path(put[1]);
      fs.mkdirs(target.getParent());
      fs.copyFromLocalFile(false, true, new Path(new File(put[0]).getAbsolutePath()), target);
    }

    confDir.mkdirs();
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", defaultFs);
    writeSite(new File(confDir, "core-site.xml"), core);
    Map<String, String> hdfs = new LinkedHashMap<>();
    hdfs.put("dfs.replication", "1");   // one DataNode
    writeSite(new File(confDir, "hdfs-site.xml"), hdfs);
    // What a client (spark-submit) and an application master need: where the ResourceManager
    // is, and the scheduler's allocation limits Spark checks its requests against.
    Map<String, String> site = new LinkedHashMap<>();
    for (String key : new String[] {
        YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
        YarnConfiguration.RM_WEBAPP_ADDRESS,
        YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
        YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB}) {
      site.put(key, live.get(key));
    }
    writeSite(new File(confDir, "yarn-site.xml"), site);

    System.out.println("READY " + defaultFs + " " + live.get(YarnConfiguration.RM_ADDRESS));
    System.out.flush();
    // Runs until the test closes our stdin (or its process ends, which closes it too).
    while (System.in.read() != -1) {
      // nothing is read from stdin; it only tells us when to stop
    }
    // Stopped here, not in the shutdown hook, while Hadoop's own hooks are still in place. Once
    // an application has run, MiniYARNCluster's stop waits ~30 s for the NodeManagers to let
    // go of applications whose logs they keep (log aggregation off): the stop gets 5 s, then
    // HDFS stops and the JVM ends regardless (the test kills any container left, by pid).
    Thread stopper = new Thread(MiniClusterMain::stopAll, "mini-cluster-stop-on-eof");
    stopper.setDaemon(true);
    stopper.start();
    stopper.join(TimeUnit.SECONDS.toMillis(5));
    if (stopper.isAlive()) {
      System.err.println("YARN still stopping after 5 s: stopping HDFS and exiting");
      stopHdfs();
    }
    Runtime.getRuntime().halt(0);
  }

  // YARN first: its NodeManagers kill the containers still running, which may be using HDFS.
  // Each part is stopped even when the other fails (during a SIGTERM, HDFS's DataNode may throw
  // as it tries to remove a JVM shutdown hook: the JVM is going anyway).
  private static void stopAll() {
    long started = System.nanoTime();
    MiniYARNCluster stopping;
    synchronized (MiniClusterMain.class) {
      stopping = yarn;
      yarn = null;
    }
    if (stopping != null) {
      try {
        stopping.stop();
        System.err.printf("YARN stopped in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      } catch (Throwable e) {
        System.err.println("stopping YARN: " + e);
      }
    }
    stopHdfs();
  }

  private static void stopHdfs() {
    MiniDFSCluster stopping;
    synchronized (MiniClusterMain.class) {
      stopping = dfs;
      dfs = null;
    }
    if (stopping != null) {
      try {
        stopping.shutdown();
        System.err.println("HDFS stopped");
      } catch (Throwable e) {
        System.err.println("stopping HDFS: " + e);
      }
    }
  }

  private static void writeSite(File file, Map<String, String> properties) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (Map.Entry<String, String> e : properties.entrySet()) {
      xml.append("  <property><name>").append(e.getKey()).append("</name><value>")
          .append(e.getValue()).append("</value></property>\n");
    }
    xml.append("</configuration>\n");
    try (OutputStream out = new FileOutputStream(file)) {
      out.write(xml.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
