import Glibc

/// A system call made for a child process failed: starting it (the executable is missing or
/// not executable, a redirection file cannot be opened), or reading or writing one of its pipes.
public struct ChildProcessError: Error, CustomStringConvertible {
    /// The `errno` value, e.g. `ENOENT` for a missing executable.
    public let code: Int32
    /// The call that failed, e.g. `posix_spawn` or `read`.
    public let operation: String
    /// The program the child runs (as given, before any `PATH` search).
    public let executable: String

    /// The program, the call and the system's message, e.g.
    /// `/no/such/program: posix_spawn failed: No such file or directory`.
    public var description: String {
        "\(executable): \(operation) failed: \(String(cString: strerror(code)))"
    }
}

/// Calls `call` until it is not interrupted by a signal (`EINTR`) and returns its result;
/// throws `ChildProcessError` carrying `errno` when it returns -1.
func systemCall<Result: BinaryInteger>(_ operation: String, of executable: String, _ call: () -> Result) throws -> Result {
    while true {
        let result = call()
        if result != -1 { return result }
        if errno != EINTR { throw ChildProcessError(code: errno, operation: operation, executable: executable) }
    }
}
