import Foundation
import TestProcess

/// The Python of the test virtualenv, where the oracles and real protocol peers live
/// (graphql-core, websockets, gql): shared by every test target that runs Python.
///
/// The interpreter is `HEARTH_PYTHON` (set by `make test`) or `<package root>/.venv/bin/python`
/// (`make venv`). Tests that need it fail, never skip, when neither exists.
public enum TestPython {
    /// Why Python could not be found, and how to fix it.
    public struct Missing: Error, CustomStringConvertible {
        public let description = """
            No test Python: set HEARTH_PYTHON or create the virtualenv with `make venv` \
            (python3 -m venv .venv && .venv/bin/pip install -r tools/requirements.txt).
            """
    }

    /// What a Python run printed and how it exited.
    public struct Outcome: Sendable {
        /// The exit code, or the signal number when a signal ended Python.
        public let status: Int32
        /// Everything written to standard output.
        public let standardOutput: Data
        /// Everything written to standard error.
        public let standardError: Data

        /// Standard output as text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as text.
        public var errors: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// The package's root folder (where `tools/`, `schema.graphql` and `.venv` are).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The interpreter to use, or nil when there is none.
    public static func interpreter() -> String? {
        if let configured = ProcessInfo.processInfo.environment["HEARTH_PYTHON"], !configured.isEmpty,
            FileManager.default.isExecutableFile(atPath: configured)
        {
            return configured
        }
        let local = packageRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }

    /// A script that exited non-zero, with everything it printed.
    public struct ScriptFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `script` with `arguments` (its `sys.argv[1:]`) and returns the lines it printed
    /// (standard output and standard error interleaved, as a terminal would show them).
    ///
    /// - Throws: `Missing`; `ScriptFailed` when the script exits non-zero; `ChildProcessError`
    ///   when Python cannot be started.
    public static func runScript(_ script: String, _ arguments: [String]) throws -> [String] {
        guard let python = interpreter() else { throw Missing() }
        let outcome = try ChildProcess.run(python, ["-c", script] + arguments, standardError: .standardOutput)
        guard outcome.termination == .exited(0) else {
            throw ScriptFailed(description: "python \(outcome.termination):\n\(outcome.output)")
        }
        return outcome.output.split(separator: "\n").map(String.init)
    }

    /// Runs Python with `arguments` (e.g. `["-c", script, …]` or a script path), feeding `input`
    /// to its standard input, and waits for it.
    ///
    /// - Throws: `Missing` when there is no interpreter; `ChildProcessError` when it cannot be started.
    public static func run(_ arguments: [String], input: Data? = nil) throws -> Outcome {
        guard let python = interpreter() else { throw Missing() }
        let outcome = try ChildProcess.run(python, arguments, input: input.map(Array.init) ?? [])
        return Outcome(
            status: outcome.termination.status, standardOutput: Data(outcome.standardOutput), standardError: Data(outcome.standardError))
    }
}
