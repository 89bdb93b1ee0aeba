// spark-substrait: a Spark SQL extension that turns Substrait plans into Catalyst plans.
//
// Spark is a provided dependency. Its jars come from the pinned PySpark distribution
// (build/spark-jars explains why); build/sbt exports their folder as SPARK_JARS_DIR.

// The Spark to build against: $SPARK_VERSION (set by build/sbt, e.g. `SPARK_VERSION=3.5.9
// build/sbt jvm/test`), by default the pinned pyspark of requirements-test.txt. Each Spark
// minor version gets its own jar, Scala version and target folder (dev/test-matrix builds
// them all); what differs between versions lives in src/main/spark-<major>[.<minor>]/.
val pinnedSparkVersion = IO.readLines(file("requirements-test.txt"))
  .collectFirst { case line if line.trim.startsWith("pyspark==") => line.trim.stripPrefix("pyspark==") }
  .getOrElse(sys.error("requirements-test.txt must pin pyspark==<version>"))
val sparkVersion = sys.env.get("SPARK_VERSION").map(_.trim).filter(_.nonEmpty).getOrElse(pinnedSparkVersion)
val sparkMajor = sparkVersion.split('.').head
val sparkMinorVersion = sparkVersion.split('.').take(2).mkString(".")
// Spark 3.5 is published for Scala 2.12 (PySpark 3.5 ships 2.12.18, with scala-collection-compat), Spark 4 for Scala 2.13 only.
val scalaForSpark = if (sparkMajor == "3") "2.12.18" else "2.13.18"
val scalaBinary = scalaForSpark.split('.').take(2).mkString(".")
// isthmus (SQL to Substrait), a test-time producer only: the product decodes plans with
// message classes of its own (project/SubstraitProtos.scala).
val isthmusVersion = "0.89.1"
// The pinned Substrait spec release (build/substrait-spec.version; build/sbt exports where
// build/substrait-spec fetched it), and protoc to generate our message classes from it.
val substraitSpecVersion = IO.read(file("build/substrait-spec.version")).trim
val protocVersion = "3.25.9"
val ProtocTool = config("protoc").hide
// protoc's Maven Central artifacts are named by platform (os-arch), as Maven's os plugin names them.
val protocClassifier = {
  val os = sys.props("os.name").toLowerCase match {
    case n if n.contains("linux") => "linux"
    case n if n.contains("mac") => "osx"
    case n if n.contains("windows") => "windows"
    case n => sys.error(s"no protoc on Maven Central for OS $n")
  }
  val arch = sys.props("os.arch") match {
    case "amd64" | "x86_64" => "x86_64"
    case "aarch64" | "arm64" => "aarch_64"
    case a => sys.error(s"no protoc on Maven Central for architecture $a")
  }
  s"$os-$arch"
}

// Version-specific source folders under src/main and src/test: spark-<major> (e.g. spark-4),
// spark-<from>+ (that minor version and later, same major: spark-4.1+) and spark-<from>-<to>
// (an inclusive range across majors: spark-3.5-4.0).
def versionSourceDirs(base: File): Seq[File] = {
  def num(v: String): (Int, Int) = { val p = v.split('.'); (p(0).toInt, p(1).toInt) }
  val ours = num(sparkMinorVersion)
  val ord = Ordering[(Int, Int)]
  val Major = """spark-(\d+)""".r
  val From = """spark-(\d+\.\d+)\+""".r
  val Range = """spark-(\d+\.\d+)-(\d+\.\d+)""".r
  Option(base.listFiles).toSeq.flatten.filter(_.isDirectory).filter(_.getName match {
    case Major(m) => m.toInt == ours._1
    case From(v) => num(v)._1 == ours._1 && ord.gteq(ours, num(v))
    case Range(a, b) => ord.gteq(ours, num(a)) && ord.lteq(ours, num(b))
    case _ => false
  }).map(_ / "scala").sortBy(_.getPath)
}

val olderThanOurs = if (sparkMajor == "3") Seq("gson-", "guava-") else Nil

val sparkJarsDir = settingKey[File]("Folder holding the provided Spark jars")
val substraitSpecDir = settingKey[File]("Folder holding the pinned Substrait spec release (build/substrait-spec)")
val protocBinary = taskKey[File]("protoc, from Maven Central")
val connectProto =
  taskKey[(Seq[File], File)]("The Spark Connect message classes and descriptor set (project/ConnectProto.scala)")

// Spark 4 on Java 17 needs these module openings at run time (same list as Spark's own
// launcher scripts use); tests fork a JVM with them.
val sparkJavaOptions = Seq(
  "java.base/java.lang", "java.base/java.lang.invoke", "java.base/java.lang.reflect",
  "java.base/java.io", "java.base/java.net", "java.base/java.nio", "java.base/java.util",
  "java.base/java.util.concurrent", "java.base/java.util.concurrent.atomic",
  "java.base/jdk.internal.ref", "java.base/sun.nio.ch", "java.base/sun.nio.cs",
  "java.base/sun.security.action", "java.base/sun.util.calendar"
).map(p => s"--add-opens=$p=ALL-UNNAMED") ++ Seq(
  "-Djdk.reflect.useDirectMethodHandle=false",
  "-Dio.netty.tryReflectionSetAccessible=true"
)

lazy val jvm = (project in file("jvm"))
  .settings(
    name := "spark-substrait",
    // One artifact per Spark minor version: io.sparksubstrait:spark-substrait-spark35_2.12, …
    moduleName := s"spark-substrait-spark${sparkMinorVersion.replace(".", "")}",
    organization := "io.sparksubstrait",
    version := "0.1.0",
    scalaVersion := scalaForSpark,
    // One target folder per Spark minor version, so switching versions never recompiles the other.
    target := baseDirectory.value / "target" / s"spark-$sparkMinorVersion",
    // Version-specific sources: spark-4 holds what every 4.x shares, spark-4.1+ what 4.1 and later share.
    Compile / unmanagedSourceDirectories ++= versionSourceDirs((Compile / sourceDirectory).value),
    Test / unmanagedSourceDirectories ++= versionSourceDirs((Test / sourceDirectory).value),
    javacOptions ++= Seq("--release", "17"),
    scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature", "-unchecked",
      // Legacy Substrait fields are deprecated in the proto, and reading them is the point.
      "-Wconf:cat=deprecation&origin=io\\.sparksubstrait\\.proto\\..*:s",
      "-Wconf:cat=deprecation&origin=io\\.substrait\\.proto\\..*:s") ++
      // The linter of the Scala code: an unused import, private member or local is a compile error
      // (Scala 2.13, the Spark 4 builds; 2.12's flags differ and the same sources are checked here).
      // The runtime's `final class X private ()` only holds static forwarders for generated code.
      (if (scalaBinaryVersion.value == "2.13")
         Seq("-Wunused:imports,privates,locals", "-Wconf:cat=unused:e", "-Wconf:msg=private constructor.*:s")
       else Nil),

    sparkJarsDir := file(sys.env.getOrElse("SPARK_JARS_DIR",
        sys.error("SPARK_JARS_DIR is not set: run sbt through build/sbt"))),
    substraitSpecDir := file(sys.env.getOrElse("SUBSTRAIT_SPEC_DIR",
        sys.error("SUBSTRAIT_SPEC_DIR is not set: run sbt through build/sbt"))),
    // Our message classes, generated into target/ from the pinned spec release's descriptors.
    ivyConfigurations += ProtocTool,
    protocBinary :=
      update.value.select(configurationFilter(ProtocTool.name)).headOption
        .getOrElse(sys.error(s"protoc $protocVersion ($protocClassifier) did not resolve from Maven Central")),
    Compile / sourceGenerators += Def.task {
      SubstraitProtos.generate(substraitSpecDir.value, substraitSpecVersion, protocBinary.value,
        (Compile / sourceManaged).value / "substrait", streams.value.log)
    }.taskValue,
    // The Spark Connect messages: classes for the JVM, the descriptor set for the Python client.
    connectProto := ConnectProto.generate((ThisBuild / baseDirectory).value, protocBinary.value,
      (Compile / sourceManaged).value / "connect", (Compile / resourceManaged).value, streams.value.log),
    Compile / sourceGenerators += Def.task(connectProto.value._1).taskValue,
    Compile / resourceGenerators += Def.task(Seq(connectProto.value._2)).taskValue,
    // Provided: on the compile and test classpaths, never in the assembly.
    // Spark 3.5 ships libraries older than ours (gson 2.2, guava 14): the jar relocates ours,
    // so Spark keeps its own at run time, but on the test classpath ours must win.
    Compile / unmanagedJars ++= (sparkJarsDir.value ** "*.jar").classpath
      .filterNot(jar => olderThanOurs.exists(jar.data.getName.startsWith)),

    libraryDependencies ++= Seq(
      ("com.google.protobuf" % "protobuf-java-util" % "3.25.9")
        // Annotation-only jars: not needed at run time.
        .exclude("com.google.code.findbugs", "jsr305")
        .exclude("com.google.errorprone", "error_prone_annotations")
        .exclude("com.google.j2objc", "j2objc-annotations")
        .exclude("org.checkerframework", "checker-qual"),
      // User extension YAMLs and mapping files (docs/extending.md); bundled and relocated.
      "org.yaml" % "snakeyaml" % "2.5",
      ("com.google.protobuf" % "protoc" % protocVersion % ProtocTool)
        .artifacts(Artifact("protoc", "exe", "exe", protocClassifier)),
      "org.scalatest" %% "scalatest" % "3.2.19" % Test,
      // The architecture tests (ArchitectureSuite): the stages' direction, on the compiled classes.
      "com.tngtech.archunit" % "archunit" % "1.5.1" % Test,
      ("io.substrait" % "isthmus" % isthmusVersion % Test)
        .exclude("org.slf4j", "slf4j-api")
        .exclude("org.slf4j", "slf4j-simple")
    ),

    Compile / resourceGenerators += Def.task {
      val out = (Compile / resourceManaged).value / "io" / "sparksubstrait" / "version.properties"
      IO.write(out,
        s"version=${version.value}\nsparkVersion=$sparkVersion\nsubstraitSpecVersion=$substraitSpecVersion\n")
      Seq(out)
    }.taskValue,
    // The option values each standard function allows, from the pinned spec's YAMLs.
    Compile / resourceGenerators += Def.task {
      FunctionOptionDomains.generate(substraitSpecDir.value / "extensions",
        (Compile / resourceManaged).value / "io" / "sparksubstrait" / "function-options.tsv")
    }.taskValue,

    Test / fork := true,
    Test / javaOptions ++= sparkJavaOptions ++ Seq("-Xmx3g", "-Xss8m"),
    Test / parallelExecution := false,
    Test / testOptions += Tests.Argument(TestFrameworks.ScalaTest, "-oD"),
    // SUBSTRAIT_SKIP_SUITES=A,B leaves the suites of those simple names out of jvm/test: dev/test
    // runs the oldest Spark's pinned subset so (dev/test-matrix runs every suite on every line).
    Test / testOptions ++= sys.env.get("SUBSTRAIT_SKIP_SUITES").toSeq.map { names =>
      val skipped = names.split(",").map(_.trim).filter(_.nonEmpty).toSet
      Tests.Filter(suite => !skipped(suite.split('.').last))
    },
    Test / baseDirectory := (ThisBuild / baseDirectory).value,

    assembly / assemblyJarName := s"${moduleName.value}_$scalaBinary-${version.value}.jar",
    // What `publish` / `publishM2` publish, for `spark-submit --packages`: the relocated
    // assembly as the main artifact, with no dependencies in its POM (Spark is provided, the
    // rest is inside).
    Compile / packageBin / publishArtifact := false,
    assembly / artifact := (assembly / artifact).value.withClassifier(None),
    addArtifact(assembly / artifact, assembly),
    pomPostProcess := { (pom: scala.xml.Node) =>
      new scala.xml.transform.RuleTransformer(new scala.xml.transform.RewriteRule {
        override def transform(n: scala.xml.Node): Seq[scala.xml.Node] =
          if (n.label == "dependencies") Nil else n
      }).transform(pom).head
    },
    // Every version's jar in one folder: the wheel bundles them all (setup.py).
    assembly / assemblyOutputPath := baseDirectory.value / "target" / "jars" / (assembly / assemblyJarName).value,
    assembly / assemblyOption ~= (_.withIncludeScala(false)),
    // Every jar of the Spark folder, its subfolders too: jars/connect-repl holds the Spark
    // Connect JVM client (org.apache.spark classes) and the Ammonite REPL.
    assembly / assemblyExcludedJars := {
      val spark = sparkJarsDir.value.getCanonicalFile.toPath
      (assembly / fullClasspath).value.filter(_.data.getCanonicalFile.toPath.startsWith(spark))
    },
    // Everything bundled that Spark or a user might also carry is relocated.
    assembly / assemblyShadeRules := Seq(
      "com.google.protobuf.**" -> "io.sparksubstrait.shaded.protobuf.@1",
      "io.substrait.**" -> "io.sparksubstrait.shaded.substrait.@1",
      "com.fasterxml.jackson.**" -> "io.sparksubstrait.shaded.jackson.@1",
      "org.yaml.snakeyaml.**" -> "io.sparksubstrait.shaded.snakeyaml.@1",
      "org.antlr.**" -> "io.sparksubstrait.shaded.antlr.@1",
      "org.jspecify.**" -> "io.sparksubstrait.shaded.jspecify.@1",
      "com.google.common.**" -> "io.sparksubstrait.shaded.guava.@1",
      "com.google.thirdparty.**" -> "io.sparksubstrait.shaded.guava.thirdparty.@1",
      "com.google.gson.**" -> "io.sparksubstrait.shaded.gson.@1",
      "com.google.errorprone.**" -> "io.sparksubstrait.shaded.errorprone.@1"
    ).map { case (from, to) => ShadeRule.rename(from -> to).inAll },
    assembly / assemblyMergeStrategy := {
      case PathList("META-INF", "services", _*) => MergeStrategy.concat
      case PathList("META-INF", "versions", _, "module-info.class") => MergeStrategy.discard
      case "module-info.class" => MergeStrategy.discard
      case PathList("META-INF", xs @ _*)
          if xs.lastOption.exists(n => n.endsWith(".SF") || n.endsWith(".DSA") || n.endsWith(".RSA")) =>
        MergeStrategy.discard
      case PathList("META-INF", "MANIFEST.MF") => MergeStrategy.discard
      case x if x.endsWith(".proto") => MergeStrategy.first
      case x => (assembly / assemblyMergeStrategy).value(x)
    }
  )

lazy val root = (project in file("."))
  .aggregate(jvm)
  .settings(publish / skip := true)

// The formatter (.scalafmt.conf, project/ScalaFormat.scala): `sbt scalaFormat` rewrites,
// `sbt scalaFormatCheck` fails on any file it would change (dev/lint).
val scalaFormat = taskKey[Unit]("Formats every Scala source of the project (.scalafmt.conf)")
val scalaFormatCheck = taskKey[Unit]("Fails if a Scala source of the project is not formatted")
scalaFormat := ScalaFormat.run((ThisBuild / baseDirectory).value, check = false, streams.value.log)
scalaFormatCheck := {
  val bad = ScalaFormat.run((ThisBuild / baseDirectory).value, check = true, streams.value.log)
  if (bad.nonEmpty) throw new MessageOnlyException(s"${bad.size} Scala files are not formatted: run dev/format")
}

// Benchmarks (bench/run, docs/performance.md): not aggregated by root, so `jvm/test` and the
// jar never see them. They reuse the test helpers (isthmus, TpchSchema, PlanIdentity).
// The benchmark JVM's heap, BENCH_XMX (default 4g), fixed: with a growable heap G1 shrinks it
// after the full collection before each timed execution and regrows it during that execution,
// which moved single-query times by up to 2x between repetitions.
// Its JIT code cache at the JVM's largest (2 GB, default 240 MB): a whole TPC-DS run keeps every
// generated class (QueryBench), and the C2 half of the default cache was full after 18 minutes
// (jcmd Compiler.codecache). From then on a side whose generated code differs from the SQL's
// (most producers' plans) could not have it compiled, while the SQL side run twice shares its
// code: DuckDB q31 ran 2.85x its SQL in a whole run, 1.07x in a run of two queries (2.05x in a
// whole run with this cache: the rest was its code compiled again on most executions, which
// QueryBench's session setting spark.sql.codegen.useIdInClassName=false ends; docs/tpcds.md).
lazy val benchHeap = {
  val size = sys.env.getOrElse("BENCH_XMX", "4g")
  Seq(s"-Xms$size", s"-Xmx$size", "-XX:+AlwaysPreTouch", "-XX:ReservedCodeCacheSize=2g")
}

lazy val bench = (project in file("bench"))
  .dependsOn(jvm % "compile->compile;compile->test")
  .settings(
    scalaVersion := "2.13.18",
    // One target folder per Spark minor version, as jvm's (bench/run --anchor runs on Spark 4.0).
    target := baseDirectory.value / "target" / s"spark-$sparkMinorVersion",
    scalacOptions ++= Seq("-release", "17", "-deprecation", "-feature"),
    Compile / unmanagedJars ++= (jvm / sparkJarsDir).value.**("*.jar").classpath,
    run / fork := true,
    // The JVM default thread stack: the scaling bench runs deep plans on a thread of its own.
    run / javaOptions ++= sparkJavaOptions ++ benchHeap,
    run / baseDirectory := (ThisBuild / baseDirectory).value,
    run / outputStrategy := Some(StdoutOutput)
  )

// The TPC-H benchmark's anchor (bench/run tpch --anchor, docs/performance.md): substrait-java's
// Spark module (io.substrait.spark.logical.ToLogicalPlan), a benchmark peer only. It is not on
// Maven Central: bench/anchor/build extracts its sources from a substrait-java git checkout into
// the ignored bench/anchor/cache/ and compiles them here, on Spark 4.0 (its spark-4.0 variant),
// with substrait-java's core from isthmus (the same release, isthmusVersion). Without that folder
// this project has no sources at all; nothing aggregates it, so the jar and jvm/test never see it.
val anchorSources = settingKey[File]("substrait-java's Spark module's sources, as bench/anchor/build extracts them")
lazy val benchAnchor = (project in file("bench/anchor"))
  .dependsOn(bench)
  .settings(
    scalaVersion := "2.13.18",
    target := baseDirectory.value / "target" / s"spark-$sparkMinorVersion",
    scalacOptions ++= Seq("-release", "17", "-nowarn"),
    anchorSources := baseDirectory.value / "cache" / "substrait-java" / "spark" / "src" / "main",
    Compile / unmanagedSourceDirectories := {
      val src = anchorSources.value
      if (src.isDirectory) Seq((Compile / scalaSource).value, src / "scala", src / "spark-4.0") else Nil
    },
    Compile / unmanagedResourceDirectories := {
      val src = anchorSources.value
      if (src.isDirectory) Seq(src / "resources") else Nil
    },
    Compile / unmanagedJars ++= (jvm / sparkJarsDir).value.**("*.jar").classpath,
    run / fork := true,
    run / javaOptions ++= sparkJavaOptions ++ benchHeap,
    run / baseDirectory := (ThisBuild / baseDirectory).value,
    run / outputStrategy := Some(StdoutOutput)
  )
