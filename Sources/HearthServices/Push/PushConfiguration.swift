import Net

/// Web Push's settings (`--vapid-subject`, `--max-push-subscriptions-per-user`, `--push-*`,
/// `--outbound-*`).
public struct PushConfiguration: Sendable {
    /// The server's VAPID identity: its key (from the key directory) and contact.
    public var vapid: VAPIDAuthorization
    /// The most subscriptions one user may register; one more is `CONFLICT` `LIMIT_REACHED`.
    public var maximumSubscriptionsPerUser: Int
    /// The longest endpoint URL accepted, in bytes; longer is `BAD_USER_INPUT` `TOO_LONG`.
    public var maximumEndpointBytes: Int
    /// The longest TTL a push may ask the push service to keep it for, in seconds.
    public var maximumTTLSeconds: Int
    /// How long one delivery attempt may take, connecting included.
    public var requestTimeout: Duration
    /// Where deliveries may connect (endpoints are user-supplied URLs).
    public var addressPolicy: OutboundAddressPolicy
    /// The TLS client of deliveries; nil trusts the system's CA store.
    public var tls: TLSClient?

    /// The settings.
    public init(
        vapid: VAPIDAuthorization, maximumSubscriptionsPerUser: Int = 20, maximumEndpointBytes: Int = 2048,
        maximumTTLSeconds: Int = 28 * 86400, requestTimeout: Duration = .seconds(30),
        addressPolicy: OutboundAddressPolicy = OutboundAddressPolicy(), tls: TLSClient? = nil
    ) {
        self.vapid = vapid
        self.maximumSubscriptionsPerUser = maximumSubscriptionsPerUser
        self.maximumEndpointBytes = maximumEndpointBytes
        self.maximumTTLSeconds = maximumTTLSeconds
        self.requestTimeout = requestTimeout
        self.addressPolicy = addressPolicy
        self.tls = tls
    }
}
