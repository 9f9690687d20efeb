import FoundationEssentials
import HearthDomain
import HearthStore
import Support

extension PushService {
    /// Registers the native app's FCM registration `token` for `viewer`; registering a token
    /// again answers the same registration. A token names one app install: registered by another
    /// account (someone else signed in on the phone), it moves to the viewer
    /// (``releaseFromOtherAccounts(_:_:)``).
    /// - Throws: `FORBIDDEN` `PROVIDER_DISABLED` when the server has no FCM service account;
    ///   `BAD_USER_INPUT` on `input.token` (`INVALID_FORMAT`: empty, spaces or control
    ///   characters; `TOO_LONG` beyond ``PushConfiguration/maximumEndpointBytes``, which bounds
    ///   tokens as it bounds endpoints); `CONFLICT` `LIMIT_REACHED` beyond the per-user limit.
    public func registerFCM(token: String, viewer: Viewer, clientMutationID: String?) async throws -> FCMRegistrationRecord {
        guard configuration.fcm != nil else {
            throw ServiceError(.forbidden, reason: .providerDisabled, "This server does not send FCM messages: it has no --fcm-service-account.")
        }
        if token.utf8.count > configuration.maximumEndpointBytes {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.token", reason: .tooLong, message: "A registration token is at most \(configuration.maximumEndpointBytes) bytes.")]))
        }
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.token", reason: .invalidFormat, message: "A registration token is printable ASCII without spaces.")]))
        }
        let limit = configuration.maximumSubscriptionsPerUser
        let now = households.clock.storedNow
        let id = try await households.mutate("registerFcmToken", by: viewer, replaying: clientMutationID, at: now) { database in
            let owner = OwnerScope(Owner(viewer), database)
            try Self.releaseFromOtherAccounts(.fcm(token: token), owner)
            if let existing = try owner.scalar(String.self, "SELECT id FROM fcm_registrations WHERE user_id = {owner} AND token = ?", [token]) {
                try owner.execute("UPDATE fcm_registrations SET updated_at = ? WHERE id = ? AND user_id = {owner}", [now, existing])
                return PushSubscriptionReference(pushSubscriptionID: existing)
            }
            try Self.checkRoomForOneMore(owner, limit: limit)
            let id = GlobalID.make(.pushSubscription, now: now).description
            try owner.execute(
                "INSERT INTO fcm_registrations (id, user_id, token, created_at, updated_at) VALUES (?, {owner}, ?, ?, ?)", [id, token, now, now])
            return PushSubscriptionReference(pushSubscriptionID: id)
        }
        guard let record = try await fcmRegistrations(ids: [id.pushSubscriptionID], viewer: viewer).first else {
            throw ServiceError.pushSubscriptionNotFound
        }
        return record
    }

    /// The viewer's FCM registrations, oldest first.
    public func fcmRegistrations(viewer: Viewer) async throws -> [FCMRegistrationRecord] {
        try await pool.readPreferringCallingThread { database in try Self.fcmRegistrations(of: OwnerScope(Owner(viewer), database)) }
    }

    /// The viewer's FCM registrations among `ids` (`node` lookups).
    public func fcmRegistrations(ids: [String], viewer: Viewer) async throws -> [FCMRegistrationRecord] {
        try await records(ids: ids, viewer: viewer) { placeholders in
            "SELECT \(FCMRegistrationRecord.columns) FROM fcm_registrations WHERE user_id = {owner} AND id IN (\(placeholders))"
        }
    }

    /// Every FCM registration of `owner`'s account, oldest first, in the caller's transaction.
    static func fcmRegistrations(of owner: OwnerScope) throws -> [FCMRegistrationRecord] {
        try owner.decode(
            FCMRegistrationRecord.self, "SELECT \(FCMRegistrationRecord.columns) FROM fcm_registrations WHERE user_id = {owner} ORDER BY created_at, id")
    }

    /// Queues an FCM message with `data` for `registration` inside the caller's write
    /// transaction, with a `push.fcm` job. A `collapseKey` replaces the queued message with the
    /// same key to the same registration (and, at FCM, the one not yet on the device).
    /// - Parameter ttl: Seconds FCM keeps the message for an offline device (0 to the configured maximum).
    func enqueueFCM(
        data: [String: String], to registration: FCMRegistrationRecord, collapseKey: String?, ttl: Int, urgency: PushUrgency, in database: Database
    ) throws {
        let owner = OwnerScope(Owner(pushRecipient: registration.userID), database)
        if let collapseKey {
            // The replaced message's job finds no row and does nothing.
            try owner.execute(
                "DELETE FROM fcm_messages WHERE registration_id = ? AND collapse_key = ? AND user_id = {owner}", [registration.id, collapseKey])
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(data), as: UTF8.self)
        guard let messageID = try owner.scalar(
            Int64.self,
            """
            INSERT INTO fcm_messages (registration_id, user_id, data, collapse_key, ttl_seconds, urgency, created_at)
            VALUES (?, {owner}, ?, ?, ?, ?, ?) RETURNING id
            """,
            [registration.id, json, collapseKey, min(max(ttl, 0), configuration.maximumTTLSeconds), urgency.rawValue, jobs.clock.storedNow])
        else { throw StoreError(extendedCode: .constraint, message: "the FCM message was not queued: its insert returned no id") }
        try jobs.enqueue(kind: .fcmDelivery, payload: FCMDeliveryJob.Payload(messageID: messageID, userID: registration.userID), in: database)
    }
}
