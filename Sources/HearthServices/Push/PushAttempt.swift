import HearthStore
import Support

/// The input of a push delivery job (`push.deliver`, `push.fcm`): the queued row and the
/// account it is for (the owner its rows are read for; delivery has no viewer).
public struct QueuedPushJob: Codable, Sendable, Hashable {
    /// The queued row (`push_messages`, `fcm_messages`).
    public var messageID: Int64
    /// The account the push is for.
    public var userID: String

    /// The table a queued push waits in.
    enum Table {
        /// `push_messages`: Web Push (``PushDeliveryJob``).
        case webPush
        /// `fcm_messages`: FCM (``FCMDeliveryJob``).
        case fcm
    }

    /// Removes the queued row from `table`: delivered, or given up when its job is dead.
    func discard(from table: Table, in database: Database) throws {
        let owner = OwnerScope(Owner(pushRecipient: userID), database)
        switch table {
        case .webPush: try owner.execute("DELETE FROM push_messages WHERE id = ? AND user_id = {owner}", [messageID])
        case .fcm: try owner.execute("DELETE FROM fcm_messages WHERE id = ? AND user_id = {owner}", [messageID])
        }
    }
}

/// One delivery attempt's log lines, the same for Web Push and FCM: each outcome one line with
/// `push.id`, `push.subscription`, `push.attempt`, `push.status` and `push.outcome`
/// (`delivered`, `subscription_removed`, `retry`, `failed`).
struct PushAttempt {
    let logger: Logger
    let fields: [String: String]

    /// The attempt of `job` at queued row `messageID` for `subscriptionID`.
    init(logger: Logger, messageID: Int64, subscriptionID: String, job: Job) {
        self.logger = logger
        fields = ["push.id": String(messageID), "push.subscription": subscriptionID, "push.attempt": String(job.attempts)]
    }

    /// Logs that the service accepted it with `status`.
    func delivered(status: Int) {
        logger.info("push sent", outcome("delivered", status: status))
    }

    /// Logs that the service reported the subscription gone with `status`.
    func subscriptionRemoved(status: Int) {
        logger.notice("push subscription removed", outcome("subscription_removed", status: status))
    }

    /// Runs `body`, logging a ``JobFailure`` it throws (a retry or a failure) before rethrowing it.
    func reportingFailure(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as JobFailure {
            let outcome = failure.code == .transient ? "retry" : "failed"
            logger.notice("push not delivered", fields.merging(["push.outcome": outcome, "push.error": failure.message]) { $1 })
            throw failure
        }
    }

    private func outcome(_ outcome: String, status: Int) -> [String: String] {
        fields.merging(["push.status": String(status), "push.outcome": outcome]) { $1 }
    }

    /// The start of a push service's (or FCM's) error body, on one line, for the job's last error.
    static func excerpt(of body: [UInt8]) -> String {
        String(decoding: body.prefix(200), as: UTF8.self).filter { !$0.isNewline }
    }
}
