import Support

/// The development transport: delivers nothing, logs a one-line notice per message with
/// its outbox id, and leaves the message readable with `hearth mail show ID` (so links and
/// tokens are at hand for a developer without ever being written to the log).
public struct LogMailTransport: MailTransport {
    public let name = "log"
    private let logger: Logger

    /// A transport noting deliveries in `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    public func deliver(_ message: OutboxMessage) throws(MailDeliveryError) {
        logger.notice("mail kept for reading (development transport): run 'hearth mail show \(message.id)'", [
            "mail.id": String(message.id), "mail.recipients": String(message.recipients.count),
        ])
    }
}
