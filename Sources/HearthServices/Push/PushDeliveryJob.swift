import FoundationEssentials
import HearthStore
import Net
import Support

extension JobKind {
    /// Sends one queued Web Push (``PushDeliveryJob``).
    public static let pushDelivery: JobKind = "push.deliver"
}

/// Sends the queued pushes, one job each: encrypts the payload for the subscription (RFC 8291,
/// afresh on every attempt), signs a VAPID token for the endpoint's origin (RFC 8292) and POSTs
/// it with `TTL`, `Urgency` and, when set, `Topic`, connecting only where the outbound address
/// policy permits.
///
/// What the push service answers decides: 2xx delivered (the queued row goes); 404 or 410 the
/// subscription is gone (expired, or the user revoked permission) and is removed with its
/// queued pushes; 429 and 5xx are transient, retried with the scheduler's backoff but not before
/// the service's `Retry-After` (capped by ``PushConfiguration/maximumRetryAfter``); any other
/// answer, an endpoint the policy refuses and an unusable key are permanent (the row goes and
/// the job is dead, `hearth jobs` shows why). Each outcome is one log line (`push.outcome`).
///
/// Idempotent: a push whose row is gone (delivered, replaced by a newer one with its topic, its
/// subscription removed) is not sent. Delivery is at least once: a worker that dies between
/// the push service's answer and the row's removal sends the push again; a `Topic` makes the
/// second copy replace the first at the push service.
public struct PushDeliveryJob: JobHandler {
    /// The job's input: the queued push and its account.
    public typealias Payload = QueuedPushJob

    private let pool: any DatabaseWriter
    private let clock: any ServiceClock
    private let configuration: PushConfiguration
    /// The client of every delivery, connecting only where the address policy permits.
    private let client: HTTPClient
    private let logger: Logger

    /// A handler sending `push`'s queued pushes.
    public init(push: PushService, logger: Logger) {
        pool = push.pool
        clock = push.jobs.clock
        configuration = push.configuration
        client = HTTPClient(configuration: .init(
            timeout: push.configuration.requestTimeout, tls: push.configuration.tls, addressPolicy: push.configuration.addressPolicy))
        self.logger = logger
    }

    public var kind: JobKind { .pushDelivery }

    /// One queued push with its subscription.
    private struct Queued: Decodable {
        var payload: String
        var topic: String?
        var ttlSeconds: Int
        var urgency: String
        var subscriptionID: String
        var endpoint: String
        var p256dh: String
        var auth: String

        enum CodingKeys: String, CodingKey {
            case payload, topic, urgency, endpoint, p256dh, auth
            case ttlSeconds = "ttl_seconds", subscriptionID = "subscription_id"
        }
    }

    /// Sends the job's push unless its row is gone.
    /// - Throws: ``JobFailure``: transient for 429, 5xx and network trouble; permanent otherwise.
    public func run(_ job: Job) throws {
        let input = try job.decodePayload(Payload.self)
        let owner = Owner(pushRecipient: input.userID)
        guard let queued = try pool.read({ database in
            try OwnerScope(owner, database).decodeOne(
                Queued.self,
                """
                SELECT m.payload, m.topic, m.ttl_seconds, m.urgency, m.subscription_id, s.endpoint, s.p256dh, s.auth
                FROM push_messages m JOIN push_subscriptions s ON s.id = m.subscription_id AND s.user_id = {owner}
                WHERE m.id = ? AND m.user_id = {owner}
                """,
                [input.messageID])
        }) else { return }
        let attempt = PushAttempt(logger: logger, messageID: input.messageID, subscriptionID: queued.subscriptionID, job: job)
        try attempt.reportingFailure {
            let response = try send(queued)
            switch response.status {
            case 200..<300:
                try pool.write { database in try input.discard(from: .webPush, in: database) }
                attempt.delivered(status: response.status)
            case 404, 410:
                try pool.write { database in
                    try OwnerScope(owner, database).execute(
                        "DELETE FROM push_subscriptions WHERE id = ? AND user_id = {owner}", [queued.subscriptionID])
                }
                attempt.subscriptionRemoved(status: response.status)
            case 429, 500...599:
                throw JobFailure(
                    .transient, "the push service answered \(response.status)", retryAfter: configuration.honouredRetryAfter(of: response, at: clock.now))
            default:
                throw JobFailure(.permanent, "the push service answered \(response.status): \(PushAttempt.excerpt(of: response.body))")
            }
        }
    }

    /// Encrypts, signs and POSTs `queued`.
    private func send(_ queued: Queued) throws(JobFailure) -> HTTPResponse {
        let url: HTTPURL
        let body: [UInt8]
        do {
            url = try HTTPURL(queued.endpoint)
            guard let plaintext = Base64URL.decode(queued.payload), let key = Base64URL.decode(queued.p256dh),
                let auth = Base64URL.decode(queued.auth)
            else { throw JobFailure(.permanent, "the queued push or its subscription is not base64url") }
            body = try WebPushEncryption.encrypt(plaintext, receiverKey: key, authSecret: auth)
        } catch let failure as JobFailure {
            throw failure
        } catch {
            throw JobFailure(.permanent, "\(error)")
        }
        var headers = [
            ("Authorization", configuration.vapid.header(for: url, at: clock.now)),
            ("Content-Encoding", "aes128gcm"),
            ("Content-Type", "application/octet-stream"),
            ("TTL", String(queued.ttlSeconds)),
            ("Urgency", queued.urgency),
        ]
        if let topic = queued.topic { headers.append(("Topic", topic)) }
        do {
            return try client.post(url, headers: headers, body: body)
        } catch {
            switch error.code {
            case .addressRefused, .invalidURL, .certificateRejected: throw JobFailure(.permanent, error.description)
            default: throw JobFailure(.transient, error.description)
            }
        }
    }

    /// Gives the queued push up when the job is dead, so nothing waits for it.
    public func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) throws {
        guard retryAt == nil else { return }
        try job.decodePayload(Payload.self).discard(from: .webPush, in: database)
    }
}
