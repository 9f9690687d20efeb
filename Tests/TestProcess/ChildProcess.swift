import CSystem
import Glibc
import Synchronization

/// A program a test starts and waits for: the `hearth` binary, a Python peer or oracle, tmux.
///
/// Built on `posix_spawn` and `waitpid` alone. Foundation's `Process` watches its children
/// with a libdispatch `SIGCHLD` source, which was seen to crash (signal 11 in
/// `_dispatch_event_loop_drain`) under the load of a full test run; nothing here installs a
/// signal handler or uses Dispatch.
///
/// The child starts with an empty signal mask and every signal at its default action, whatever
/// the launching thread blocks or the test process ignores, so `SIGTERM` and `SIGPIPE` act on
/// it as in a shell. It inherits no descriptor but its three standard streams (everything from
/// descriptor 3 up is closed before exec), so it cannot hold another child's pipe or a test's
/// socket open. A child whose handle is released while it runs is killed (`SIGKILL`) and reaped:
/// no test leaves a process or a zombie behind.
///
/// ```swift
/// let child = try ChildProcess("cat", searchPath: true, standardInput: .pipe, standardOutput: .pipe)
/// try child.standardInput?.write(Array("hi\n".utf8))
/// let line = try child.standardOutput?.readLine()  // "hi"
/// child.standardInput?.close()
/// #expect(child.waitForExit() == .exited(0))
/// ```
///
/// To run a program to completion with its output captured, use ``run(_:_:environment:searchPath:input:standardError:)``.
public final class ChildProcess: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// The test process's own standard input.
        case inherit
        /// `/dev/null`: the child reads end of file at once.
        case nullDevice
        /// The file at this path, opened for reading.
        case file(String)
        /// A new pipe; the test writes to it through ``ChildProcess/standardInput``.
        case pipe
    }

    /// Where the child's standard output or standard error goes.
    public enum Output: Sendable {
        /// The test process's own stream.
        case inherit
        /// `/dev/null`.
        case nullDevice
        /// The file at this path, created if needed and truncated.
        case file(String)
        /// A new pipe; the test reads it through ``ChildProcess/standardOutput`` or ``ChildProcess/standardError``.
        case pipe
        /// Standard error only: wherever standard output goes (`2>&1`), so the two interleave as
        /// on a terminal.
        case standardOutput
    }

    /// The child's process ID; it stays the child's (never reused) until the child is reaped.
    public let processIdentifier: pid_t
    /// The program as given to `init`.
    public let executable: String
    /// The write end of the child's standard input when it is ``Input/pipe``, else nil.
    public let standardInput: PipeWriter?
    /// The read end of the child's standard output when it is ``Output/pipe``, else nil.
    public let standardOutput: PipeReader?
    /// The read end of the child's standard error when it is ``Output/pipe``, else nil.
    public let standardError: PipeReader?

    /// How the child ended, once it has been reaped. Only ever set with the lock held, and the
    /// child is only reaped with the lock held, so a signal sent under the lock can never
    /// reach a recycled process ID.
    private let reaped = Mutex<Termination?>(nil)

    /// Starts `executable` with `arguments` (its `argv[1...]`; `argv[0]` is `executable`).
    ///
    /// - Parameters:
    ///   - executable: a path; with `searchPath`, a bare name is looked up in the `PATH` of the
    ///     test process (not of `environment`), like `execvp`.
    ///   - environment: the child's whole environment; see ``inheritedEnvironment(overriding:)``.
    ///   - standardInput: `/dev/null` unless asked otherwise, so no test reads the terminal.
    /// - Throws: `ChildProcessError` when the child cannot be started: the executable is missing
    ///   (`ENOENT`) or not executable (`EACCES`), a redirection file cannot be opened.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = inheritedEnvironment(),
        searchPath: Bool = false, standardInput: Input = .nullDevice, standardOutput: Output = .inherit,
        standardError: Output = .inherit
    ) throws {
        self.executable = executable
        let plan = try SpawnPlan(executable: executable)
        // Should anything below throw, the plan's deinitialiser closes the pipes made so far.
        let input = try plan.redirect(standardInput, to: STDIN_FILENO)
        let output = try plan.redirect(standardOutput, to: STDOUT_FILENO)
        let errors = try plan.redirect(standardError, to: STDERR_FILENO)
        processIdentifier = try plan.spawn(arguments: [executable] + arguments, environment: environment, searchPath: searchPath)
        self.standardInput = input.map { PipeWriter(descriptor: $0, executable: executable) }
        self.standardOutput = output.map { PipeReader(descriptor: $0, executable: executable) }
        self.standardError = errors.map { PipeReader(descriptor: $0, executable: executable) }
    }

    deinit {
        send(SIGKILL)
        waitForExit()
    }

    /// The test process's environment with `overrides` added or replacing entries.
    public static func inheritedEnvironment(overriding overrides: [String: String] = [:]) -> [String: String] {
        var environment: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return environment.merging(overrides) { _, override in override }
    }

    /// How the child ended, or nil while it runs. Does not block; reaps a child that has exited.
    public var termination: Termination? {
        reaped.withLock { reaped in
            if reaped == nil {
                var status: Int32 = 0
                // Cannot fail: the child is ours, unreaped, and WNOHANG never waits (so no EINTR).
                if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
                    reaped = Termination(waitStatus: status)
                }
            }
            return reaped
        }
    }

    /// Whether the child has not exited yet. Does not block.
    public var isRunning: Bool { termination == nil }

    /// Blocks until the child exits, reaps it and returns how it ended; returns at once if it
    /// already has. Safe to call from several threads at once.
    @discardableResult
    public func waitForExit() -> Termination {
        // Wait without reaping (WNOWAIT), outside the lock, so `send` and `termination` stay
        // usable meanwhile; `termination` then reaps under the lock. ECHILD means another caller
        // reaped the child first, which `termination` finds recorded.
        var information = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &information, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        guard let termination else {
            preconditionFailure("process \(processIdentifier) (\(executable)) was reaped outside its ChildProcess")
        }
        return termination
    }

    /// Sends `signal` to the child unless it has already been reaped (an exited but unreaped
    /// child still owns its ID and ignores the signal).
    public func send(_ signal: Int32) {
        reaped.withLock { reaped in
            guard reaped == nil else { return }
            // The target exists and is ours, so only an invalid signal number can fail.
            let result = kill(processIdentifier, signal)
            precondition(result == 0, "kill(\(processIdentifier), \(signal)) failed with errno \(errno)")
        }
    }
}
