import FoundationEssentials

/// Applies an ordered list of ``Migration``s to a database and reports its state.
///
/// The list is one dialect's: SQLite's (`migrations/`) for a ``DatabasePool``, PostgreSQL's
/// (`migrations/postgresql/`) for a ``PostgresStore``; the bookkeeping and the checksum
/// discipline are the same on both. Applied migrations are recorded in `schema_migrations`
/// (version, name, SHA-256 checksum, applied-at time), a table both dialects create alike.
///
/// - On SQLite each migration runs in its own `IMMEDIATE` transaction with foreign-key
///   enforcement suspended (so tables can be rebuilt the way SQLite documents), followed by
///   `PRAGMA foreign_key_check` before commit: a migration that leaves a dangling reference is
///   rolled back.
/// - On PostgreSQL each migration runs in its own transaction, its DDL included, with foreign
///   keys checked as usual; a session advisory lock makes instances that start together
///   migrate one after another.
///
/// ```swift
/// let migrator = try Migrator(migrations: embedded.map { try Migration(fileName: $0.name, sql: $0.text) })
/// let applied = try migrator.migrate(pool)   // at start-up, or `hearth migrate`
/// let ready = migrator.isUpToDate(pool)      // for /readyz
/// ```
public struct Migrator: Sendable {
    /// The table recording applied migrations.
    public static let tableName = "schema_migrations"

    /// The binary's migrations, in order.
    public let migrations: [Migration]

    /// Validates the list: versions must be unique and strictly increasing.
    ///
    /// - Throws: ``MigrationError`` `.invalidOrder` naming the offending file.
    public init(migrations: [Migration]) throws(MigrationError) {
        for (previous, next) in zip(migrations, migrations.dropFirst()) where next.version <= previous.version {
            throw MigrationError(
                code: .invalidOrder,
                message: next.version == previous.version
                    ? "migrations \(previous.fileName) and \(next.fileName) share version \(next.version)"
                    : "migration \(next.fileName) comes after \(previous.fileName) but has a lower version",
                version: next.version,
                fileName: next.fileName
            )
        }
        self.migrations = migrations
    }

    /// Applies every pending migration in order and returns those it applied.
    ///
    /// Migrations applied before a failure stay applied; the failing one leaves no trace.
    ///
    /// - Throws: ``MigrationError``: `.checksumMismatch` or `.unknownVersion` before
    ///   anything is applied when the database does not match the binary;
    ///   `.migrationFailed` or `.foreignKeyViolation` for a migration that fails.
    ///   ``StoreError`` when the bookkeeping itself fails.
    @discardableResult
    public func migrate(_ pool: DatabasePool) throws -> [Migration] {
        try pool.writeWithoutTransaction { database in try migrate(database) }
    }

    /// Applies every pending PostgreSQL migration in order and returns those it applied; throws
    /// as ``migrate(_:)-(DatabasePool)`` does.
    @discardableResult
    public func migrate(_ store: PostgresStore) throws -> [Migration] {
        try store.writeWithoutTransaction { database in
            try database.execute("SELECT pg_advisory_lock(?)", [Self.postgresLockKey])
            defer { try? database.execute("SELECT pg_advisory_unlock(?)", [Self.postgresLockKey]) }
            return try migrate(database)
        }
    }

    /// The key of the advisory lock PostgreSQL instances migrate under ("hearth" in ASCII).
    private static let postgresLockKey: Int64 = 0x6865_6172_7468

    private func migrate(_ database: Database) throws -> [Migration] {
        try database.execute(Self.createTableSQL)
        let status = try status(of: database)
        if let problem = status.problems.first {
            throw problem
        }
        guard !status.pending.isEmpty else { return [] }
        // PRAGMA foreign_keys is a no-op inside a transaction, so it is switched here,
        // around the per-migration transactions.
        if database.dialect == .sqlite {
            try database.execute("PRAGMA foreign_keys = OFF")
        }
        defer {
            if database.dialect == .sqlite {
                try? database.execute("PRAGMA foreign_keys = ON")
            }
        }
        var applied: [Migration] = []
        for migration in status.pending {
            if try apply(migration, to: database) {
                applied.append(migration)
            }
        }
        return applied
    }

    /// Which migrations are applied, which are pending, and any mismatch with the binary.
    public func status(of pool: any DatabaseReader) throws -> MigrationStatus {
        try pool.read { database in try status(of: database) }
    }

    /// Whether the database is fully migrated by exactly this binary's migrations; `false`
    /// also when the database cannot be read. Cheap enough for a readiness probe.
    public func isUpToDate(_ pool: any DatabaseReader) -> Bool {
        (try? status(of: pool).isUpToDate) ?? false
    }

    // MARK: Internals

    private static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS \(tableName) (
            version INTEGER PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            checksum TEXT NOT NULL,
            applied_at TEXT NOT NULL
        )
        """

    /// Which migrations are applied and pending, read through an open connection (e.g. inside `pool.read`).
    public func status(of database: Database) throws -> MigrationStatus {
        let tableExists = try database.scalar(
            Bool.self,
            database.dialect == .sqlite
                ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?"
                : "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
            [Self.tableName]
        ) ?? false
        let applied = tableExists
            ? try database.query("SELECT version, name, checksum, applied_at FROM \(Self.tableName) ORDER BY version").map { row in
                AppliedMigration(
                    version: try row["version"],
                    name: try row["name"],
                    checksum: try row["checksum"],
                    appliedAt: try row["applied_at"]
                )
            }
            : []
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        var problems: [MigrationError] = []
        for record in applied {
            guard let migration = known[record.version] else {
                problems.append(MigrationError(
                    code: .unknownVersion,
                    message: "the database records migration \(record.version) (\(record.name)), which this binary does not know: "
                        + "a newer version of the program migrated it; run that version or restore a backup",
                    version: record.version
                ))
                continue
            }
            if migration.checksum != record.checksum {
                problems.append(MigrationError(
                    code: .checksumMismatch,
                    message: "migration \(migration.fileName) was changed after it was applied (recorded checksum \(record.checksum), "
                        + "binary has \(migration.checksum)); shipped migrations must never be edited, add a new one instead",
                    version: migration.version,
                    fileName: migration.fileName
                ))
            }
        }
        let appliedVersions = Set(applied.map(\.version))
        return MigrationStatus(
            applied: applied,
            pending: migrations.filter { !appliedVersions.contains($0.version) },
            problems: problems
        )
    }

    /// Applies one migration in its own transaction; `false` if another process recorded
    /// it meanwhile (SQLite's `IMMEDIATE` lock, PostgreSQL's advisory lock make the check and
    /// the apply atomic).
    private func apply(_ migration: Migration, to database: Database) throws -> Bool {
        do {
            return try database.transaction(beginning: database.dialect == .sqlite ? "BEGIN IMMEDIATE TRANSACTION" : "BEGIN") {
                let alreadyApplied = try database.scalar(
                    Bool.self, "SELECT count(*) FROM \(Self.tableName) WHERE version = ?", [migration.version]
                ) ?? false
                guard !alreadyApplied else { return false }
                try database.executeScript(migration.sql)
                // PostgreSQL checked every foreign key as the script ran.
                let violations = database.dialect == .sqlite ? try database.query("PRAGMA foreign_key_check") : []
                if !violations.isEmpty {
                    // Columns of foreign_key_check: table, rowid (NULL for WITHOUT ROWID tables), parent table.
                    let details = try violations.prefix(5).map { row in
                        let table: String = try row[0]
                        let rowID: Int64? = try row[1]
                        let parent: String = try row[2]
                        return "\(table) row \(rowID.map(String.init) ?? "?") references a missing \(parent) row"
                    }
                    throw MigrationError(
                        code: .foreignKeyViolation,
                        message: "migration \(migration.fileName) leaves \(violations.count) foreign key violation(s): "
                            + details.joined(separator: "; "),
                        version: migration.version,
                        fileName: migration.fileName
                    )
                }
                try database.execute(
                    "INSERT INTO \(Self.tableName) (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                    [migration.version, migration.name, migration.checksum, Date()]
                )
                return true
            }
        } catch let error as StoreError {
            throw MigrationError(
                code: .migrationFailed,
                message: "migration \(migration.fileName) failed and was rolled back",
                version: migration.version,
                fileName: migration.fileName,
                underlying: error
            )
        }
    }
}
