/// The lock of a database is held by another process, or cannot be taken.
struct DatabaseLockError: Error, CustomStringConvertible {
    /// What happened and what to do.
    var message: String
    var description: String { message }
}
