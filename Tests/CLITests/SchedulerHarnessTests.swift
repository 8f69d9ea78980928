import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The schedulers batch runs are sharded over, for real: a Slurm cluster of the test's own
/// runs a job array and is gone afterwards, two clusters run side by side, and GNU parallel
/// numbers its jobs. These prove the harness (`SlurmCluster`, `GNUParallel`) the batch tests
/// build on. Serialized: each Slurm test starts daemons, and the machine has 2 cores.
@Suite(.serialized) struct SchedulerHarnessTests {
    /// A job script that writes the array variables Slurm gives each task into `$1/task-<id>`.
    private static let arrayTaskScript = """
        #!/bin/sh
        echo "$SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX" \
            > "$1/task-$SLURM_ARRAY_TASK_ID"

        """

    /// `squeue --noheader` once the queue is empty, or its last answer after `timeout` seconds.
    /// Right after `sbatch --wait` a task may still be listed as CG (completing) for a moment.
    static func emptyQueue(_ cluster: SlurmCluster, timeout: TimeInterval = Patience.generous) throws
        -> TiltboxBinary.Result
    {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let queue = try cluster.command("squeue", ["--noheader"])
            if queue.status != 0 || queue.stdout.isEmpty || Date() > deadline { return queue }
            usleep(200_000)
        }
    }

    @Test func slurmClusterRunsAFourTaskArrayAndLeavesNoDaemonBehind() throws {
        let clock = ContinuousClock()
        let began = clock.now
        let folder: String
        do {
            let cluster = try SlurmCluster()
            folder = cluster.directory.url.path
            let started = clock.now
            let daemons = cluster.daemonProcessIDs
            #expect(daemons.count == 3)
            #expect(daemons.allSatisfy { kill($0, 0) == 0 }, "every daemon runs once the node is idle")

            let results = cluster.directory.url.appendingPathComponent("results", isDirectory: true)
            try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
            let script = try cluster.directory.write("task.sh", Self.arrayTaskScript)
            let submitted = try cluster.sbatch([
                "--wait", "--array=0-3", "--output=slurm-%A_%a.out", script, results.path,
            ])
            #expect(submitted.status == 0, "sbatch: \(submitted.stdout) \(submitted.stderr)\n\(cluster.diagnostics())")
            #expect(submitted.stdout.hasPrefix("Submitted batch job "), "\(submitted.stdout)")
            let ran = clock.now

            let written = try FileManager.default.contentsOfDirectory(atPath: results.path).sorted()
            #expect(written == ["task-0", "task-1", "task-2", "task-3"], "\(cluster.diagnostics())")
            for id in 0..<4 {
                let text = try? String(
                    contentsOfFile: results.appendingPathComponent("task-\(id)").path, encoding: .utf8)
                #expect(
                    text == "\(id) 4 0 3\n",
                    "task \(id) saw SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _MAX as \(text ?? "nothing")")
            }
            let queue = try Self.emptyQueue(cluster)
            #expect(queue.status == 0 && queue.stdout.isEmpty, "the queue empties after --wait: \(queue.stdout)")

            let ports = [cluster.controllerPort, cluster.nodePort]
            cluster.stop()
            let stopped = clock.now
            #expect(daemons.allSatisfy { kill($0, 0) == -1 && errno == ESRCH }, "every daemon is gone after stop")
            #expect(cluster.leftoverProcesses().isEmpty, "no process still names \(folder)")
            #expect(ports.allSatisfy(SlurmCluster.portIsFree), "the cluster's ports \(ports) are free again")
            print("SlurmCluster: start \(started - began), 4-task array \(ran - started), stop \(stopped - ran)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder), "the cluster's folder is removed with it")
    }

    @Test func twoSlurmClustersRunSideBySideWithoutMeeting() throws {
        let first = try SlurmCluster()
        let second = try SlurmCluster()
        #expect(Set([first.controllerPort, first.nodePort, second.controllerPort, second.nodePort]).count == 4)
        #expect(first.configPath != second.configPath && first.mungeSocket != second.mungeSocket)

        // Each cluster has its own state: both number their first job 1, and each job sees its own SLURM_CONF.
        for cluster in [first, second] {
            let script = try cluster.directory.write(
                "job.sh", "#!/bin/sh\necho \"$SLURM_JOB_ID $SLURM_CONF\" > \"$1\"\n")
            let out = cluster.directory.path("job.txt")
            let submitted = try cluster.sbatch(["--wait", "--output=job.log", script, out])
            #expect(submitted.status == 0, "sbatch: \(submitted.stderr)\n\(cluster.diagnostics())")
            let text = try? String(contentsOfFile: out, encoding: .utf8)
            #expect(text == "1 \(cluster.configPath)\n")
        }

        first.stop()
        #expect(first.leftoverProcesses().isEmpty)
        let node = try second.command("sinfo", ["--noheader", "--Node", "--format=%T"])
        #expect(
            node.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "idle",
            "the second cluster still serves after the first stopped: \(node.stdout) \(node.stderr)")
        second.stop()
        #expect(second.leftoverProcesses().isEmpty)
    }

    @Test func aClusterThatCannotStartReportsTheDaemonLogsAndLeavesNothingRunning() throws {
        do {
            _ = try SlurmCluster(timeout: 60, extraConfiguration: "SchedulerType=sched/none-such")
            Issue.record("a cluster with an unknown scheduler plugin started")
        } catch let failure as SlurmCluster.StartFailed {
            #expect(failure.description.contains("slurmctld ended"), "\(failure)")
            #expect(failure.description.contains("--- slurmctld"), "\(failure)")
            #expect(failure.description.contains("sched/none-such"), "slurmctld's own log names the plugin: \(failure)")
            #expect(SlurmCluster.processes(naming: failure.folder).isEmpty, "no daemon of \(failure.folder) runs")
        }
    }

    @Test func gnuParallelRunsFourJobsEachWithItsSequenceNumber() throws {
        let result = try GNUParallel.run(["-j", "2", "echo {} $PARALLEL_SEQ", ":::", "a", "b", "c", "d"])
        #expect(result.status == 0, "parallel: \(result.stderr)")
        // Jobs print as they finish: the order of lines is not fixed, the pairs are.
        #expect(result.stdoutLines.sorted() == ["a 1", "b 2", "c 3", "d 4"], "parallel printed \(result.stdout)")
        #expect(result.stderr.isEmpty, "no citation notice or warning: \(result.stderr)")
    }

    @Test func gnuParallelReportsHowManyJobsFailed() throws {
        let result = try GNUParallel.run(["-j", "2", "exit {}", ":::", "0", "3", "0", "5"])
        #expect(result.status == 2, "GNU parallel's status is the number of failed jobs")
    }
}
