import Foundation
import Testing

/// Runs Python scripts from the test virtualenv (`gql`, `websockets`) against the real server. The
/// interpreter is `HEARTH_PYTHON` (set by `make test`) or `<root>/.venv/bin/python`; a test fails clearly
/// when neither exists.
enum PythonScript {
    static let missing = """
        No test Python: set HEARTH_PYTHON or create the virtualenv with `make venv` \
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

    /// Runs `script` with `arguments` (its `sys.argv[1:]`) and returns its standard output lines; a non-zero
    /// exit fails the test with the script's output.
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
