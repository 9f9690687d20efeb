import FoundationEssentials
import HearthDomain
import HearthStore
import JOSE
import Net
import Support

/// Web Push subscriptions, FCM registrations of the native apps, and the pushes sent to them (issue 18).
///
/// - **Subscribing** (`registerPushSubscription`, `unregisterPushSubscription`, the viewer's
///   list): a browser's endpoint with its `p256dh` key and `auth` secret, checked before they are
///   stored (an `https://` URL whose host, when written as an address, is one the outbound policy
///   permits; a P-256 point; 16 bytes). Registering an endpoint the user has already registered
///   replaces its keys. At most ``PushConfiguration/maximumSubscriptionsPerUser`` per user.
/// - **Delivering** (``deliver(payload:to:topic:ttl:urgency:)``, the entry point of reminders and
///   notices): queues the push (`push_messages`) and a durable `push.deliver` job
///   (``PushDeliveryJob``) in one transaction. A push with a `topic` replaces the user's queued
///   push with the same topic to the same subscription (and, through the `Topic` header, the one
///   still waiting at the push service).
/// - **FCM** (`registerFcmToken`): a native app's registration token,
///   when the server has a service account (``PushConfiguration/fcm``); its messages go through
///   FCM's HTTP v1 API, one durable `push.fcm` job each (``FCMDeliveryJob``). Web Push
///   subscriptions and FCM registrations share the per-user limit and the `psh_` ids.
public final class PushService: Sendable {
    /// Limits, the VAPID identity, and where deliveries may connect.
    public let configuration: PushConfiguration
    /// Households: the store, the clock and replay-protected transactions.
    let households: HouseholdService
    /// Where delivery jobs are enqueued.
    let jobs: JobQueue

    /// Creates the service.
    public init(configuration: PushConfiguration, households: HouseholdService, jobs: JobQueue) {
        self.configuration = configuration
        self.households = households
        self.jobs = jobs
    }

    var pool: any DatabaseWriter { households.pool }

    // MARK: Subscribing

    /// What `registerPushSubscription` is given: the browser's `PushSubscription` as its
    /// `toJSON()` spells it.
    public struct Registration: Sendable {
        /// The push service's URL.
        public var endpoint: String
        /// The browser's P-256 public key, base64url.
        public var p256dh: String
        /// The browser's authentication secret, base64url.
        public var auth: String

        /// A registration.
        public init(endpoint: String, p256dh: String, auth: String) {
            self.endpoint = endpoint
            self.p256dh = p256dh
            self.auth = auth
        }
    }

    /// Registers `registration` for `viewer`, or replaces the keys of the viewer's subscription
    /// with the same endpoint. An endpoint belongs to one browser, so to one account: registered
    /// by another account (someone else signed in on it), it moves to the viewer, and what was
    /// queued for the account before goes with its old subscription (``releaseFromOtherAccounts(_:_:)``).
    /// - Throws: `BAD_USER_INPUT` naming each field at fault (`input.endpoint`,
    ///   `input.keys.p256dh`, `input.keys.auth`); `CONFLICT` `LIMIT_REACHED` beyond the limit.
    public func register(_ registration: Registration, viewer: Viewer, clientMutationID: String?) async throws -> PushSubscriptionRecord {
        try validate(registration)
        let limit = configuration.maximumSubscriptionsPerUser
        let now = households.clock.storedNow
        let id = try await households.mutate("registerPushSubscription", by: viewer, replaying: clientMutationID, at: now) { database in
            let owner = OwnerScope(Owner(viewer), database)
            try Self.releaseFromOtherAccounts(.webPush(endpoint: registration.endpoint), owner)
            if let existing = try owner.scalar(
                String.self, "SELECT id FROM push_subscriptions WHERE user_id = {owner} AND endpoint = ?", [registration.endpoint])
            {
                try owner.execute(
                    "UPDATE push_subscriptions SET p256dh = ?, auth = ?, updated_at = ? WHERE id = ? AND user_id = {owner}",
                    [registration.p256dh, registration.auth, now, existing])
                return PushSubscriptionReference(pushSubscriptionID: existing)
            }
            try Self.checkRoomForOneMore(owner, limit: limit)
            let id = GlobalID.make(.pushSubscription, now: now).description
            try owner.execute(
                """
                INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at, updated_at)
                VALUES (?, {owner}, ?, ?, ?, ?, ?)
                """,
                [id, registration.endpoint, registration.p256dh, registration.auth, now, now])
            return PushSubscriptionReference(pushSubscriptionID: id)
        }
        guard let record = try await subscriptions(ids: [id.pushSubscriptionID], viewer: viewer).first else {
            throw ServiceError.pushSubscriptionNotFound
        }
        return record
    }

    /// Removes the viewer's subscription `id`; queued pushes to it go with it.
    /// - Returns: The id.
    /// - Throws: `NOT_FOUND` when the viewer has no such subscription.
    public func unregister(id: String, viewer: Viewer, clientMutationID: String?) async throws -> String {
        guard GlobalID.mayName(.pushSubscription, id) else { throw ServiceError.pushSubscriptionNotFound }
        let now = households.clock.storedNow
        let removed = try await households.mutate("unregisterPushSubscription", by: viewer, replaying: clientMutationID, at: now) { database in
            let owner = OwnerScope(Owner(viewer), database)
            // An id names a Web Push subscription or an FCM registration (both `psh_…`).
            guard try owner.scalar(String.self, "DELETE FROM push_subscriptions WHERE id = ? AND user_id = {owner} RETURNING id", [id]) != nil
                || owner.scalar(String.self, "DELETE FROM fcm_registrations WHERE id = ? AND user_id = {owner} RETURNING id", [id]) != nil
            else { throw ServiceError.pushSubscriptionNotFound }
            return PushSubscriptionReference(pushSubscriptionID: id)
        }
        return removed.pushSubscriptionID
    }

    /// The viewer's subscriptions, oldest first (at most the per-user limit).
    public func subscriptions(viewer: Viewer) async throws -> [PushSubscriptionRecord] {
        try await subscriptions(of: Owner(viewer))
    }

    /// The viewer's subscriptions among `ids` (`node` lookups).
    public func subscriptions(ids: [String], viewer: Viewer) async throws -> [PushSubscriptionRecord] {
        try await records(ids: ids, viewer: viewer) { placeholders in
            "SELECT \(PushSubscriptionRecord.columns) FROM push_subscriptions WHERE user_id = {owner} AND id IN (\(placeholders))"
        }
    }

    /// The viewer's rows among `ids` (`psh_…`, others skipped without a read), selected by the
    /// statement `select` makes from the ids' placeholders.
    func records<Record: Decodable & Sendable>(
        ids: [String], viewer: Viewer, _ select: @escaping @Sendable (String) -> String
    ) async throws -> [Record] {
        let ids = ids.filter { GlobalID.mayName(.pushSubscription, $0) }
        guard !ids.isEmpty else { return [] }
        return try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).decode(
                Record.self, select(Array(repeating: "?", count: ids.count).joined(separator: ", ")), StatementArguments(ids.map { $0 }))
        }
    }

    /// The subscriptions of account `userID`, for the server's own notices to them (no viewer).
    public func subscriptions(ofUser userID: String) async throws -> [PushSubscriptionRecord] {
        try await subscriptions(of: Owner(pushRecipient: userID))
    }

    /// Every subscription of `owner`, oldest first.
    private func subscriptions(of owner: Owner) async throws -> [PushSubscriptionRecord] {
        try await pool.readPreferringCallingThread { database in try Self.subscriptions(of: OwnerScope(owner, database)) }
    }

    /// Every Web Push subscription of `owner`'s account, oldest first, in the caller's transaction.
    static func subscriptions(of owner: OwnerScope) throws -> [PushSubscriptionRecord] {
        try owner.decode(
            PushSubscriptionRecord.self,
            "SELECT \(PushSubscriptionRecord.columns) FROM push_subscriptions WHERE user_id = {owner} ORDER BY created_at, id")
    }

    /// Refuses one more subscription or FCM registration for `owner` when they have `limit` of them together.
    /// - Throws: `CONFLICT` `LIMIT_REACHED`.
    static func checkRoomForOneMore(_ owner: OwnerScope, limit: Int) throws {
        let count = try owner.scalar(
            Int.self,
            """
            SELECT (SELECT count(*) FROM push_subscriptions WHERE user_id = {owner})
                 + (SELECT count(*) FROM fcm_registrations WHERE user_id = {owner})
            """) ?? 0
        guard count < limit else {
            throw ServiceError(
                .conflict, reason: .limitReached,
                "You have \(count) push subscriptions, the most allowed. Unregister a device you no longer use first.")
        }
    }

    /// Checks a registration, reporting every field at fault at once.
    private func validate(_ registration: Registration) throws {
        var problems = ProblemCollector()
        _ = problems.check { () throws(FieldProblem) in try checkEndpoint(registration.endpoint) }
        if let key = Base64URL.decode(registration.p256dh), (try? P256KeyAgreement.validate(publicKey: key)) != nil {} else {
            problems.add(FieldProblem(
                field: "input.keys.p256dh", reason: .invalidFormat,
                message: "p256dh must be the subscription's P-256 public key: 65 bytes, uncompressed, base64url."))
        }
        if Base64URL.decode(registration.auth)?.count != WebPushEncryption.authSecretLength {
            problems.add(FieldProblem(
                field: "input.keys.auth", reason: .invalidFormat, message: "auth must be the subscription's 16-byte secret, base64url."))
        }
        try problems.throwIfAny()
    }

    private func checkEndpoint(_ endpoint: String) throws(FieldProblem) {
        let field = "input.endpoint"
        guard endpoint.utf8.count <= configuration.maximumEndpointBytes else {
            throw FieldProblem(field: field, reason: .tooLong, message: "The endpoint is longer than \(configuration.maximumEndpointBytes) bytes.")
        }
        guard let url = try? HTTPURL(endpoint), url.isSecure else {
            throw FieldProblem(field: field, reason: .invalidFormat, message: "The endpoint must be an https:// URL.")
        }
        // A host written as an address is checked now; a name is checked when it is resolved, at each delivery.
        if let literal = ResolvedAddress.numeric(host: url.host, port: url.port),
            let refusal = configuration.addressPolicy.refusal(of: literal.ipAddress)
        {
            throw FieldProblem(field: field, reason: .notAllowed, message: "The endpoint's address is \(refusal); push services are public.")
        }
    }
}

/// The subscription a mutation's result names, as ``MutationReplay`` stores it.
struct PushSubscriptionReference: Codable {
    var pushSubscriptionID: String
}

extension ServiceError {
    /// A push subscription that does not exist or is another user's.
    public static let pushSubscriptionNotFound = ServiceError(.notFound, "No such push subscription.")
}
