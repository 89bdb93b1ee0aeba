package io.sparksubstrait.bench

import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted}
import org.apache.spark.sparksubstraitbench.ListenerBusWait
import org.apache.spark.sql.SparkSession

/**
 * What each stage of one execution did, from Spark's task metrics summed per stage: rows read
 * from files, rows shuffled in and out, executor time and tasks. Two plans with the same
 * operators can still differ here, which is where a gap between them is: DataFusion's TPC-DS q64
 * shuffled 2.6 million store_sales rows where the SQL's plan shuffled 262 thousand (a join moved
 * below the one that filters them); for q13 the store_sales stage ran twice as long on the same
 * rows (a join order).
 */
private[bench] object StageWork {
  final case class Stage(inputRows: Long, shuffleReadRows: Long, shuffleWriteRows: Long, runMs: Long, tasks: Int) {
    override def toString: String =
      f"in $inputRows%,d  shuffle read $shuffleReadRows%,d  shuffle write $shuffleWriteRows%,d  run $runMs%,d ms  tasks $tasks"
  }

  /** The stages `action` ran (skipped and failed ones aside), largest input first. */
  def of(spark: SparkSession)(action: => Unit): Seq[Stage] = {
    val done = new ConcurrentLinkedQueue[Stage]()
    val listener = new SparkListener {
      override def onStageCompleted(e: SparkListenerStageCompleted): Unit = {
        val info = e.stageInfo
        Option(info.taskMetrics).filter(_ => info.failureReason.isEmpty).foreach { m =>
          done.add(Stage(m.inputMetrics.recordsRead, m.shuffleReadMetrics.recordsRead,
              m.shuffleWriteMetrics.recordsWritten, m.executorRunTime, info.numTasks))
        }
      }
    }
    // Earlier actions' events out of the way first.
    ListenerBusWait(spark.sparkContext)
    spark.sparkContext.addSparkListener(listener)
    try {
      action
      ListenerBusWait(spark.sparkContext)
    } finally spark.sparkContext.removeSparkListener(listener)
    done.asScala.toSeq.sortBy(s => (-s.inputRows, -s.shuffleReadRows, -s.shuffleWriteRows))
  }
}
