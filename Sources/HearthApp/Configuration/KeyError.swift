/// Why the server's keys cannot be used: `hearth serve` refuses to start with it, naming the
/// file and what to do.
struct KeyError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    enum Code: String, Sendable {
        /// A key file (or the key directory) that someone other than its owner could read or
        /// change.
        case unsafePermissions
        /// A key file that is not base64url text of a key long enough.
        case malformed
        /// The database still holds a key (moved out by an older start that stopped midway)
        /// that differs from the key directory's.
        case conflicting
        /// A system call failed.
        case system
    }

    /// What is wrong.
    let code: Code
    /// The file or directory concerned.
    let path: String
    /// What happened and what to do.
    let message: String

    var description: String { message }
}
