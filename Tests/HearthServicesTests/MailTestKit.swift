import Foundation
@testable import HearthServices
import HearthStore
import Synchronization
import TestFixtures

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

extension LinkTokens {
    /// Link tokens under a fixed key, for tests.
    static let forTests = LinkTokens(key: [UInt8](repeating: 7, count: LinkTokens.keyLength))
}

extension MailOutbox {
    /// Enqueues `mail` in a transaction of its own.
    @discardableResult
    func enqueueNow(_ mail: OutgoingMail) throws -> Int64 {
        try pool.write { database in try enqueue(mail, in: database) }
    }
}

/// An outbox and a scheduler running only its delivery job, as the server wires them, with a
/// retry policy whose jitter is fixed at 1 (delays exactly double).
struct MailDelivery {
    let outbox: MailOutbox
    let scheduler: JobScheduler

    init(
        pool: any DatabaseWriter, transport: any MailTransport, clock: any ServiceClock = SystemClock(),
        retry: RetryPolicy = RetryPolicy(jitter: { 1 }), keepsLinkTokens: Bool = false
    ) {
        outbox = MailOutbox(jobs: JobQueue(pool: pool, clock: clock), messageIDDomain: "hearth.test", keepsLinkTokens: keepsLinkTokens)
        scheduler = JobScheduler(
            queue: outbox.jobs, handlers: [MailDeliveryJob(outbox: outbox, transport: transport, links: .forTests, logger: .disabled)],
            configuration: .init(retry: retry), logger: .disabled)
    }

    /// Delivers what is due now: one pass of the scheduler.
    func deliverDueMessages() async throws -> JobScheduler.PassReport {
        try await scheduler.runDueJobs()
    }
}

extension MailOutbox {
    /// An outbox in `pool` whose jobs nobody runs (for tests of what it stores).
    init(pool: any DatabaseWriter, keepsLinkTokens: Bool = false) {
        self.init(jobs: JobQueue(pool: pool), messageIDDomain: "hearth.test", keepsLinkTokens: keepsLinkTokens)
    }
}
