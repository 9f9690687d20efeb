import Synchronization

/// Prepared databases for tests: a test's database is copied from a template database that was
/// prepared (migrated) once per cluster, since preparing takes far longer than copying.
///
/// Each ``TemporaryDatabase/Preparation`` gets a template named after its identity, built under
/// another name and renamed when complete, under an advisory lock, so test processes sharing a
/// cluster neither build it twice nor copy a half-built one. Every test's database is then
/// `CREATE DATABASE … TEMPLATE` it, and dropped afterwards.
extension TemporaryPostgresDatabase {
    /// Calls `body` with a store of at most `maxConnections` connections on a new database
    /// prepared by `preparation`, then closes the store and drops the database. At most a few
    /// such databases are open at once in a process (``TestDatabaseGate``); the others wait.
    public static func withStore<T>(
        prepared preparation: TemporaryDatabase.Preparation, maxConnections: Int = 4, _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        try await TestDatabaseGate.shared.withPlace {
            let url = try createDatabase(prepared: preparation)
            defer { try? dropDatabase(url) }
            let store = try PostgresStore(configuration: PostgresStore.Configuration(url: url, maxConnections: maxConnections))
            defer { store.close() }
            return try await body(store)
        }
    }

    /// Creates a new database prepared by `preparation` and returns its URL (for a server
    /// process started on it); ``dropDatabase(_:)`` removes it.
    /// - Throws: ``StoreError`` when the cluster cannot be reached or the preparation fails.
    public static func createDatabase(prepared preparation: TemporaryDatabase.Preparation) throws -> String {
        let maintenance = try maintenanceURL()
        let template = try ensureTemplate(preparation, maintenance: maintenance)
        let name = "hearth_test_" + String(UInt64.random(in: 0 ... .max), radix: 36)
        try withConnection(to: maintenance) { try $0.executeScript("CREATE DATABASE \(name) TEMPLATE \(template)") }
        return replacingDatabase(of: maintenance, with: name)
    }

    /// Drops the database at `url` (made by ``createDatabase(prepared:)``), ending its sessions.
    public static func dropDatabase(_ url: String) throws {
        let path = url.prefix { $0 != "?" }
        let name = path[path.index(after: path.lastIndex(of: "/") ?? path.startIndex)...]
        try withConnection(to: try maintenanceURL()) { try $0.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
    }

    /// The templates this process has seen complete (the cluster keeps them until it stops).
    private static let readyTemplates = Mutex<Set<String>>([])

    /// The name of the complete template for `preparation`, built first if the cluster has none.
    private static func ensureTemplate(_ preparation: TemporaryDatabase.Preparation, maintenance: String) throws -> String {
        let template = "hearth_template_" + String(digest(preparation.identity), radix: 36)
        if readyTemplates.withLock({ $0.contains(template) }) { return template }
        try withConnection(to: maintenance) { connection in
            let lock = Int64(bitPattern: digest(template))
            try connection.executeScript("SELECT pg_advisory_lock(\(lock))")
            defer { try? connection.executeScript("SELECT pg_advisory_unlock(\(lock))") }
            let (exists, _) = try connection.statement(for: "SELECT 1 FROM pg_database WHERE datname = ?")
            guard try connection.execute(exists, [template]).rowCount == 0 else { return }
            let building = template + "_building"
            try connection.executeScript("DROP DATABASE IF EXISTS \(building) WITH (FORCE)")
            try connection.executeScript("CREATE DATABASE \(building)")
            do {
                let store = try PostgresStore(configuration: PostgresStore.Configuration(url: replacingDatabase(of: maintenance, with: building)))
                defer { store.close() }
                try preparation.prepare(store)
            }
            try connection.executeScript("ALTER DATABASE \(building) RENAME TO \(template)")
        }
        readyTemplates.withLock { _ = $0.insert(template) }
        return template
    }

    /// Runs `body` on a new connection to `url`, closed afterwards.
    static func withConnection<T>(to url: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try PostgresConnection(url: url, password: nil, statementCacheCapacity: 1)
        defer { connection.close() }
        return try body(connection)
    }

    /// FNV-1a, 64 bits: a short stable name for an identity (not a security boundary).
    static func digest(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
