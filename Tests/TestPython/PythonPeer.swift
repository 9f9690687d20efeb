import Foundation

/// A long-running Python process a test talks to over the network: a loopback HTTP, TLS or
/// SMTP server from the test virtualenv. The script announces itself with a first line on
/// standard output (for example its port as JSON) and may report later events the same
/// way, one line each; the test reads them with ``readLine()``. Standard error goes to the
/// test's own, so a failing peer explains itself. The process is terminated by ``stop()``
/// or when the peer is released.
public final class PythonPeer {
    private let process = Process()
    private let output: FileHandle
    private var pending = Data()

    /// Starts `python -c script arguments…`.
    /// - Throws: `TestPython.Missing` when there is no interpreter; errors starting the process.
    public init(script: String, arguments: [String] = []) throws {
        guard let python = TestPython.interpreter() else { throw TestPython.Missing() }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", "-c", script] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        output = pipe.fileHandleForReading
        try process.run()
    }

    deinit { stop() }

    /// The next line the script printed, without its newline; waits until it arrives.
    /// - Throws: `TestPython.ScriptFailed` when the script exits first.
    public func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[(newline + 1)...])
                return line
            }
            let more = output.availableData
            guard !more.isEmpty else {
                throw TestPython.ScriptFailed(description: "the Python peer exited before printing a line (see its standard error)")
            }
            pending.append(more)
        }
    }

    /// The next line parsed as a JSON object.
    public func readJSON() throws -> [String: Any] {
        let line = try readLine()
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw TestPython.ScriptFailed(description: "the Python peer printed '\(line)', not a JSON object")
        }
        return object
    }

    /// Kills the script and waits for it to exit. SIGKILL, because a process started from a
    /// Dispatch worker thread inherits that thread's signal mask, which blocks SIGTERM.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }
}
