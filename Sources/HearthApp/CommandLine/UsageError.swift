/// A command line the user must correct: an unknown flag, a missing or malformed value.
/// `hearth` prints the message and a hint to `--help`, and exits with status 64 (EX_USAGE).
struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the flag or variable.
    let message: String

    var description: String { message }
}
