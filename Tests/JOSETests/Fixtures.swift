import FoundationEssentials
import JOSE
import Support
import Synchronization

/// Keys generated once per test process (RSA generation takes a moment), each test using the
/// ones it needs.
enum Fixtures {
    static let rsa = SigningKey.generate(.RS256)
    static let otherRSA = SigningKey.generate(.RS256)
    static let ec = SigningKey.generate(.ES256)
    static let hmac = SigningKey.generate(.HS256)

    static let issuer = "https://issuer.example"
    static let audience = "client-123"
    /// 2023-11-14T22:13:20Z: the instant every test verifies at.
    static let now = WallClock.Instant(seconds: 1_700_000_000)

    static let requirements = ClaimRequirements(issuers: [issuer], audiences: [audience])

    /// Claims valid at `now`: issued a minute ago, expiring in ten minutes.
    static func claims(
        issuer: String = issuer, audience: [String] = [audience], expiresAt: Double = 1_700_000_600,
        notBefore: Double? = nil, issuedAt: Double = 1_699_999_940, nonce: String? = nil
    ) -> JWTClaims {
        JWTClaims(
            issuer: issuer, subject: "user-1", audience: audience, expiresAt: expiresAt, notBefore: notBefore,
            issuedAt: issuedAt, tokenID: "token-1", nonce: nonce, email: "ada@example.com", emailVerified: true)
    }

    /// A key set of the RSA and EC keys under the ids `rsa-1` and `ec-1`.
    static let keySet = JSONWebKeySet(keys: [rsa.verificationKey(keyID: "rsa-1"), ec.verificationKey(keyID: "ec-1")])
}

/// A token with the given header JSON, claims and signature, assembled by hand.
func handmadeToken(header: String, claims: JWTClaims = Fixtures.claims(), signature: [UInt8] = []) throws -> String {
    let payload = Array(try JSONEncoder().encode(claims))
    return Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(payload) + "." + Base64URL.encode(signature)
}

/// The signing input and signature of a compact token.
func parts(of token: String) -> (header: Substring, payload: Substring, signature: Substring) {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    return (parts[0], parts[1], parts[2])
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let time = Mutex(Duration.zero)

    var now: Duration { time.withLock { $0 } }

    func advance(by duration: Duration) {
        time.withLock { $0 += duration }
    }

    var function: JWKSCache.Clock { { self.now } }
}

/// A key-set endpoint the test controls: what it serves next, and how often it was asked.
final class FakeKeySetEndpoint: Sendable {
    struct Unavailable: Error {}

    private struct State {
        var response: Result<JWKSFetchResult, Unavailable>
        var fetches = 0
    }

    private let state: Mutex<State>

    init(serving keys: JSONWebKeySet, maxAge: Duration? = .seconds(3600)) {
        state = Mutex(State(response: .success(JWKSFetchResult(body: keys.jsonRepresentation(), maxAge: maxAge))))
    }

    var fetches: Int { state.withLock { $0.fetches } }

    func serve(_ keys: JSONWebKeySet, maxAge: Duration? = .seconds(3600)) {
        state.withLock { $0.response = .success(JWKSFetchResult(body: keys.jsonRepresentation(), maxAge: maxAge)) }
    }

    func fail() {
        state.withLock { $0.response = .failure(Unavailable()) }
    }

    var fetch: JWKSCache.Fetch {
        {
            try self.state.withLock { state in
                state.fetches += 1
                return try state.response.get()
            }
        }
    }
}
