import Foundation
import Testing

/// Runs Python scripts against a live server, with the `websockets` library from the test virtualenv as the
/// real client. The interpreter is `HEARTH_PYTHON` (set by `make test`) or `<root>/.venv/bin/python`.
enum PythonPeer {
    static let missing = """
        No Python with the `websockets` package: set HEARTH_PYTHON or create the virtualenv with `make venv` \
        (python3 -m venv .venv && .venv/bin/pip install -r tools/requirements.txt).
        """

    static func interpreter() -> String? {
        if let configured = ProcessInfo.processInfo.environment["HEARTH_PYTHON"], !configured.isEmpty,
            FileManager.default.isExecutableFile(atPath: configured)
        {
            return configured
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let local = root.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: local) ? local : nil
    }

    /// Runs `script` with `arguments` (available as `sys.argv[1:]`) and returns its output lines (stdout and
    /// stderr together). The script fails the test when it exits non-zero.
    static func run(_ script: String, _ arguments: [String]) throws -> [String] {
        let python = try #require(interpreter(), Comment(rawValue: missing))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        try #require(process.terminationStatus == 0, "python failed:\n\(text)")
        return text.split(separator: "\n").map(String.init)
    }
}
