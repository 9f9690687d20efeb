import HearthServices
import JOSE
import Net

/// The options of Web Push (issue 18) and of connections to user-supplied URLs: the VAPID
/// contact, the limits, and the outbound address policy.
struct PushSettings: Sendable {
    /// The VAPID `sub` claim: `mailto:` or `https:`.
    var vapidSubject: String
    /// The most subscriptions per user.
    var maximumSubscriptionsPerUser: Int
    /// The longest endpoint URL, in bytes.
    var maximumEndpointBytes: Int
    /// The longest TTL of a push, in seconds.
    var maximumTTLSeconds: Int
    /// How long one delivery attempt may take.
    var requestTimeout: Duration
    /// Whether loopback addresses may be reached (tests and development only).
    var allowsLoopback: Bool
    /// PEM certificate authorities trusted for outbound HTTPS instead of the system's store.
    var certificateAuthorityFile: String?

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--vapid-subject", "URI", environment: "HEARTH_VAPID_SUBJECT", default: nil,
               help: "The contact push services may reach about this server's pushes (VAPID `sub`): a mailto: or https: URI. Default: mailto: and the --mail-from address."),
        .value("--max-push-subscriptions-per-user", "N", environment: "HEARTH_MAX_PUSH_SUBSCRIPTIONS_PER_USER", default: "20",
               help: "The most Web Push subscriptions (browsers, UnifiedPush distributors) one user may register (1 to 1,000)."),
        .value("--max-push-endpoint-bytes", "N", environment: "HEARTH_MAX_PUSH_ENDPOINT_BYTES", default: "2048",
               help: "The longest push endpoint URL accepted, in bytes (256 to 8,192)."),
        .value("--push-max-ttl", "DURATION", environment: "HEARTH_PUSH_MAX_TTL", default: "28d",
               help: "The longest a push may ask a push service to keep it for an offline device (0 to 28 d)."),
        .value("--push-timeout", "DURATION", environment: "HEARTH_PUSH_TIMEOUT", default: "30s",
               help: "How long one delivery to a push service may take, connecting included (1 s to 5 m)."),
        .toggle("--outbound-allow-loopback",
                help: "Let push deliveries and calendar feed fetches (user-supplied URLs) reach loopback addresses (127.0.0.0/8, ::1). For tests and development only; never in production."),
        .value("--outbound-ca-file", "PATH", environment: "HEARTH_OUTBOUND_CA_FILE",
               help: "PEM file of certificate authorities to trust for push services and calendar feeds (user-supplied https URLs) instead of the system's store."),
    ]

    /// Reads the settings.
    /// - Parameter sender: The `--mail-from` address, the default contact.
    /// - Throws: `UsageError` for a value out of range or a subject that is not `mailto:`/`https:`.
    init(_ options: ParsedOptions, sender: String) throws {
        vapidSubject = options.string("--vapid-subject") ?? "mailto:" + sender
        guard vapidSubject.hasPrefix("mailto:") || vapidSubject.hasPrefix("https://"), vapidSubject.count > "mailto:".count else {
            throw UsageError(message: "--vapid-subject must be a mailto: or https: URI, not '\(vapidSubject)'")
        }
        maximumSubscriptionsPerUser = try options.integer("--max-push-subscriptions-per-user", in: 1...1_000) ?? 20
        maximumEndpointBytes = try options.integer("--max-push-endpoint-bytes", in: 256...8_192) ?? 2048
        let ttl = try options.duration("--push-max-ttl", in: .zero ... .seconds(28 * 86400)) ?? .seconds(28 * 86400)
        maximumTTLSeconds = Int(ttl.components.seconds)
        requestTimeout = try options.duration("--push-timeout", in: .seconds(1) ... .seconds(300)) ?? .seconds(30)
        allowsLoopback = try options.isOn("--outbound-allow-loopback")
        certificateAuthorityFile = options.string("--outbound-ca-file").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The push service's configuration with the server's VAPID key.
    /// - Throws: `UsageError` when `--outbound-ca-file` cannot be loaded.
    func configuration(vapidKey: SigningKey) throws -> PushConfiguration {
        PushConfiguration(
            vapid: VAPIDAuthorization(key: vapidKey, subject: vapidSubject), maximumSubscriptionsPerUser: maximumSubscriptionsPerUser,
            maximumEndpointBytes: maximumEndpointBytes, maximumTTLSeconds: maximumTTLSeconds, requestTimeout: requestTimeout,
            addressPolicy: outboundPolicy, tls: try outboundTLS())
    }

    /// Where connections to user-supplied URLs may go (push endpoints, calendar feeds).
    var outboundPolicy: OutboundAddressPolicy { OutboundAddressPolicy(allowsLoopback: allowsLoopback) }

    /// The TLS client of connections to user-supplied URLs: nil trusts the system's store.
    /// - Throws: `UsageError` when `--outbound-ca-file` cannot be loaded.
    private func outboundTLS() throws -> TLSClient? {
        do {
            return try certificateAuthorityFile.map { file throws(NetworkError) in try TLSClient(configuration: .init(certificateAuthorityFile: file)) }
        } catch {
            throw UsageError(message: "invalid --outbound-ca-file: \(error)")
        }
    }
}
