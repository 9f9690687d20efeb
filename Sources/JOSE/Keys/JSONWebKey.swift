import COpenSSL
import FoundationEssentials
import Support

/// A key that verifies signatures (RFC 7517): an RSA or EC P-256 public key from a JWKS,
/// or a shared HMAC secret.
public struct JSONWebKey: Sendable {
    /// The kind of key, which decides the algorithm it may verify.
    public enum KeyType: Sendable, Hashable {
        /// An RSA public key of at least 2048 bits (RS256).
        case rsa
        /// An EC public key on P-256 (ES256).
        case ellipticCurveP256
        /// An HMAC secret of at least 32 bytes (HS256).
        case symmetric
    }

    enum Material: Sendable {
        case secret([UInt8])
        case publicKey(OpenSSLKey)
    }

    /// The key's `kid`, which tokens name in their header.
    public let keyID: String?
    /// The key's `alg`, when the set restricts the key to one algorithm.
    public let algorithm: JWSAlgorithm?
    /// The key's `use` (`sig`), when given.
    public let use: String?
    let material: Material

    /// The kind of key.
    public var type: KeyType {
        switch material {
        case .secret: .symmetric
        case .publicKey(let key): key.kind == .rsa ? .rsa : .ellipticCurveP256
        }
    }

    /// The shortest HMAC secret accepted: 256 bits, the output size of SHA-256 (RFC 7518 §3.2).
    public static let minimumSecretLength = 32

    init(keyID: String?, algorithm: JWSAlgorithm?, use: String?, material: Material) {
        self.keyID = keyID
        self.algorithm = algorithm
        self.use = use
        self.material = material
    }

    /// An HS256 verification key.
    ///
    /// - Throws: `.invalidKey` when `secret` is shorter than `minimumSecretLength`.
    public static func symmetric(secret: [UInt8], keyID: String? = nil) throws(JOSEError) -> JSONWebKey {
        guard secret.count >= minimumSecretLength else {
            throw JOSEError(.invalidKey, "HMAC secrets must be at least \(minimumSecretLength) bytes")
        }
        return JSONWebKey(keyID: keyID, algorithm: .HS256, use: "sig", material: .secret(secret))
    }

    /// Parses one public JWK: `kty` `RSA` with `n` and `e`, or `kty` `EC` with `crv` `P-256`,
    /// `x` and `y`; `kid`, `alg` and `use` are kept. Symmetric (`oct`) keys are not read
    /// from JSON: a key set fetched from elsewhere must never supply an HMAC secret.
    ///
    /// - Throws: `.invalidKey` when the JSON is not such a key, the key is of another kind
    ///   or curve, names an algorithm other than RS256/ES256, is meant for encryption, or is
    ///   an RSA key under 2048 bits.
    public init(json: some Collection<UInt8>) throws(JOSEError) {
        let raw: RawJSONWebKey
        do {
            raw = try JSONDecoder().decode(RawJSONWebKey.self, from: Data(json))
        } catch {
            throw JOSEError(.invalidKey, "not a JSON Web Key object")
        }
        try self.init(raw)
    }

    init(_ raw: RawJSONWebKey) throws(JOSEError) {
        if let use = raw.use, use != "sig" {
            throw JOSEError(.invalidKey, "key with use \"\(use)\" is not a signature key")
        }
        var algorithm: JWSAlgorithm?
        if let name = raw.alg {
            guard let known = JWSAlgorithm(rawValue: name), known != .HS256 else {
                throw JOSEError(.invalidKey, "key algorithm \(name) is not supported")
            }
            algorithm = known
        }
        let key: OpenSSLKey
        switch raw.kty {
        case "RSA":
            guard let n = raw.n.flatMap(Base64URL.decode), let e = raw.e.flatMap(Base64URL.decode) else {
                throw JOSEError(.invalidKey, "RSA key without base64url n and e")
            }
            key = try OpenSSLKey.rsaPublicKey(modulus: n, exponent: e)
        case "EC":
            guard raw.crv == "P-256" else { throw JOSEError(.invalidKey, "only the P-256 curve is supported") }
            guard let x = raw.x.flatMap(Base64URL.decode), let y = raw.y.flatMap(Base64URL.decode) else {
                throw JOSEError(.invalidKey, "EC key without base64url x and y")
            }
            key = try OpenSSLKey.ellipticCurveP256PublicKey(x: x, y: y)
        default:
            throw JOSEError(.invalidKey, "key type \(raw.kty) is not supported")
        }
        let expected: JWSAlgorithm = key.kind == .rsa ? .RS256 : .ES256
        guard algorithm == nil || algorithm == expected else {
            throw JOSEError(.invalidKey, "a \(raw.kty) key cannot be used with \(algorithm!.rawValue)")
        }
        self.init(keyID: raw.kid, algorithm: algorithm, use: raw.use, material: .publicKey(key))
    }

    /// Whether this key may verify tokens signed with `algorithm`: its type fits the
    /// algorithm, and its own `alg`, when set, is the same.
    public func canVerify(_ algorithm: JWSAlgorithm) -> Bool {
        if let own = self.algorithm, own != algorithm { return false }
        return switch (type, algorithm) {
        case (.symmetric, .HS256), (.rsa, .RS256), (.ellipticCurveP256, .ES256): true
        default: false
        }
    }

    /// Whether `signature` signs `message` under `algorithm`; false when the key cannot verify
    /// that algorithm.
    func verifies(signature: [UInt8], message: [UInt8], algorithm: JWSAlgorithm) -> Bool {
        guard canVerify(algorithm) else { return false }
        switch material {
        case .secret(let secret):
            return ConstantTime.equals(HMACSHA256.authenticationCode(key: secret, message: message), signature)
        case .publicKey(let key):
            if key.kind == .ellipticCurveP256 {
                guard let der = ECDSASignature.der(fromRaw: signature) else { return false }
                return key.verify(signature: der, message: message)
            }
            return key.verify(signature: signature, message: message)
        }
    }

    /// The public JWK as it appears in a JWKS, or nil for a symmetric key (whose secret
    /// must not be published).
    var raw: RawJSONWebKey? {
        guard case .publicKey(let key) = material else { return nil }
        switch key.kind {
        case .rsa:
            return RawJSONWebKey(
                kty: "RSA", kid: keyID, alg: algorithm?.rawValue, use: use,
                n: Base64URL.encode(key.integerParameter(OSSL_PKEY_PARAM_RSA_N)),
                e: Base64URL.encode(key.integerParameter(OSSL_PKEY_PARAM_RSA_E)))
        case .ellipticCurveP256:
            let width = ECDSASignature.coordinateWidth
            return RawJSONWebKey(
                kty: "EC", kid: keyID, alg: algorithm?.rawValue, use: use, crv: "P-256",
                x: Base64URL.encode(key.integerParameter(OSSL_PKEY_PARAM_EC_PUB_X, width: width)),
                y: Base64URL.encode(key.integerParameter(OSSL_PKEY_PARAM_EC_PUB_Y, width: width)))
        }
    }

    /// The public key as PEM (`PUBLIC KEY`), or nil for a symmetric key.
    public var publicKeyPEM: String? {
        guard case .publicKey(let key) = material else { return nil }
        return key.publicKeyPEM
    }
}

/// The members of a JWK this library reads and writes.
struct RawJSONWebKey: Codable {
    var kty: String
    var kid: String?
    var alg: String?
    var use: String?
    var n: String?
    var e: String?
    var crv: String?
    var x: String?
    var y: String?
}
