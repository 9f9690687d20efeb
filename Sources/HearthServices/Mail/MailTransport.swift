/// Hands one message to the outside world: an SMTP server, or the development log.
/// ``deliver(_:)`` blocks; the ``MailDeliveryJob`` calls it on a job's thread, never on
/// an event loop or the cooperative pool.
public protocol MailTransport: Sendable {
    /// The transport's name, recorded with each delivered message (`smtp`, `log`).
    var name: String { get }

    /// Delivers `message`, blocking until it is accepted or refused.
    /// - Throws: `MailDeliveryError`, saying whether a later attempt may succeed.
    func deliver(_ message: OutboxMessage) throws(MailDeliveryError)
}

/// Why a transport did not deliver a message.
public struct MailDeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether trying again later may help.
    public enum Code: String, Sendable, Hashable {
        /// A temporary failure (4xx reply, network trouble): the job is retried with backoff.
        case transient
        /// A permanent failure (5xx reply, an invalid address): the message is marked failed.
        case permanent
    }

    /// Whether trying again later may help.
    public var code: Code
    /// What happened, for the outbox's `last_error` and the log.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
