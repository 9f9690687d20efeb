/// A ``DatabaseWriter`` over a database that other processes write too (several server
/// instances on one PostgreSQL database): it forwards everything to the store and announces
/// each of its write transactions to the other processes.
///
/// A ``CommitScopedCache`` is exact while ``commitCount`` moves with every commit that could
/// change what it keeps. The store counts its own commits; those of other processes reach this
/// one as notifications, which `announce` sends (`LISTEN`/`NOTIFY`): it runs first in each
/// write transaction, so the notification goes out only if the transaction commits, and before
/// any the transaction's own statements send. Whoever receives them moves the store's count
/// (`PostgresStore.advanceCommitCount()`). Between another process's commit and its
/// notification (a round trip on the database's connection, well under a millisecond on one
/// network) a cache here may still serve what that commit changed: across processes the caches
/// are exact up to that delay, within one process exactly as before.
public final class SharedDatabaseWriter: DatabaseWriter {
    /// The store itself.
    public let base: any DatabaseWriter
    private let announce: @Sendable (Database) throws -> Void

    /// A writer over `base` that runs `announce` at the start of each write transaction.
    /// - Parameter announce: sends this process's notification of a commit (PostgreSQL:
    ///   ``Database/notify(channel:payload:)``), in the transaction, so a rollback sends nothing.
    public init(base: any DatabaseWriter, announce: @escaping @Sendable (Database) throws -> Void) {
        self.base = base
        self.announce = announce
    }

    /// The store's count, which also counts the commits of other processes it was told of.
    public var commitCount: UInt64 {
        base.commitCount
    }

    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        try base.write { database in
            try announce(database)
            return try body(database)
        }
    }

    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.write { [announce] database in
            try announce(database)
            return try body(database)
        }
    }

    public func eraseDeletedContent() async throws {
        try await base.eraseDeletedContent()
    }

    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try base.read(body)
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(body)
    }

    public func readIfIdle<T>(_ body: (Database) throws -> T) throws -> T? {
        try base.readIfIdle(body)
    }

    public func readPreferringCallingThread<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await base.readPreferringCallingThread(body)
    }

    public func changeMark() async throws -> ChangeMark? {
        try await base.changeMark()
    }
}
