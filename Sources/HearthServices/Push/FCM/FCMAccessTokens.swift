import FoundationEssentials
import JOSE
import Net
import Support
import Synchronization

/// The access tokens FCM's send endpoint takes, from OAuth 2.0's service-account flow (RFC 7523,
/// as Google documents it): a JWT signed with the service account's RSA key (RS256; `iss` the
/// account's email, `scope` FCM's, `aud` the token endpoint, an hour's life) POSTed as
/// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, answered with an access token and
/// its lifetime. A token is kept and reused until a minute before it expires, or until FCM
/// refuses it (``invalidate(_:)``).
final class FCMAccessTokens: Sendable {
    /// The scope that lets a token send FCM messages.
    static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// How long each assertion is valid (Google's maximum).
    static let assertionLifetime: Double = 3600
    /// How long before its expiry a token is no longer used.
    static let expiryMargin: Double = 60

    private let configuration: FCMConfiguration
    private let client: HTTPClient
    private let signer: JWTSigner
    private let cached = Mutex<(token: String, expiresAt: Date)?>(nil)

    /// Tokens for `configuration`'s service account, fetched with `client`.
    init(configuration: FCMConfiguration, client: HTTPClient) {
        self.configuration = configuration
        self.client = client
        signer = JWTSigner(key: configuration.serviceAccount.key, keyID: configuration.serviceAccount.privateKeyID, type: "JWT")
    }

    /// A token valid at `now`: the kept one, or a new one from the token endpoint.
    /// - Throws: ``JobFailure``: transient when the endpoint is unreachable or answers 429/5xx
    ///   (with its `Retry-After`), permanent when it refuses the assertion.
    func token(at now: Date, retryAfterCap: Duration) throws(JobFailure) -> String {
        if let kept = cached.withLock({ $0 }), kept.expiresAt.timeIntervalSince(now) > Self.expiryMargin { return kept.token }
        let issuedAt = now.timeIntervalSince1970.rounded(.down)
        let claims = JWTClaims(
            issuer: configuration.serviceAccount.clientEmail, audience: [configuration.tokenEndpoint.description],
            expiresAt: issuedAt + Self.assertionLifetime, issuedAt: issuedAt, additional: ["scope": Self.scope])
        let assertion: String
        do {
            assertion = try signer.sign(claims)
        } catch {
            throw JobFailure(.permanent, "the FCM assertion could not be signed: \(error)")
        }
        // The assertion is base64url and dots: nothing in it needs form encoding.
        let body = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        let response: HTTPResponse
        do {
            response = try client.post(
                configuration.tokenEndpoint, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                body: Array(body.utf8))
        } catch {
            throw JobFailure(.transient, "the FCM token endpoint: \(error)")
        }
        switch response.status {
        case 200..<300:
            guard let answer = try? JSONDecoder().decode(TokenResponse.self, from: Data(response.body)), !answer.access_token.isEmpty else {
                throw JobFailure(.transient, "the FCM token endpoint's answer has no access_token")
            }
            let token = (answer.access_token, now.addingTimeInterval(Double(answer.expires_in ?? 3600)))
            cached.withLock { $0 = token }
            return token.0
        case 429, 500...599:
            throw JobFailure(
                .transient, "the FCM token endpoint answered \(response.status)",
                retryAfter: response.retryAfter(at: now).map { min($0, retryAfterCap) })
        default:
            throw JobFailure(
                .permanent, "the FCM token endpoint refused the service account's assertion (\(response.status)): "
                    + String(decoding: response.body.prefix(200), as: UTF8.self).filter { !$0.isNewline })
        }
    }

    /// Forgets `token` (FCM answered 401 to it), so the next send fetches another.
    func invalidate(_ token: String) {
        cached.withLock { if $0?.token == token { $0 = nil } }
    }

    private struct TokenResponse: Decodable {
        var access_token: String
        var expires_in: Int?
    }
}
