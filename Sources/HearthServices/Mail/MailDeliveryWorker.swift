import FoundationEssentials
import Support

/// Delivers the outbox: sends due messages through a ``MailTransport`` on a worker thread,
/// retries transient failures with exponential backoff and jitter up to a maximum number of
/// attempts, then marks them failed; a permanent failure marks the message failed at once.
///
/// ``run()`` is the long-running loop (stop it by cancelling its task): it delivers what is
/// due, then sleeps until the next retry is due or ``MailOutbox/enqueue(_:in:)`` commits new
/// mail, whichever comes first. Pending rows survive restarts; a new worker picks them up.
/// Delivery is at least once: a crash between a transport's acceptance and the outbox update
/// sends that message again on restart (with the same `Message-ID`).
///
/// The transport is handed each message with its link's token in place (see ``MailOutbox``):
/// the worker derives it with the link key just before the attempt and never writes it back.
///
/// Run one worker per database: two would deliver the same messages.
public struct MailDeliveryWorker: Sendable {
    /// Retry policy and batch size.
    public struct Configuration: Sendable, Hashable {
        /// Attempts before a message is marked failed; 8 by default.
        public var maxAttempts: Int
        /// The delay after the first failed attempt; 30 seconds by default. Each further
        /// failure doubles it.
        public var initialRetryDelay: Duration
        /// The longest delay between attempts; 1 hour by default. With the defaults a
        /// message is retried for about 2 hours.
        public var maxRetryDelay: Duration
        /// Messages read per pass; 20 by default.
        public var batchSize: Int

        /// A configuration with the defaults, or the given values.
        public init(
            maxAttempts: Int = 8, initialRetryDelay: Duration = .seconds(30), maxRetryDelay: Duration = .seconds(3600),
            batchSize: Int = 20
        ) {
            precondition(maxAttempts >= 1 && batchSize >= 1, "a worker makes at least one attempt per message")
            self.maxAttempts = maxAttempts
            self.initialRetryDelay = initialRetryDelay
            self.maxRetryDelay = maxRetryDelay
            self.batchSize = batchSize
        }
    }

    /// What one pass did.
    public struct PassReport: Sendable, Hashable {
        /// Messages the transport accepted.
        public var sent = 0
        /// Messages that failed and are scheduled for another attempt.
        public var retrying = 0
        /// Messages marked failed.
        public var failed = 0

        /// A report of a pass that did nothing.
        public init() {}
    }

    private let outbox: MailOutbox
    private let transport: any MailTransport
    private let links: LinkTokens
    private let configuration: Configuration
    private let logger: Logger
    private let jitter: @Sendable () -> Double

    /// A worker delivering `outbox` through `transport`.
    /// - Parameters:
    ///   - links: The link key's tokens, to put each withheld link back into its message.
    ///   - jitter: A random factor in `0.5...1` applied to each retry delay (so many messages
    ///     failing together do not retry together); tests may fix it.
    public init(
        outbox: MailOutbox, transport: any MailTransport, links: LinkTokens, configuration: Configuration = Configuration(),
        logger: Logger, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1) }
    ) {
        self.outbox = outbox
        self.transport = transport
        self.links = links
        self.configuration = configuration
        self.logger = logger
        self.jitter = jitter
    }

    /// Delivers due messages, then waits for the next due time or new mail, until the task
    /// is cancelled. A failing database is logged and retried after a minute.
    public func run() async {
        while !Task.isCancelled {
            var timeout: Duration?
            do {
                let report = try await deliverDueMessages()
                if report.sent + report.retrying + report.failed == configuration.batchSize {
                    continue  // a full batch: more may be due right now
                }
                if let next = try outbox.nextDueDate() {
                    let seconds = max(0, next.timeIntervalSince(outbox.currentDate()))
                    timeout = .milliseconds(Int64((seconds * 1000).rounded(.up)))
                }
            } catch {
                logger.error("cannot read or update the mail outbox", ["error": "\(error)"])
                timeout = .seconds(60)
            }
            await outbox.signal.wait(timeout: timeout)
        }
    }

    /// One pass: delivers every message due now (up to the batch size) on a worker thread
    /// and records each outcome.
    /// - Throws: ``StoreError`` when the outbox cannot be read or updated.
    @discardableResult
    public func deliverDueMessages() async throws -> PassReport {
        try await DetachedThread.run(name: "hearth-mail") { [self] in Result { try deliverDueMessagesBlocking() } }.get()
    }

    private func deliverDueMessagesBlocking() throws -> PassReport {
        var report = PassReport()
        for message in try outbox.dueMessages(at: outbox.currentDate(), limit: configuration.batchSize) {
            let fields = ["mail.id": String(message.id), "mail.attempt": String(message.attempts + 1)]
            let outgoing = message.withLinkToken(from: links)
            switch Result(catching: { () throws(MailDeliveryError) in try transport.deliver(outgoing) }) {
            case .success:
                try outbox.markSent(message.id, transport: transport.name)
                report.sent += 1
                logger.info("mail delivered", fields.merging(["mail.transport": transport.name]) { $1 })
            case .failure(let error):
                let attempts = message.attempts + 1
                if error.code == .transient && attempts < configuration.maxAttempts {
                    let delay = retryDelay(afterAttempts: attempts)
                    try outbox.markFailed(message.id, error: error.message, retryAt: outbox.currentDate().addingTimeInterval(delay))
                    report.retrying += 1
                    logger.warning("mail delivery failed, will retry", fields.merging([
                        "error": error.message, "mail.retry_in_seconds": String(Int(delay.rounded())),
                    ]) { $1 })
                } else {
                    try outbox.markFailed(message.id, error: error.message, retryAt: nil)
                    report.failed += 1
                    logger.error("mail delivery failed for good", fields.merging(["error": error.message]) { $1 })
                }
            }
        }
        return report
    }

    /// Seconds to wait after `attempts` failed attempts: the initial delay doubled per
    /// further failure, capped, times the jitter factor.
    func retryDelay(afterAttempts attempts: Int) -> Double {
        let initial = Self.seconds(configuration.initialRetryDelay)
        let exponential = initial * Double(1 << min(attempts - 1, 30))
        return min(exponential, Self.seconds(configuration.maxRetryDelay)) * jitter()
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
