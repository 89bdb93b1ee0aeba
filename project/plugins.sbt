addSbtPlugin("com.eed3si9n" % "sbt-assembly" % "2.3.1")

// The build reads the spec's descriptors and merges legacy fields into them before protoc
// generates our message classes (project/SubstraitProtos.scala).
libraryDependencies += "com.google.protobuf" % "protobuf-java" % "3.25.9"

// The build reads the spec's extension YAMLs for the option values each function allows
// (project/FunctionOptionDomains.scala).
libraryDependencies += "org.yaml" % "snakeyaml" % "2.5"

// The Scala formatter, run over every Scala source of the project by `sbt scalaFormat` /
// `scalaFormatCheck` (project/ScalaFormat.scala; dev/lint checks).
libraryDependencies += "org.scalameta" %% "scalafmt-core" % "3.11.1"
