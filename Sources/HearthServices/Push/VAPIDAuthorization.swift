import FoundationEssentials
import JOSE
import Net
import Support

/// Voluntary Application Server Identification (RFC 8292): the `Authorization` header that
/// proves to a push service which server sends, so a subscription made for this server's key
/// accepts pushes from it alone. Each header carries an ES256 JWT with the endpoint's origin as
/// `aud`, an `exp` at most 24 hours ahead (``tokenLifetime``) and the contact `sub`, and the
/// public key: `vapid t=<jwt>, k=<base64url public key>`.
public struct VAPIDAuthorization: Sendable {
    /// How long each token is valid: 12 hours, well under RFC 8292's 24-hour maximum, so a
    /// push service's clock running ahead does not refuse it.
    public static let tokenLifetime: Duration = .seconds(12 * 3600)

    private let signer: JWTSigner
    /// The contact the push service's operator may reach (`mailto:` or `https:`).
    public let subject: String
    /// The public key, base64url (an uncompressed P-256 point): what browsers are given as
    /// `applicationServerKey`.
    public let publicKey: String

    /// The authorization for `key` (an ES256 key) and `subject`.
    public init(key: SigningKey, subject: String) {
        precondition(key.algorithm == .ES256, "VAPID keys are P-256 keys")
        signer = JWTSigner(key: key, type: "JWT")
        self.subject = subject
        publicKey = Base64URL.encode(key.uncompressedPublicKey ?? [])
    }

    /// The `Authorization` header's value for a push to `endpoint`, issued at `now`.
    public func header(for endpoint: HTTPURL, at now: Date) -> String {
        let expiry = (now.timeIntervalSince1970 + Double(Self.tokenLifetime.components.seconds)).rounded(.down)
        let claims = JWTClaims(subject: subject, audience: [Self.origin(of: endpoint)], expiresAt: expiry)
        // The claims are strings and numbers: encoding cannot fail.
        let token = (try? signer.sign(claims)) ?? ""
        return "vapid t=\(token), k=\(publicKey)"
    }

    /// The origin of `url` (RFC 6454): scheme, host and a port other than the scheme's default.
    static func origin(of url: HTTPURL) -> String {
        (url.isSecure ? "https://" : "http://") + url.hostHeader.lowercased()
    }
}
