/// Why migrations cannot be validated or applied.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, to match on.
    public enum Code: String, Sendable, Hashable {
        /// A file name is not `NNNN_name.sql`.
        case invalidFileName
        /// Versions in the binary's list are duplicated or not in increasing order.
        case invalidOrder
        /// A migration recorded in the database has a different checksum than the binary's:
        /// a shipped migration was edited.
        case checksumMismatch
        /// The database records a version the binary does not know: a newer binary migrated it.
        case unknownVersion
        /// The migration left rows violating a foreign key (`PRAGMA foreign_key_check`).
        case foreignKeyViolation
        /// The migration's SQL failed; see ``MigrationError/underlying``.
        case migrationFailed
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence for the operator, saying what is wrong and what to do.
    public let message: String
    /// The migration version concerned, if any.
    public let version: Int?
    /// The migration file concerned, if known.
    public let fileName: String?
    /// The SQLite error behind a `.migrationFailed`.
    public let underlying: StoreError?

    /// Creates an error.
    public init(code: Code, message: String, version: Int? = nil, fileName: String? = nil, underlying: StoreError? = nil) {
        self.code = code
        self.message = message
        self.version = version
        self.fileName = fileName
        self.underlying = underlying
    }

    /// The message, with the SQLite error when there is one.
    public var description: String {
        guard let underlying else { return message }
        return "\(message): \(underlying.message)"
    }
}
