import Dispatch

/// A connection and the serial queue it is used on (GRDB's `SerializedDatabase`).
///
/// `@unchecked Sendable` is sound because the pool lends a connection to one caller at a
/// time, and `database`, the only mutable state (its statement counters aside, atomics read
/// from anywhere), is touched only by that caller: inside closures run on `queue` (a serial
/// queue runs one at a time, with a happens-before edge between consecutive closures), or on
/// the caller's own thread through ``onCallingThread(_:)`` while it holds the connection
/// (lending and returning go through the group's lock, which orders each borrower's use after
/// the previous one's, and a borrower has waited for its queued closures before it returns
/// the connection).
final class SerializedDatabase: @unchecked Sendable {
    private let database: Database
    private let queue: DispatchQueue

    /// - Parameters:
    ///   - key: marks the queue as belonging to its pool, to detect reentrant use.
    init(database: Database, label: String, key: DispatchSpecificKey<Bool>) {
        self.database = database
        self.queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    /// Statements the connection executed (``Database/executedStatements``): an atomic, so
    /// it may be read from any thread while the connection is in use.
    var executedStatements: Int {
        database.executedStatements.load(ordering: .relaxed)
    }

    /// Statements the connection compiled (``Database/preparedStatements``), read like
    /// ``executedStatements``.
    var preparedStatements: Int {
        database.preparedStatements.load(ordering: .relaxed)
    }

    /// Runs `body` on the connection's queue and waits for it.
    func sync<T>(_ body: (Database) throws -> T) rethrows -> T {
        try queue.sync { try body(database) }
    }

    /// Runs `body` on the calling thread, for a caller the pool lent the connection to: a short
    /// read on an idle reader (``DatabasePool/readIfIdle(_:)``, ``DatabasePool/changeMark()``)
    /// costs less than the hop onto the queue and back.
    func onCallingThread<T>(_ body: (Database) throws -> T) rethrows -> T {
        try body(database)
    }

    /// Runs `body` on the connection's queue and resumes the caller with its result,
    /// without blocking the caller's thread.
    func run<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body(self.database) })
            }
        }
    }

    /// Closes the connection on its queue.
    func close() {
        queue.sync { database.close() }
    }
}
