import FoundationEssentials
import HearthServices
import JOSE
import Net

/// The options of Web Push and FCM (issue 18) and of connections to user-supplied URLs: the VAPID
/// contact, the limits, the outbound address policy, and FCM's service account and endpoints.
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
    /// The longest wait a push service's `Retry-After` imposes.
    var maximumRetryAfter: Duration
    /// The TTL of a notice whose due time is not ahead, in seconds.
    var defaultNoticeTTLSeconds: Int
    /// FCM, when `--fcm-service-account` names a key file.
    var fcm: FCMConfiguration?

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--vapid-subject", "URI", environment: "HEARTH_VAPID_SUBJECT", default: nil,
               help: "The contact push services may reach about this server's pushes (VAPID `sub`): a mailto: or https: URI. Default: mailto: and the --mail-from address."),
        .value("--max-push-subscriptions-per-user", "N", environment: "HEARTH_MAX_PUSH_SUBSCRIPTIONS_PER_USER", default: "20",
               help: "The most Web Push subscriptions (browsers, UnifiedPush distributors) one user may register (1 to 1,000)."),
        .value("--max-push-endpoint-bytes", "N", environment: "HEARTH_MAX_PUSH_ENDPOINT_BYTES", default: "2048",
               help: "The longest push endpoint URL (and FCM registration token) accepted, in bytes (256 to 8,192)."),
        .value("--push-max-ttl", "DURATION", environment: "HEARTH_PUSH_MAX_TTL", default: "28d",
               help: "The longest a push may ask a push service to keep it for an offline device (0 to 28 d)."),
        .value("--push-timeout", "DURATION", environment: "HEARTH_PUSH_TIMEOUT", default: "30s",
               help: "How long one delivery to a push service may take, connecting included (1 s to 5 m)."),
        .toggle("--outbound-allow-loopback",
                help: "Let push deliveries and calendar feed fetches (user-supplied URLs) reach loopback addresses (127.0.0.0/8, ::1). For tests and development only; never in production."),
        .value("--outbound-ca-file", "PATH", environment: "HEARTH_OUTBOUND_CA_FILE",
               help: "PEM file of certificate authorities to trust for push services, FCM's endpoints and calendar feeds (user-supplied https URLs) instead of the system's store."),
        .value("--push-max-retry-after", "DURATION", environment: "HEARTH_PUSH_MAX_RETRY_AFTER", default: "1h",
               help: "The longest a push service's (or FCM's) Retry-After on 429/5xx delays the next attempt; longer is cut to this (1 s to 1 d)."),
        .value("--push-notice-ttl", "DURATION", environment: "HEARTH_PUSH_NOTICE_TTL", default: "1d",
               help: "How long push services keep a notice for an offline device when its chore's due time is not ahead (1 m to 28 d, at most --push-max-ttl)."),
        .value("--fcm-service-account", "PATH", environment: "HEARTH_FCM_SERVICE_ACCOUNT",
               help: "The Google service account key file (JSON) to send Firebase Cloud Messaging messages to the native apps with; its project_id is the Firebase project. Unset: no FCM."),
        .value("--fcm-token-endpoint", "URL", environment: "HEARTH_FCM_TOKEN_ENDPOINT", default: FCMConfiguration.googleTokenEndpoint,
               help: "Where the service account's signed assertion is exchanged for an access token."),
        .value("--fcm-send-endpoint", "URL", environment: "HEARTH_FCM_SEND_ENDPOINT", default: nil,
               help: "FCM's HTTP v1 send endpoint. Default: https://fcm.googleapis.com/v1/projects/<project_id>/messages:send."),
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
        maximumRetryAfter = try options.duration("--push-max-retry-after", in: .seconds(1) ... .seconds(86400)) ?? .seconds(3600)
        let noticeTTL = try options.duration("--push-notice-ttl", in: .seconds(60) ... .seconds(28 * 86400)) ?? .seconds(86400)
        defaultNoticeTTLSeconds = min(Int(noticeTTL.components.seconds), maximumTTLSeconds)
        fcm = try Self.fcm(options)
    }

    /// FCM's configuration from `--fcm-service-account` and the endpoints; nil without a key file.
    /// - Throws: `UsageError` for a key file that cannot be read or is not a service account's, or an endpoint that is no https URL.
    private static func fcm(_ options: ParsedOptions) throws -> FCMConfiguration? {
        guard let path = options.string("--fcm-service-account"), !path.isEmpty else { return nil }
        guard let contents = FileManager.default.contents(atPath: path) else {
            throw UsageError(message: "--fcm-service-account: cannot read '\(path)'")
        }
        let account: FCMServiceAccount
        do {
            account = try FCMServiceAccount(json: Array(contents))
        } catch {
            throw UsageError(message: "--fcm-service-account '\(path)' is not a service account key file: \(error)")
        }
        func endpoint(_ option: String, _ fallback: String) throws -> HTTPURL {
            let text = options.string(option) ?? fallback
            guard let url = try? HTTPURL(text), url.isSecure else { throw UsageError(message: "\(option) must be an https:// URL, not '\(text)'") }
            return url
        }
        return FCMConfiguration(
            serviceAccount: account, tokenEndpoint: try endpoint("--fcm-token-endpoint", FCMConfiguration.googleTokenEndpoint),
            sendEndpoint: try endpoint("--fcm-send-endpoint", FCMConfiguration.googleSendEndpoint(projectID: account.projectID)))
    }

    /// The push service's configuration with the server's VAPID key.
    /// - Throws: `UsageError` when `--outbound-ca-file` cannot be loaded.
    func configuration(vapidKey: SigningKey) throws -> PushConfiguration {
        PushConfiguration(
            vapid: VAPIDAuthorization(key: vapidKey, subject: vapidSubject), maximumSubscriptionsPerUser: maximumSubscriptionsPerUser,
            maximumEndpointBytes: maximumEndpointBytes, maximumTTLSeconds: maximumTTLSeconds, requestTimeout: requestTimeout,
            addressPolicy: outboundPolicy, tls: try outboundTLS(), maximumRetryAfter: maximumRetryAfter,
            defaultNoticeTTLSeconds: defaultNoticeTTLSeconds, fcm: fcm)
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
