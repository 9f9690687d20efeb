import FoundationEssentials
import Support

/// One schema migration: a file `NNNN_name.sql` and its SQL, embedded in the binary
/// by the application (the library never reads migration files from disk).
///
/// The SQL runs as a script inside a transaction the ``Migrator`` opens, so it must
/// not contain `BEGIN`/`COMMIT` itself. Never edit a migration once shipped: the
/// migrator records its checksum and refuses a database whose recorded checksum differs.
public struct Migration: Sendable, Hashable {
    /// The number before the first underscore: the order of application.
    public let version: Int
    /// The part between the version and `.sql`.
    public let name: String
    /// The file name, `NNNN_name.sql`.
    public let fileName: String
    /// The SQL script.
    public let sql: String
    /// SHA-256 of `sql` as lowercase hex.
    public let checksum: String

    /// Builds a migration from its file name and contents.
    ///
    /// - Parameter fileName: at least four digits (the version, greater than zero), an
    ///   underscore, a name of letters, digits, `_` or `-`, and `.sql`; for example
    ///   `0001_create_users.sql`.
    /// - Throws: ``MigrationError`` `.invalidFileName` when the name does not match.
    public init(fileName: String, sql: String) throws(MigrationError) {
        let invalid = MigrationError(
            code: .invalidFileName,
            message: "migration file name '\(fileName)' must look like NNNN_name.sql (four or more digits, an underscore, letters, digits, '_' or '-')",
            fileName: fileName
        )
        guard fileName.hasSuffix(".sql") else { throw invalid }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_") else { throw invalid }
        let digits = stem[..<underscore]
        let name = stem[stem.index(after: underscore)...]
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let version = Int(digits), version > 0,
              !name.isEmpty,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { throw invalid }
        self.version = version
        self.name = String(name)
        self.fileName = fileName
        self.sql = sql
        self.checksum = SHA256.hexDigest(sql)
    }
}

/// A migration recorded in the database's `schema_migrations` table.
public struct AppliedMigration: Sendable, Hashable {
    /// The version recorded.
    public let version: Int
    /// The name recorded.
    public let name: String
    /// The SHA-256 hex of the SQL that was applied.
    public let checksum: String
    /// When it was applied.
    public let appliedAt: Date
}

/// Which migrations a database has and which it still needs.
public struct MigrationStatus: Sendable {
    /// Migrations recorded in the database, by version (including any the binary does not know).
    public var applied: [AppliedMigration]
    /// Migrations of the binary not yet applied, in order.
    public var pending: [Migration]
    /// Why the database cannot be used with this binary: changed checksums, versions
    /// the binary does not know. Empty when all is well.
    public var problems: [MigrationError]

    /// Whether the database is fully migrated and consistent with the binary.
    public var isUpToDate: Bool {
        pending.isEmpty && problems.isEmpty
    }
}
