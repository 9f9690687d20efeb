import FoundationEssentials
import HearthStore

/// Where the database lives and how the pool opens it; shared by `serve` and `migrate`.
struct DatabaseSettings: Sendable {
    /// The SQLite file; its directory is created when missing.
    var path: String
    /// Options for the connection pool.
    var pool: DatabasePool.Configuration

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--database", "PATH", environment: "HEARTH_DATABASE", default: "./data/hearth.sqlite",
               help: "The SQLite database file; its directory is created when missing."),
        .value("--db-readers", "N", environment: "HEARTH_DB_READERS", default: "4",
               help: "Reader connections in the pool (one writer is always added)."),
        .value("--db-synchronous", "MODE", environment: "HEARTH_DB_SYNCHRONOUS", default: "full",
               help: "SQLite synchronous mode: full (every acknowledged write survives power loss), normal or extra."),
        .value("--db-busy-timeout", "DURATION", environment: "HEARTH_DB_BUSY_TIMEOUT", default: "5s",
               help: "How long a connection waits for a lock held by another process before failing."),
    ]

    /// Reads the settings from parsed options.
    init(_ options: ParsedOptions) throws {
        path = options.string("--database") ?? "./data/hearth.sqlite"
        guard !path.isEmpty else { throw UsageError(message: "--database must not be empty") }
        var pool = DatabasePool.Configuration()
        pool.readerCount = try options.integer("--db-readers", in: 1...64) ?? pool.readerCount
        pool.synchronous = try options.choice("--db-synchronous", [
            "normal": DatabasePool.Configuration.Synchronous.normal,
            "full": .full, "extra": .extra,
        ]) ?? pool.synchronous
        pool.busyTimeout = try options.duration("--db-busy-timeout", in: .zero ... .seconds(600)) ?? pool.busyTimeout
        self.pool = pool
    }

    /// Runs `body` in a read transaction of the existing database, for the commands that
    /// inspect one (`mail`, `report`, `jobs`); never creates or migrates it.
    /// - Throws: `UsageError` when there is no database at ``path``.
    func readExisting<T>(_ body: (Database) throws -> T) throws -> T {
        try withExisting { try $0.read(body) }
    }

    /// Runs `body` in a write transaction of the existing database, for the commands that
    /// change one while the server may run (`jobs retry`: SQLite's locks make them take turns);
    /// never creates or migrates it.
    /// - Throws: `UsageError` when there is no database at ``path``.
    func writeExisting<T>(_ body: (Database) throws -> T) throws -> T {
        try withExisting { try $0.write(body) }
    }

    /// Runs `body` with a pool of the existing database (`backup`, `admin`); never creates or
    /// migrates it.
    /// - Throws: `UsageError` when there is no database at ``path``.
    func withExisting<T>(_ body: (DatabasePool) throws -> T) throws -> T {
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError(message: "no database at \(path); pass --database or set HEARTH_DATABASE")
        }
        let pool = try DatabasePool(path: path, configuration: pool)
        defer { pool.close() }
        return try body(pool)
    }

    /// The migrations compiled into this binary.
    static func embeddedMigrator() throws -> Migrator {
        try Migrator(migrations: EmbeddedFiles.migrations.map { try Migration(fileName: $0.fileName, sql: $0.sql) })
    }
}
