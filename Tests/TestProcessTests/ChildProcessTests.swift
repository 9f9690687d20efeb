import Foundation
import Glibc
import Testing
@testable import TestProcess

/// The test launcher against ordinary programs (`/bin/sh`, `cat`, `env`): exit statuses,
/// signals, the three standard streams, the environment and start failures.
@Suite struct ChildProcessTests {
    /// Runs `script` with `/bin/sh -c`.
    private static func shell(_ script: String, input: [UInt8] = [], standardError: ChildProcess.Output = .pipe) throws -> ChildProcess.Outcome {
        try ChildProcess.run("/bin/sh", ["-c", script], input: input, standardError: standardError)
    }

    @Test func reportsTheExitCode() throws {
        #expect(try Self.shell("exit 0").termination == .exited(0))
        #expect(try Self.shell("exit 3").termination == .exited(3))
        #expect(try Self.shell("exit 255").termination == .exited(255))
    }

    @Test func reportsTheSignalThatEndedTheChild() throws {
        let child = try ChildProcess("/bin/cat", standardInput: .pipe, standardOutput: .nullDevice)
        // cat blocks reading the pipe the test holds open, so it is still running.
        #expect(child.isRunning)
        #expect(child.termination == nil)
        child.send(SIGTERM)
        #expect(child.waitForExit() == .signaled(SIGTERM))
        #expect(child.termination == .signaled(SIGTERM))
        #expect(!child.isRunning)
        #expect(child.waitForExit().status == SIGTERM)
    }

    @Test func signalsAfterTheChildWasReapedAreIgnored() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "exit 7"])
        #expect(child.waitForExit() == .exited(7))
        child.send(SIGKILL)
        #expect(child.termination == .exited(7))
    }

    @Test func theChildDiesOfSIGTERMEvenWhenTheLaunchingThreadBlocksIt() throws {
        let launcher = try BackgroundThread(for: "test") { () -> Result<ChildProcess, any Error> in
            var terminate = sigset_t()
            sigemptyset(&terminate)
            sigaddset(&terminate, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &terminate, nil)
            return Result { try ChildProcess("/bin/cat", standardInput: .pipe, standardOutput: .nullDevice) }
        }
        let child = try launcher.join().get()
        child.send(SIGTERM)
        #expect(child.waitForExit() == .signaled(SIGTERM))
    }

    @Test func concurrentWaitersAllSeeTheSameTermination() throws {
        let child = try ChildProcess("/bin/cat", standardInput: .pipe, standardOutput: .nullDevice)
        let waiters = try (0..<4).map { _ in try BackgroundThread(for: "test") { child.waitForExit() } }
        child.standardInput?.close()
        for waiter in waiters { #expect(waiter.join() == .exited(0)) }
    }

    @Test func aReleasedChildIsKilledAndReaped() throws {
        var child: ChildProcess? = try ChildProcess("/bin/cat", standardInput: .pipe, standardOutput: .nullDevice)
        let pid = try #require(child?.processIdentifier)
        child = nil
        // Neither running nor a zombie: the ID no longer names a process of ours.
        #expect(waitpid(pid, nil, WNOHANG) == -1 && errno == ECHILD)
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["1", "2"])
    func drainsLargeOutputOnBothStreamsWhicheverComesFirst(firstStream: String) throws {
        // 1 MiB on each stream, one after the other: far more than a pipe holds, so reading the
        // streams one at a time would leave the child blocked on the other.
        let second = firstStream == "1" ? "2" : "1"
        let outcome = try Self.shell("head -c 1048576 /dev/zero >&\(firstStream); head -c 1048576 /dev/zero | tr '\\0' x >&\(second)")
        #expect(outcome.termination == .exited(0))
        let (first, then) = firstStream == "1" ? (outcome.standardOutput, outcome.standardError) : (outcome.standardError, outcome.standardOutput)
        #expect(first == [UInt8](repeating: 0, count: 1_048_576))
        #expect(then == [UInt8](repeating: UInt8(ascii: "x"), count: 1_048_576))
    }

    @Test(.timeLimit(.minutes(1)))
    func feedsLargeInputWhileReadingLargeOutput() throws {
        // cat writes back while it reads: the input is only fully written if the output is read meanwhile.
        let input = (0..<(2 * 1_048_576)).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let outcome = try ChildProcess.run("/bin/cat", input: input)
        #expect(outcome.termination == .exited(0))
        #expect(outcome.standardOutput == input)
    }

    @Test func aChildThatStopsReadingItsInputIsNotAnError() throws {
        let outcome = try Self.shell("exit 4", input: [UInt8](repeating: 1, count: 1_048_576))
        #expect(outcome.termination == .exited(4))
    }

    @Test(.timeLimit(.minutes(1)))
    func writingToAChildThatClosedItsInputThrowsEPIPE() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "exec 0<&-; echo closed; exec cat /dev/null"], standardInput: .pipe, standardOutput: .pipe)
        #expect(try child.standardOutput?.readLine() == "closed")
        #expect(child.waitForExit() == .exited(0))
        // A child that another test spawns at the same moment holds a copy of every descriptor
        // until its exec closes them, the pipe's read end included, and while it does a write
        // succeeds. Writing more than a pipe holds blocks until no reader is left, then fails.
        let chunk = [UInt8](repeating: 1, count: 4_096)
        let error = try #require(throws: ChildProcessError.self) {
            for _ in 0..<256 { try child.standardInput?.write(chunk) }
        }
        #expect(error.code == EPIPE)
    }

    @Test func mergesStandardErrorIntoStandardOutputInOrder() throws {
        let outcome = try Self.shell("echo one; echo two >&2; echo three", standardError: .standardOutput)
        #expect(outcome.output == "one\ntwo\nthree\n")
        #expect(outcome.standardError.isEmpty)
    }

    @Test func readsLinesOneAtATimeAndAnUnterminatedLastLine() throws {
        let child = try ChildProcess("/bin/sh", ["-c", "printf 'first\\n\\nthird\\nrest'"], standardOutput: .pipe)
        let output = try #require(child.standardOutput)
        #expect(try output.readLine() == "first")
        #expect(try output.readLine() == "")
        #expect(try output.readLine() == "third")
        #expect(try output.readLine() == "rest")
        #expect(try output.readLine() == nil)
        #expect(child.waitForExit() == .exited(0))
    }

    @Test func passesTheEnvironmentExactlyAsGiven() throws {
        let outcome = try ChildProcess.run("/usr/bin/env", environment: ["ONLY": "this one", "EMPTY": ""])
        #expect(Set(outcome.output.split(separator: "\n")) == ["ONLY=this one", "EMPTY="])
    }

    @Test func theInheritedEnvironmentTakesOverrides() throws {
        setenv("HEARTH_CHILD_PROCESS_TEST", "inherited", 1)
        let inherited = ChildProcess.inheritedEnvironment(overriding: ["HEARTH_CHILD_PROCESS_OVERRIDE": "added"])
        #expect(inherited["HEARTH_CHILD_PROCESS_TEST"] == "inherited")
        #expect(inherited["HEARTH_CHILD_PROCESS_OVERRIDE"] == "added")
        #expect(inherited["PATH"] == String(cString: getenv("PATH")))
        let replaced = ChildProcess.inheritedEnvironment(overriding: ["HEARTH_CHILD_PROCESS_TEST": "replaced"])
        #expect(replaced["HEARTH_CHILD_PROCESS_TEST"] == "replaced")
    }

    @Test func feedsStandardInputAndReadsItBack() throws {
        let outcome = try Self.shell("read line; echo \"got $line\"; echo done >&2", input: Array("hello\n".utf8))
        #expect(outcome.output == "got hello\n")
        #expect(outcome.errors == "done\n")
    }

    @Test func withoutInputStandardInputIsEmpty() throws {
        #expect(try ChildProcess.run("/bin/cat").standardOutput.isEmpty)
    }

    @Test func redirectsToAndFromFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in").path
        let output = directory.appendingPathComponent("out").path
        let errors = directory.appendingPathComponent("err").path
        try "from a file\n".write(toFile: input, atomically: true, encoding: .utf8)
        let child = try ChildProcess(
            "/bin/sh", ["-c", "cat; echo oops >&2"], standardInput: .file(input), standardOutput: .file(output), standardError: .file(errors))
        #expect(child.waitForExit() == .exited(0))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "from a file\n")
        #expect(try String(contentsOfFile: errors, encoding: .utf8) == "oops\n")
    }

    @Test func findsABareNameOnThePathOnlyWhenAsked() throws {
        #expect(try ChildProcess.run("sh", ["-c", "echo found"], searchPath: true).output == "found\n")
        let error = try #require(throws: ChildProcessError.self) { try ChildProcess.run("sh", ["-c", "exit 0"]) }
        #expect(error.code == ENOENT)
    }

    @Test func aMissingExecutableIsAClearError() throws {
        let error = try #require(throws: ChildProcessError.self) { try ChildProcess("/no/such/program", standardOutput: .pipe) }
        #expect(error.code == ENOENT)
        #expect(error.operation == "posix_spawn")
        #expect(error.description == "/no/such/program: posix_spawn failed: No such file or directory")
        let searched = try #require(throws: ChildProcessError.self) { try ChildProcess("no-such-program-anywhere", searchPath: true) }
        #expect(searched.description == "no-such-program-anywhere: posix_spawnp failed: No such file or directory")
    }

    @Test func anUnopenableRedirectionIsAClearError() throws {
        let error = try #require(throws: ChildProcessError.self) { try ChildProcess("/bin/true", standardInput: .file("/no/such/input")) }
        #expect(error.code == ENOENT)
    }

    @Test func theChildInheritsNoDescriptorButItsStandardStreams() throws {
        // A descriptor the test opened without close-on-exec stays out of the child.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let outcome = try Self.shell("ls /proc/self/fd")
        // 0, 1, 2 and the descriptor ls opens to list the folder.
        #expect(outcome.output.split(separator: "\n").count == 4)
    }
}
