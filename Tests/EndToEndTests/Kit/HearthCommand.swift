import Foundation

/// Runs a short-lived `hearth` command (not `serve`) and captures what it printed.
struct HearthCommand {
    /// What the command printed and how it exited.
    struct Outcome {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// Runs `hearth ARGUMENTS` to completion, with `standardInput` on its standard input when given.
    static func run(_ arguments: [String], environment: [String: String] = [:], standardInput: String? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ServerProcess.binary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        // Standard error goes to a file so neither pipe can fill up while we read the other.
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cmd-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorPath.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorPath) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorPath)
        let input = Pipe()
        if standardInput != nil { process.standardInput = input }
        try process.run()
        if let standardInput {
            input.fileHandleForWriting.write(Data(standardInput.utf8))
            try input.fileHandleForWriting.close()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: (try? String(contentsOf: errorPath, encoding: .utf8)) ?? "")
    }
}
