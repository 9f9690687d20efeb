import FoundationEssentials
import Net

/// Push's settings (`--vapid-subject`, `--max-push-subscriptions-per-user`, `--push-*`,
/// `--outbound-*`, and FCM's `--fcm-*`).
public struct PushConfiguration: Sendable {
    /// The server's VAPID identity: its key (from the key directory) and contact.
    public var vapid: VAPIDAuthorization
    /// The most subscriptions one user may register; one more is `CONFLICT` `LIMIT_REACHED`.
    public var maximumSubscriptionsPerUser: Int
    /// The longest endpoint URL (and FCM registration token) accepted, in bytes; longer is `BAD_USER_INPUT` `TOO_LONG`.
    public var maximumEndpointBytes: Int
    /// The longest TTL a push may ask the push service to keep it for, in seconds.
    public var maximumTTLSeconds: Int
    /// How long one delivery attempt may take, connecting included.
    public var requestTimeout: Duration
    /// Where deliveries may connect (endpoints are user-supplied URLs).
    public var addressPolicy: OutboundAddressPolicy
    /// The TLS client of deliveries; nil trusts the system's CA store.
    public var tls: TLSClient?
    /// The longest a push service's `Retry-After` (on 429 and 5xx) delays the next attempt; a
    /// longer one is cut to this.
    public var maximumRetryAfter: Duration
    /// How long a push service keeps a notice for an offline device when the notice says no
    /// sooner time (a due time ahead): notices about no instance, and reminders at or past due.
    public var defaultNoticeTTLSeconds: Int
    /// Firebase Cloud Messaging for the native apps; nil when no service account is configured.
    public var fcm: FCMConfiguration?

    /// The settings.
    public init(
        vapid: VAPIDAuthorization, maximumSubscriptionsPerUser: Int = 20, maximumEndpointBytes: Int = 2048,
        maximumTTLSeconds: Int = 28 * 86400, requestTimeout: Duration = .seconds(30),
        addressPolicy: OutboundAddressPolicy = OutboundAddressPolicy(), tls: TLSClient? = nil,
        maximumRetryAfter: Duration = .seconds(3600), defaultNoticeTTLSeconds: Int = 86400, fcm: FCMConfiguration? = nil
    ) {
        self.vapid = vapid
        self.maximumSubscriptionsPerUser = maximumSubscriptionsPerUser
        self.maximumEndpointBytes = maximumEndpointBytes
        self.maximumTTLSeconds = maximumTTLSeconds
        self.requestTimeout = requestTimeout
        self.addressPolicy = addressPolicy
        self.tls = tls
        self.maximumRetryAfter = maximumRetryAfter
        self.defaultNoticeTTLSeconds = defaultNoticeTTLSeconds
        self.fcm = fcm
    }

    /// The wait `response`'s `Retry-After` asks for as of `now`, at most ``maximumRetryAfter``.
    func honouredRetryAfter(of response: HTTPResponse, at now: Date) -> Duration? {
        response.retryAfter(at: now).map { min($0, maximumRetryAfter) }
    }
}
