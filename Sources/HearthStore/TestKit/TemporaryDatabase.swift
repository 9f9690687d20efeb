import FoundationEssentials
import Glibc

/// Test kit: databases in fresh temporary directories that are removed afterwards.
///
/// ```swift
/// try TemporaryDatabase.withPool { pool in
///     try pool.write { db in try db.execute("CREATE TABLE t (x)") }
/// }
/// ```
///
/// Each call gets its own directory, so tests run in parallel without sharing state.
public enum TemporaryDatabase {
    /// Calls `body` with the path of a not-yet-existing database file in a new temporary
    /// directory, then removes the directory (with the database, its WAL and shm files).
    /// Use it to open, close and reopen pools on the same file.
    public static func withPath<T>(_ body: (String) throws -> T) throws -> T {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try body(directory + "/test.sqlite")
    }

    /// The `async` form of ``withPath(_:)-(String)->T``.
    public static func withPath<T>(_ body: (String) async throws -> T) async throws -> T {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try await body(directory + "/test.sqlite")
    }

    /// Calls `body` with a pool on a new temporary database, then closes the pool and
    /// removes the files.
    public static func withPool<T>(
        configuration: DatabasePool.Configuration = DatabasePool.Configuration(),
        _ body: (DatabasePool) throws -> T
    ) throws -> T {
        try withPath { path in
            let pool = try DatabasePool(path: path, configuration: configuration)
            defer { pool.close() }
            return try body(pool)
        }
    }

    /// The `async` form of ``withPool(configuration:_:)-(_,(DatabasePool)->T)``.
    public static func withPool<T>(
        configuration: DatabasePool.Configuration = DatabasePool.Configuration(),
        _ body: (DatabasePool) async throws -> T
    ) async throws -> T {
        try await withPath { path in
            let pool = try DatabasePool(path: path, configuration: configuration)
            defer { pool.close() }
            return try await body(pool)
        }
    }

    private static func makeDirectory() throws -> String {
        var template = Array((FileManager.default.temporaryDirectory.path + "/hearth-store-XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw StoreError(extendedCode: .cantOpen, message: "cannot create a temporary directory (errno \(errno))")
        }
        return String(cString: created)
    }
}
