import Foundation
import Glibc
import TestProcess

/// A long-running Python process a test talks to over the network: a loopback HTTP, TLS or
/// SMTP server from the test virtualenv. The script announces itself with a first line on
/// standard output (for example its port as JSON) and may report later events the same
/// way, one line each; the test reads them with ``readLine()``. Standard error goes to the
/// test's own, so a failing peer explains itself. The process is killed by ``stop()``
/// or when the peer is released.
public final class PythonPeer {
    private let process: ChildProcess
    private let output: PipeReader

    /// Starts `python -c script arguments…`.
    /// - Throws: `TestPython.Missing` when there is no interpreter; `ChildProcessError` when it cannot start.
    public init(script: String, arguments: [String] = []) throws {
        guard let python = TestPython.interpreter() else { throw TestPython.Missing() }
        // Standard input is a pipe the test holds open for the peer's life: the script exits
        // when it closes, even if the test process dies.
        process = try ChildProcess(
            python, ["-u", "-c", Self.exitWithParent + script] + arguments, standardInput: .pipe, standardOutput: .pipe)
        output = process.standardOutput!
    }

    deinit { stop() }

    /// Prepended to every script: end the process when standard input reaches end of file.
    private static let exitWithParent = "import os as _os, sys as _sys, threading as _threading\n"
        + "_threading.Thread(target=lambda: (_sys.stdin.read(), _os._exit(0)), daemon=True).start()\n"

    /// The next line the script printed, without its newline; waits until it arrives.
    /// - Throws: `TestPython.ScriptFailed` when the script exits first.
    public func readLine() throws -> String {
        guard let line = try output.readLine() else {
            throw TestPython.ScriptFailed(description: "the Python peer exited before printing a line (see its standard error)")
        }
        return line
    }

    /// The next line parsed as a JSON object.
    public func readJSON() throws -> [String: Any] {
        let line = try readLine()
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestPython.ScriptFailed(description: "the Python peer printed '\(line)', not a JSON object")
        }
        return object
    }

    /// Kills the script (SIGKILL: a peer has nothing to clean up) and waits for it to exit.
    public func stop() {
        process.send(SIGKILL)
        process.waitForExit()
    }
}
