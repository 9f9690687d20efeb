import FoundationEssentials
import HearthStore
import Net
import Support

extension JobKind {
    /// Sends one queued FCM message (``FCMDeliveryJob``).
    public static let fcmDelivery: JobKind = "push.fcm"
}

/// Sends the queued FCM messages, one job each, through FCM's HTTP v1 API: an access token from
/// the service account (``FCMAccessTokens``, kept until it expires), then a POST of
/// `{"message": {"token", "data", "android": {"collapse_key", "priority", "ttl"}, "apns":
/// {"headers": {"apns-collapse-id", "apns-priority", "apns-expiration"}}}}` to the send endpoint.
///
/// What FCM answers decides: 2xx delivered (the row goes); 404, or an error whose `errorCode` is
/// `UNREGISTERED`, the app was uninstalled or its token replaced: the registration is removed
/// with its queued messages; 401 the access token is dropped and the message retried; 429 and
/// 5xx are retried with the scheduler's backoff, not before FCM's `Retry-After` (capped by
/// ``PushConfiguration/maximumRetryAfter``); anything else is permanent (`hearth jobs` shows
/// why). Each outcome is one log line (`push.outcome`).
///
/// Idempotent: a message whose row is gone (delivered, replaced by a newer one with its collapse
/// key, its registration removed) is not sent. At least once: a worker dying between FCM's answer
/// and the row's removal sends it again, and its collapse key makes the copy replace the first.
public struct FCMDeliveryJob: JobHandler {
    /// The job's input: the queued message and its account.
    public typealias Payload = QueuedPushJob

    private let pool: any DatabaseWriter
    private let clock: any ServiceClock
    private let configuration: PushConfiguration
    /// FCM's endpoints and the access tokens for them; nil when the server has no service account.
    private let service: (fcm: FCMConfiguration, client: HTTPClient, tokens: FCMAccessTokens)?
    private let logger: Logger

    /// A handler sending `push`'s queued FCM messages. Without an FCM service account (one removed
    /// since the messages were queued) each job fails for good, saying so.
    public init(push: PushService, logger: Logger) {
        pool = push.pool
        clock = push.jobs.clock
        configuration = push.configuration
        service = push.configuration.fcm.map { fcm in
            // The endpoints are the operator's, not user-supplied: no address policy.
            let client = HTTPClient(configuration: .init(timeout: push.configuration.requestTimeout, tls: push.configuration.tls))
            return (fcm, client, FCMAccessTokens(configuration: fcm, client: client))
        }
        self.logger = logger
    }

    public var kind: JobKind { .fcmDelivery }

    /// One queued message with its registration's token.
    private struct Queued: Decodable {
        var data: String
        var collapseKey: String?
        var ttlSeconds: Int
        var urgency: String
        var registrationID: String
        var token: String

        enum CodingKeys: String, CodingKey {
            case data, urgency, token
            case collapseKey = "collapse_key", ttlSeconds = "ttl_seconds", registrationID = "registration_id"
        }
    }

    /// Sends the job's message unless its row is gone.
    /// - Throws: ``JobFailure``.
    public func run(_ job: Job) throws {
        let input = try job.decodePayload(Payload.self)
        let owner = Owner(pushRecipient: input.userID)
        guard let queued = try pool.read({ database in
            try OwnerScope(owner, database).decodeOne(
                Queued.self,
                """
                SELECT m.data, m.collapse_key, m.ttl_seconds, m.urgency, m.registration_id, r.token
                FROM fcm_messages m JOIN fcm_registrations r ON r.id = m.registration_id AND r.user_id = {owner}
                WHERE m.id = ? AND m.user_id = {owner}
                """,
                [input.messageID])
        }) else { return }
        let attempt = PushAttempt(logger: logger, messageID: input.messageID, subscriptionID: queued.registrationID, job: job)
        try attempt.reportingFailure {
            guard let service else { throw JobFailure(.permanent, "FCM is not configured: the server has no --fcm-service-account") }
            let now = clock.now
            let accessToken = try service.tokens.token(at: now, retryAfterCap: configuration.maximumRetryAfter)
            let response = try send(queued, accessToken: accessToken, to: service.fcm.sendEndpoint, with: service.client, at: now)
            if response.isSuccess {
                try pool.write { database in try input.discard(from: .fcm, in: database) }
                attempt.delivered(status: response.status)
            } else if response.status == 404 || Self.errorCode(of: response) == "UNREGISTERED" {
                try pool.write { database in
                    try OwnerScope(owner, database).execute(
                        "DELETE FROM fcm_registrations WHERE id = ? AND user_id = {owner}", [queued.registrationID])
                }
                attempt.subscriptionRemoved(status: response.status)
            } else if response.status == 401 {
                service.tokens.invalidate(accessToken)
                throw JobFailure(.transient, "FCM refused the access token (401)")
            } else if response.status == 429 || (500...599).contains(response.status) {
                throw JobFailure(.transient, "FCM answered \(response.status)", retryAfter: configuration.honouredRetryAfter(of: response, at: now))
            } else {
                throw JobFailure(.permanent, "FCM answered \(response.status): \(PushAttempt.excerpt(of: response.body))")
            }
        }
    }

    /// POSTs `queued` to `endpoint` with `accessToken`.
    private func send(_ queued: Queued, accessToken: String, to endpoint: HTTPURL, with client: HTTPClient, at now: Date) throws(JobFailure) -> HTTPResponse {
        guard let data = try? JSONDecoder().decode([String: String].self, from: Data(queued.data.utf8)) else {
            throw JobFailure(.permanent, "the queued FCM message's data is not a JSON object of strings")
        }
        let high = queued.urgency == PushUrgency.high.rawValue
        var android: [String: String] = ["priority": high ? "HIGH" : "NORMAL", "ttl": "\(queued.ttlSeconds)s"]
        var apnsHeaders = ["apns-priority": high ? "10" : "5", "apns-expiration": String(Int(now.timeIntervalSince1970) + queued.ttlSeconds)]
        if let collapseKey = queued.collapseKey {
            android["collapse_key"] = collapseKey
            apnsHeaders["apns-collapse-id"] = collapseKey
        }
        let message = Message(message: .init(token: queued.token, data: data, android: android, apns: .init(headers: apnsHeaders)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(message) else { throw JobFailure(.permanent, "the FCM message does not encode") }
        do {
            return try client.post(
                endpoint, headers: [("Authorization", "Bearer " + accessToken), ("Content-Type", "application/json; charset=utf-8")],
                body: Array(body))
        } catch {
            throw JobFailure(.transient, error.description)
        }
    }

    /// The body FCM's `messages:send` takes.
    private struct Message: Encodable {
        struct Content: Encodable {
            var token: String
            var data: [String: String]
            var android: [String: String]
            var apns: APNs
        }

        struct APNs: Encodable {
            var headers: [String: String]
        }

        var message: Content
    }

    /// The `errorCode` of FCM's error answer (`error.details[].errorCode`, e.g. `UNREGISTERED`).
    private static func errorCode(of response: HTTPResponse) -> String? {
        struct Answer: Decodable {
            struct Failure: Decodable {
                struct Detail: Decodable { var errorCode: String? }
                var details: [Detail]?
            }
            var error: Failure?
        }
        return (try? JSONDecoder().decode(Answer.self, from: Data(response.body)))?.error?.details?.compactMap(\.errorCode).first
    }

    /// Gives the queued message up when the job is dead, so nothing waits for it.
    public func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) throws {
        guard retryAt == nil else { return }
        try job.decodePayload(Payload.self).discard(from: .fcm, in: database)
    }
}
