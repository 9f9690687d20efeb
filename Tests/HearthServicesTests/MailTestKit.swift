import Foundation
import HearthServices
import HearthStore
import Synchronization

/// A clock the test moves by hand, so retry schedules are checked without waiting.
final class ManualClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_764_000_000))

    /// The current time.
    var now: Date { current.withLock { $0 } }

    /// Moves the clock forward.
    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as a `now` closure.
    var function: @Sendable () -> Date { { [self] in now } }
}

/// A transport that answers from a script (one outcome per attempt, then success) and
/// reports every message it accepted on `delivered`.
final class ScriptedTransport: MailTransport {
    let name = "scripted"
    private let outcomes: Mutex<[MailDeliveryError]>
    private let continuation: AsyncStream<OutboxMessage>.Continuation
    /// Each message the transport accepted, in order.
    let delivered: AsyncStream<OutboxMessage>

    init(failures: [MailDeliveryError] = []) {
        outcomes = Mutex(failures)
        (delivered, continuation) = AsyncStream.makeStream(of: OutboxMessage.self)
    }

    func deliver(_ message: OutboxMessage) throws(MailDeliveryError) {
        let failure = outcomes.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let failure { throw failure }
        continuation.yield(message)
    }
}

/// Wraps a transport and reports each message it accepted on `delivered`.
final class ObservedTransport: MailTransport {
    var name: String { inner.name }
    private let inner: any MailTransport
    private let continuation: AsyncStream<OutboxMessage>.Continuation
    /// Each message the inner transport accepted, in order.
    let delivered: AsyncStream<OutboxMessage>

    init(_ inner: any MailTransport) {
        self.inner = inner
        (delivered, continuation) = AsyncStream.makeStream(of: OutboxMessage.self)
    }

    func deliver(_ message: OutboxMessage) throws(MailDeliveryError) {
        try inner.deliver(message)
        continuation.yield(message)
    }
}

extension MailOutbox {
    /// Enqueues `mail` in a transaction of its own.
    @discardableResult
    func enqueueNow(_ mail: OutgoingMail) throws -> Int64 {
        try pool.write { database in try enqueue(mail, in: database) }
    }
}

extension MigratedDatabase {
    /// Calls `body` with a migrated pool on a new temporary database.
    static func withPool<T>(_ body: (DatabasePool) async throws -> T) async throws -> T {
        try await TemporaryDatabase.withPool { pool in
            try Migrator(migrations: migrations).migrate(pool)
            return try await body(pool)
        }
    }
}
