import Glibc

/// Test kit: fresh PostgreSQL databases, created on the test cluster and dropped afterwards.
///
/// The cluster is the one `HEARTH_TEST_POSTGRES_URL` points at: the URL of its maintenance
/// database (`postgres://hearth@127.0.0.1:PORT/postgres`), as `tools/postgres/cluster start`
/// prints it and `make test` exports it. Without it, the first call starts a cluster of its own
/// with that script (in `.build/postgres/store-tests` of the checkout), stopped when the test
/// process exits; when that fails too the call throws: a PostgreSQL test fails rather than skips.
///
/// ```swift
/// try TemporaryPostgresDatabase.withStore { store in
///     try store.write { db in try db.execute("CREATE TABLE t (x BIGINT)") }
/// }
/// ```
public enum TemporaryPostgresDatabase {
    /// The environment variable naming the test cluster's maintenance database.
    public static let environmentVariable = "HEARTH_TEST_POSTGRES_URL"

    /// The test cluster's maintenance URL.
    /// - Throws: ``StoreError`` `.cantOpen` when ``environmentVariable`` is not set and no
    ///   cluster of this process's own could start.
    public static func maintenanceURL() throws -> String {
        if let value = getenv(environmentVariable), !String(cString: value).isEmpty {
            return String(cString: value)
        }
        return try ownCluster.get()
    }

    /// The checkout this file was compiled from, whose `tools/postgres/cluster` starts clusters.
    private static let repository: String = {
        var path = Substring(#filePath)
        for _ in 0..<4 {
            path = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
        }
        return String(path)
    }()

    /// Where this process's own cluster lives (short enough for a unix socket path).
    private static let ownClusterDirectory = repository + "/.build/postgres/store-tests"

    /// A cluster started on first use when ``environmentVariable`` is unset, stopped at exit.
    private static let ownCluster: Result<String, StoreError> = {
        let script = repository + "/tools/postgres/cluster"
        guard let output = popen("'\(script)' start '\(ownClusterDirectory)'", "r") else {
            return .failure(StoreError(extendedCode: .cantOpen, message: "cannot run \(script)"))
        }
        var line = [CChar](repeating: 0, count: 512)
        let url = fgets(&line, Int32(line.count), output).map { String(cString: $0) } ?? ""
        let status = pclose(output)
        guard status == 0, PostgresURL.isPostgres(url) else {
            return .failure(StoreError(
                extendedCode: .cantOpen,
                message: "\(environmentVariable) is not set and \(script) could not start a cluster (exit status \(status))"))
        }
        atexit {
            let stop = "'\(TemporaryPostgresDatabase.repository)/tools/postgres/cluster' stop '\(TemporaryPostgresDatabase.ownClusterDirectory)'"
            _ = system(stop)
        }
        return .success(String(url.filter { $0 != "\n" }))
    }()

    /// Calls `body` with the URL of a new, empty database, then drops the database.
    public static func withURL<T>(_ body: (String) async throws -> T) async throws -> T {
        let (url, drop) = try create()
        defer { drop() }
        return try await body(url)
    }

    /// Calls `body` with the URL of a new, empty database, then drops the database.
    public static func withURL<T>(_ body: (String) throws -> T) throws -> T {
        let (url, drop) = try create()
        defer { drop() }
        return try body(url)
    }

    /// Calls `body` with a store on a new database, then closes the store and drops the database.
    public static func withStore<T>(
        configure: (inout PostgresStore.Configuration) -> Void = { _ in },
        _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        try await withURL { url in
            var configuration = PostgresStore.Configuration(url: url, maxConnections: 4)
            configure(&configuration)
            let store = try PostgresStore(configuration: configuration)
            defer { store.close() }
            return try await body(store)
        }
    }

    /// Calls `body` with a store on a new database, then closes the store and drops the database.
    public static func withStore<T>(
        configure: (inout PostgresStore.Configuration) -> Void = { _ in },
        _ body: (PostgresStore) throws -> T
    ) throws -> T {
        try withURL { url in
            var configuration = PostgresStore.Configuration(url: url, maxConnections: 4)
            configure(&configuration)
            let store = try PostgresStore(configuration: configuration)
            defer { store.close() }
            return try body(store)
        }
    }

    /// Creates a database of a random name and answers its URL and how to drop it.
    private static func create() throws -> (url: String, drop: () -> Void) {
        let maintenance = try maintenanceURL()
        let name = "hearth_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let admin = try PostgresConnection(url: maintenance, password: nil, statementCacheCapacity: 0)
        defer { admin.close() }
        try admin.executeScript("CREATE DATABASE \(name)")
        let url = replacingDatabase(of: maintenance, with: name)
        return (url, {
            guard let admin = try? PostgresConnection(url: maintenance, password: nil, statementCacheCapacity: 0) else { return }
            defer { admin.close() }
            try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        })
    }

    /// `url` (`scheme://authority/database?parameters`) naming `database` instead.
    static func replacingDatabase(of url: String, with database: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url + " dbname=\(database)" }
        let afterAuthority = url[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? url.endIndex
        let query = url[afterAuthority...].firstIndex(of: "?") ?? url.endIndex
        return String(url[..<afterAuthority]) + "/" + database + String(url[query...])
    }
}
