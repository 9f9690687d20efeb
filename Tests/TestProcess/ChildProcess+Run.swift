import Glibc

extension ChildProcess {
    /// What a program run to completion printed, and how it ended.
    public struct Outcome: Sendable {
        /// How the program ended.
        public let termination: Termination
        /// Everything it wrote to standard output (and standard error, when merged into it).
        public let standardOutput: [UInt8]
        /// Everything it wrote to standard error; empty when standard error was not a pipe.
        public let standardError: [UInt8]

        /// Standard output as UTF-8 text.
        public var output: String { String(decoding: standardOutput, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errors: String { String(decoding: standardError, as: UTF8.self) }
    }

    /// Runs `executable` to completion: feeds it `input`, captures its standard output and
    /// (unless told otherwise) its standard error, and waits for it to exit.
    ///
    /// The three pipes are serviced at once, so a program that writes a lot to one stream
    /// before reading its input or writing the other cannot deadlock against the test: standard
    /// error is read and `input` written on threads of their own while the calling thread reads
    /// standard output. A program that exits without reading all of `input` is not an error.
    ///
    /// - Parameters:
    ///   - input: the bytes of standard input; when empty, standard input is `/dev/null`.
    ///   - standardError: `.pipe` (captured separately), `.standardOutput` (interleaved with
    ///     standard output), or any other destination, which is then not captured.
    /// - Throws: `ChildProcessError` when the program cannot be started or a pipe fails.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String] = inheritedEnvironment(),
        searchPath: Bool = false, input: [UInt8] = [], standardError: Output = .pipe
    ) throws -> Outcome {
        let child = try ChildProcess(
            executable, arguments, environment: environment, searchPath: searchPath,
            standardInput: input.isEmpty ? .nullDevice : .pipe, standardOutput: .pipe, standardError: standardError)
        let writer = try child.standardInput.map { pipe in
            try BackgroundThread(for: executable) { () -> Result<Void, any Error> in
                defer { pipe.close() }
                do {
                    try pipe.write(input)
                } catch let error as ChildProcessError where error.code == EPIPE {
                    // The program exited or closed its input without reading all of it.
                } catch {
                    return .failure(error)
                }
                return .success(())
            }
        }
        let errorReader = try child.standardError.map { pipe in
            try BackgroundThread(for: executable) { Result { try pipe.readToEnd() } }
        }
        // Read standard output on this thread; whatever happens, join the helper threads (after
        // killing a child no longer drained, which could otherwise block them forever).
        let output = Result { try child.standardOutput!.readToEnd() }
        if case .failure = output { child.send(SIGKILL) }
        let written = writer?.join() ?? .success(())
        let errors = errorReader?.join() ?? .success([])
        let termination = child.waitForExit()
        try written.get()
        return Outcome(termination: termination, standardOutput: try output.get(), standardError: try errors.get())
    }
}
