import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension PushService {
    /// The longest `Topic` (RFC 8030 §5.4).
    public static let maximumTopicLength = 32

    /// Queues `payload` for `subscription` and a durable `push.deliver` job to send it, in one
    /// transaction (see ``enqueue(payload:to:topic:ttl:urgency:in:)``).
    /// - Throws: as ``enqueue(payload:to:topic:ttl:urgency:in:)``.
    public func deliver(
        payload: [UInt8], to subscription: PushSubscriptionRecord, topic: String? = nil, ttl: Int, urgency: PushUrgency = .normal
    ) async throws {
        try await pool.write { [self] database in
            try enqueue(payload: payload, to: subscription, topic: topic, ttl: ttl, urgency: urgency, in: database)
        }
    }

    /// Queues `payload` (at most 3,993 bytes, encrypted when sent) for `subscription` inside the
    /// caller's write transaction, with a `push.deliver` job. A `topic` replaces the queued push
    /// with the same topic to the same subscription.
    /// - Parameters:
    ///   - topic: The `Topic` header: at most 32 base64url characters; nil for none.
    ///   - ttl: Seconds the push service keeps the push for an offline device (0 to the configured maximum).
    /// - Throws: `BAD_USER_INPUT` naming `payload` (`TOO_LARGE`), `topic` (`INVALID_FORMAT`) or
    ///   `ttl` (`OUT_OF_RANGE`); ``StoreError``.
    public func enqueue(
        payload: [UInt8], to subscription: PushSubscriptionRecord, topic: String?, ttl: Int, urgency: PushUrgency, in database: Database
    ) throws {
        try validate(payload: payload, topic: topic, ttl: ttl)
        let owner = OwnerScope(Owner(pushRecipient: subscription.userID), database)
        if let topic {
            // The replaced push's job finds no row and does nothing.
            try owner.execute(
                "DELETE FROM push_messages WHERE subscription_id = ? AND topic = ? AND user_id = {owner}", [subscription.id, topic])
        }
        guard let messageID = try owner.scalar(
            Int64.self,
            """
            INSERT INTO push_messages (subscription_id, user_id, payload, topic, ttl_seconds, urgency, created_at)
            VALUES (?, {owner}, ?, ?, ?, ?, ?) RETURNING id
            """,
            [subscription.id, Base64URL.encode(payload), topic, ttl, urgency.rawValue, jobs.clock.storedNow])
        else { throw StoreError(extendedCode: .constraint, message: "the push was not queued: its insert returned no id") }
        try jobs.enqueue(kind: .pushDelivery, payload: PushDeliveryJob.Payload(messageID: messageID, userID: subscription.userID), in: database)
    }

    private func validate(payload: [UInt8], topic: String?, ttl: Int) throws {
        var problems: [FieldProblem] = []
        if payload.count > WebPushEncryption.maximumPlaintextBytes {
            problems.append(FieldProblem(
                field: "payload", reason: .tooLarge,
                message: "A push carries at most \(WebPushEncryption.maximumPlaintextBytes) bytes, not \(payload.count)."))
        }
        if let topic, !Self.isValidTopic(topic) {
            problems.append(FieldProblem(
                field: "topic", reason: .invalidFormat,
                message: "A topic is 1 to \(Self.maximumTopicLength) characters of the base64url alphabet (A–Z, a–z, 0–9, - and _)."))
        }
        if !(0...configuration.maximumTTLSeconds).contains(ttl) {
            problems.append(FieldProblem(
                field: "ttl", reason: .outOfRange, message: "The TTL is 0 to \(configuration.maximumTTLSeconds) seconds."))
        }
        if !problems.isEmpty { throw ServiceError.invalid(InputProblems(problems)) }
    }

    /// Whether `topic` may be sent as a `Topic` header: 1 to 32 characters of the URL- and
    /// filename-safe base64 alphabet (RFC 8030 §5.4).
    public static func isValidTopic(_ topic: String) -> Bool {
        (1...maximumTopicLength).contains(topic.utf8.count)
            && topic.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }
}
