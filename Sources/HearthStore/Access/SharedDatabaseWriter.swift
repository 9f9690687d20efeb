import Synchronization

/// A ``DatabaseWriter`` over a database that other processes write too (several server
/// instances on one PostgreSQL database): it forwards everything to the store, announces each
/// of its write transactions to the other processes, and counts theirs in ``commitCount``.
///
/// A ``CommitScopedCache`` is exact while ``commitCount`` moves with every commit that could
/// change what it keeps. The store counts its own commits only; the commits of other processes
/// reach this one as notifications (`LISTEN`/`NOTIFY`: `announce` runs first in each write
/// transaction, so the notification is sent only if it commits, and before any the
/// transaction's own statements send), and whoever receives them
/// calls ``noteCommitsElsewhere(_:)``. Between another process's commit and its notification
/// (a round trip on the database's connection, usually well under a millisecond on one
/// network) a cache here may still serve what that commit changed: across processes the caches
/// are exact up to that delay, within one process exactly as before.
public final class SharedDatabaseWriter: DatabaseWriter {
    /// The store itself.
    public let base: any DatabaseWriter
    private let announce: @Sendable (Database) throws -> Void
    /// Commits other processes announced.
    private let commitsElsewhere = Atomic<UInt64>(0)

    /// A writer over `base` that runs `announce` at the start of each write transaction.
    /// - Parameter announce: sends this process's notification of a commit (PostgreSQL:
    ///   `Database.notify(channel:payload:)`), in the transaction, so a rollback sends nothing.
    public init(base: any DatabaseWriter, announce: @escaping @Sendable (Database) throws -> Void) {
        self.base = base
        self.announce = announce
    }

    /// Counts `count` commits that other processes made (told by their notifications): the
    /// caches over this writer drop what they hold.
    public func noteCommitsElsewhere(_ count: UInt64 = 1) {
        commitsElsewhere.add(count, ordering: .releasing)
    }

    /// The store's own count plus two for each commit elsewhere, so it stays odd exactly while
    /// one of this process's commits is in flight. Both parts only grow, so the sum is equal to
    /// an earlier reading only if neither moved.
    public var commitCount: UInt64 {
        base.commitCount &+ 2 &* commitsElsewhere.load(ordering: .acquiring)
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
}
