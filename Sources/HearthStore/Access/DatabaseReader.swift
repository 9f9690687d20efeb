/// A database that answers reads, each in a closure that sees one consistent snapshot
/// (GRDB's `DatabaseReader`): the seam services read through, whatever store is behind it.
///
/// ```swift
/// let count = try await reader.read { db in try db.scalar(Int.self, "SELECT count(*) FROM notes") }
/// ```
///
/// SQLite's ``DatabasePool`` implements it, and PostgreSQL's ``PostgresStore``. Callers hold an
/// `any DatabaseReader` (or ``DatabaseWriter``): the existential is paid once per closure, never
/// per statement or row, since the closure receives the store's concrete ``Database``. The
/// closures must not call back into the reader (a store may trap on it, as the pool does).
public protocol DatabaseReader: AnyObject, Sendable {
    /// Runs `body` inside a read transaction (a stable snapshot), blocking the calling thread
    /// until it returns. For commands and start-up, not for request paths.
    /// - Throws: What `body` throws, or ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T

    /// Runs `body` inside a read transaction, suspending the caller (not blocking its thread)
    /// while it waits for a connection and while `body` runs.
    /// - Throws: What `body` throws, ``StoreError``, or `CancellationError`.
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// Runs `body` inside a read transaction on the calling thread when that costs no wait
    /// (a connection is idle and answers from memory); `nil` at once, without running `body`,
    /// otherwise. A store whose reads cross a network always answers `nil`: an event loop must
    /// never wait on a round trip.
    /// - Throws: What `body` throws, or ``StoreError``.
    func readIfIdle<T>(_ body: (Database) throws -> T) throws -> T?

    /// Runs `body` like the `async` ``read(_:)``, but on the calling thread when
    /// ``readIfIdle(_:)`` can: for reads on request paths whose size a limit bounds (point
    /// lookups, pages of at most a hundred rows), where handing the work to another thread and
    /// resuming afterwards costs more than the read. Suspends only when that is not possible.
    ///
    /// The calling thread may be an event loop, which serves nothing else meanwhile, as it does
    /// while it executes the rest of the request: a request's reads are bounded as its
    /// execution is (GraphQL's complexity limit). Reads whose size nothing bounds (reports,
    /// exports, scans) belong in ``read(_:)``. Measured on the household workload
    /// (tools/bench/households): mixing the two for request reads is the worst of both, as the
    /// connections lent to other threads leave none idle and every read then hops.
    ///
    /// - Throws: What `body` throws, ``StoreError``, or `CancellationError`.
    func readPreferringCallingThread<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T

    /// A mark that differs from every mark taken before a commit once that commit is visible,
    /// whichever connection or process made it (``ChangeMark``); `nil` when the store cannot
    /// tell so cheaply, and the caller must read. A read that starts after this call returns
    /// sees at least everything the mark accounts for. Like ``readPreferringCallingThread(_:)``,
    /// it runs on the calling thread when a connection is idle.
    /// - Throws: ``StoreError``, or `CancellationError`.
    func changeMark() async throws -> ChangeMark?
}

extension DatabaseReader {
    /// ``readIfIdle(_:)`` when it runs `body`, the `async` ``read(_:)`` otherwise.
    public func readPreferringCallingThread<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        if let value = try readIfIdle(body) { return value }
        return try await read(body)
    }
}
