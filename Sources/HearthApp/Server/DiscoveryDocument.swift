import GraphQL
import HearthHTTP
import HearthServices

/// The document `GET /.well-known/hearth` answers (FR-68): what a client needs once a person
/// has typed a server's address, before anyone signs in. Its shape is in the README
/// ("Discovery"); fields are only ever added.
struct DiscoveryDocument: Sendable {
    /// The version of the API the document describes: the GraphQL schema evolves without
    /// breaking changes (fields are deprecated, never removed), so this changes only if that
    /// promise is ever broken.
    static let apiVersion = 1

    /// The public base URL when one was configured (`--public-base-url`); nil derives the base
    /// from each request (``RequestedOrigin``), for a server reached under several names or
    /// set up without one.
    let configuredBaseURL: PublicBaseURL?
    /// The base when no origin can be derived from a request (a missing or odd `Host`).
    let fallbackBaseURL: PublicBaseURL
    /// The sign-in methods enabled here: `PASSWORD` always, `GOOGLE` and `APPLE` when configured.
    let signInMethods: [SignInMethod]
    /// The Web Push VAPID public key (always: the server makes one on first start).
    let vapidPublicKey: String
    /// The Firebase project of the native apps' pushes; nil without `--fcm-service-account`.
    let fcmProjectID: String?
    /// Who may create an account.
    let registration: RegistrationPolicy
    /// The current terms of service.
    let termsVersion: String
    /// Where they are published, if configured.
    let termsURL: String?

    /// The base URL for a request to `origin` (what the client addressed).
    func baseURL(requestedOrigin origin: RequestedOrigin?) -> String {
        if let configuredBaseURL { return configuredBaseURL.description }
        return origin?.description ?? fallbackBaseURL.description
    }

    /// The document for a request whose base URL is `base`.
    func json(baseURL base: String) -> JSON {
        let webSocketBase = base.hasPrefix("https://") ? "wss://" + base.dropFirst(8) : "ws://" + base.dropFirst(7)
        return [
            "apiVersion": .int(Self.apiVersion),
            "serverVersion": .string(BuildInfo.version),
            "baseUrl": .string(base),
            "graphql": [
                "httpUrl": .string(base + "/graphql"),
                "webSocketUrl": .string(webSocketBase + "/graphql"),
                "webSocketProtocol": "graphql-transport-ws",
            ],
            "features": [
                "signInMethods": .array(signInMethods.map { .string($0.rawValue) }),
                "push": [
                    "webPush": ["vapidPublicKey": .string(vapidPublicKey)],
                    "fcm": fcmProjectID.map { ["projectId": .string($0)] } ?? .null,
                ],
                "registration": .string(registration.rawValue),
            ],
            "terms": ["version": .string(termsVersion), "url": termsURL.map(JSON.string) ?? .null],
        ]
    }
}
