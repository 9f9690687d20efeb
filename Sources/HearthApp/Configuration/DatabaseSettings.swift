import FoundationEssentials
import HearthStore

/// Which database the server uses and how its pool opens it; shared by `serve`, `migrate` and
/// the commands that read or change an existing database.
///
/// `--database` takes an SQLite file path (the default) or a `postgres://`/`postgresql://` URL;
/// `HEARTH_DATABASE_URL` names a PostgreSQL server when `--database` (or `HEARTH_DATABASE`) is not given.
struct DatabaseSettings: Sendable {
    /// The SQLite file; its directory is created when missing. For PostgreSQL, the default file's
    /// path, beside which the key directory goes unless `--key-directory` says otherwise.
    var path: String
    /// Options for the SQLite connection pool.
    var pool: DatabasePool.Configuration
    /// The PostgreSQL server and its pool, when `--database` names one; `nil` for SQLite.
    var postgres: PostgresStore.Configuration?

    static let defaultPath = "./data/hearth.sqlite"

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--database", "PATH|URL", environment: "HEARTH_DATABASE", default: defaultPath,
               help: "The SQLite database file (its directory is created when missing), or a postgres:// URL whose libpq "
                   + "parameters (sslmode, sslrootcert, connect_timeout, …) pass through."),
        .value("--database-url", "URL", environment: "HEARTH_DATABASE_URL",
               help: "A postgres:// URL, used when --database and HEARTH_DATABASE are not given."),
        .value("--database-password-file", "FILE", environment: "HEARTH_DATABASE_PASSWORD_FILE",
               help: "PostgreSQL: a file (mode 600) holding the password, trailing newline ignored; overrides one in the URL."),
        .value("--database-max-connections", "N", environment: "HEARTH_DATABASE_MAX_CONNECTIONS", default: "10",
               help: "PostgreSQL: connections in this process's pool (1 to 1000)."),
        .value("--database-acquire-timeout", "DURATION", environment: "HEARTH_DATABASE_ACQUIRE_TIMEOUT", default: "5s",
               help: "PostgreSQL: how long a request waits for a free pool connection before failing."),
        .value("--database-idle-timeout", "DURATION", environment: "HEARTH_DATABASE_IDLE_TIMEOUT", default: "5m",
               help: "PostgreSQL: how long a pool connection may sit unused before it is closed (reopened when needed; the last one used stays open); 0 keeps them open."),
        .value("--database-write-attempts", "N", environment: "HEARTH_DATABASE_WRITE_ATTEMPTS", default: "32",
               help: "PostgreSQL: runs of a write transaction that fails to serialize before its error reaches the client (1 to 1000)."),
        .value("--db-readers", "N", environment: "HEARTH_DB_READERS", default: "4",
               help: "SQLite: reader connections in the pool (one writer is always added)."),
        .value("--db-synchronous", "MODE", environment: "HEARTH_DB_SYNCHRONOUS", default: "full",
               help: "SQLite synchronous mode: full (every acknowledged write survives power loss), normal or extra."),
        .value("--db-busy-timeout", "DURATION", environment: "HEARTH_DB_BUSY_TIMEOUT", default: "5s",
               help: "SQLite: how long a connection waits for a lock held by another process before failing."),
    ]

    /// Reads the settings from parsed options.
    init(_ options: ParsedOptions) throws {
        let database = options.string("--database") ?? Self.defaultPath
        guard !database.isEmpty else { throw UsageError(message: "--database must not be empty") }
        var pool = DatabasePool.Configuration()
        pool.readerCount = try options.integer("--db-readers", in: 1...64) ?? pool.readerCount
        pool.synchronous = try options.choice("--db-synchronous", [
            "normal": DatabasePool.Configuration.Synchronous.normal,
            "full": .full, "extra": .extra,
        ]) ?? pool.synchronous
        pool.busyTimeout = try options.duration("--db-busy-timeout", in: .zero ... .seconds(600)) ?? pool.busyTimeout
        self.pool = pool
        let url = PostgresURL.isPostgres(database) ? database : options.isGiven("--database") ? nil : options.string("--database-url")
        guard let url else {
            path = database
            postgres = nil
            return
        }
        guard PostgresURL.isPostgres(url) else {
            throw UsageError(message: "--database-url must be a postgres:// or postgresql:// URL, not \(PostgresURL.redacted(url))")
        }
        path = Self.defaultPath
        var postgres = PostgresStore.Configuration(url: url)
        postgres.maxConnections = try options.integer("--database-max-connections", in: 1...1000) ?? postgres.maxConnections
        postgres.maxWriteAttempts = try options.integer("--database-write-attempts", in: 1...1000) ?? postgres.maxWriteAttempts
        postgres.acquireTimeout = try options.duration("--database-acquire-timeout", in: .milliseconds(1) ... .seconds(600))
            ?? postgres.acquireTimeout
        if let idleTimeout = try options.duration("--database-idle-timeout", in: .zero ... .seconds(86_400)) {
            postgres.idleTimeout = idleTimeout == .zero ? nil : idleTimeout
        }
        if let file = options.string("--database-password-file") {
            postgres.password = try Self.password(fromFile: file)
        }
        self.postgres = postgres
    }

    /// The password in `file`, without its trailing line break.
    /// - Throws: `UsageError` when the file is missing, unreadable, open to other users or empty.
    static func password(fromFile file: String) throws -> String {
        let bytes: [UInt8]?
        do {
            bytes = try KeyFile.contents(at: file, followingLinks: true)
        } catch {
            throw UsageError(message: "--database-password-file \(file): \(error.message)")
        }
        guard let bytes else { throw UsageError(message: "--database-password-file \(file): no such file") }
        var password = String(decoding: bytes, as: UTF8.self)
        while password.hasSuffix("\n") || password.hasSuffix("\r") { password.removeLast() }
        guard !password.isEmpty else { throw UsageError(message: "--database-password-file \(file) is empty") }
        return password
    }

    /// What logs and messages name the database by: the file, or the URL without its password.
    var displayName: String {
        postgres?.redactedURL ?? path
    }

    /// Opens the store the settings name (creating an SQLite file when missing).
    func open() throws -> OpenedStore {
        if let postgres { return .postgres(try PostgresStore(configuration: postgres)) }
        return .sqlite(try DatabasePool(path: path, configuration: pool))
    }

    /// The migrations compiled into this binary for the database the settings name.
    func migrator() throws -> Migrator {
        postgres == nil ? try Self.embeddedMigrator() : try Self.embeddedMigrator(EmbeddedFiles.postgresMigrations)
    }

    /// Runs `body` in a read transaction of the existing database, for the commands that
    /// inspect one (`mail`, `report`, `jobs`); never creates or migrates it.
    /// - Throws: `UsageError` when there is no SQLite database at ``path``.
    func readExisting<T>(_ body: (Database) throws -> T) throws -> T {
        try withExistingStore { try $0.writer.read(body) }
    }

    /// Runs `body` in a write transaction of the existing database, for the commands that
    /// change one while the server may run (`jobs retry`: SQLite's locks make them take turns);
    /// never creates or migrates it.
    /// - Throws: `UsageError` when there is no SQLite database at ``path``.
    func writeExisting<T>(_ body: (Database) throws -> T) throws -> T {
        try withExistingStore { try $0.writer.write(body) }
    }

    /// Runs `body` with the existing database, SQLite's or PostgreSQL's; never creates or migrates it.
    /// - Throws: `UsageError` when there is no SQLite database at ``path``.
    func withExistingStore<T>(_ body: (OpenedStore) throws -> T) throws -> T {
        if postgres == nil, !FileManager.default.fileExists(atPath: path) {
            throw UsageError(message: "no database at \(path); pass --database or set HEARTH_DATABASE")
        }
        let store = try open()
        defer { store.close() }
        return try body(store)
    }

    /// Runs `body` with a pool of the existing SQLite database (`backup`, `restore`, `admin
    /// status`); never creates or migrates it.
    /// - Throws: `UsageError` when there is no database at ``path``, or when the settings name a
    ///   PostgreSQL server: `command` is SQLite's, and `postgresAdvice` says what to use instead.
    func withExisting<T>(
        command: String, postgresAdvice: String, _ body: (DatabasePool) throws -> T
    ) throws -> T {
        try requireSQLite(command: command, postgresAdvice: postgresAdvice)
        guard FileManager.default.fileExists(atPath: path) else {
            throw UsageError(message: "no database at \(path); pass --database or set HEARTH_DATABASE")
        }
        let pool = try DatabasePool(path: path, configuration: pool)
        defer { pool.close() }
        return try body(pool)
    }

    /// - Throws: `UsageError` naming `command` and `postgresAdvice` when the settings name a PostgreSQL server.
    func requireSQLite(command: String, postgresAdvice: String) throws {
        guard let postgres else { return }
        throw UsageError(message: "'\(command)' works on an SQLite database file; \(postgres.redactedURL) is PostgreSQL: \(postgresAdvice)")
    }

    /// The SQLite migrations compiled into this binary (or the given list).
    static func embeddedMigrator(_ files: [(fileName: String, sql: String)] = EmbeddedFiles.migrations) throws -> Migrator {
        try Migrator(migrations: files.map { try Migration(fileName: $0.fileName, sql: $0.sql) })
    }
}
