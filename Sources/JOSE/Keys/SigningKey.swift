import Support

/// A key that signs tokens: an HMAC secret (HS256), an RSA private key (RS256) or a P-256
/// private key (ES256).
public struct SigningKey: Sendable {
    enum Material: Sendable {
        case secret([UInt8])
        case privateKey(OpenSSLKey)
    }

    let material: Material

    /// The algorithm this key signs with.
    public var algorithm: JWSAlgorithm {
        switch material {
        case .secret: .HS256
        case .privateKey(let key): key.kind == .rsa ? .RS256 : .ES256
        }
    }

    private init(_ material: Material) {
        self.material = material
    }

    /// An HS256 key.
    ///
    /// - Throws: `.invalidKey` when `secret` is shorter than `JSONWebKey.minimumSecretLength`.
    public static func hmacSHA256(secret: [UInt8]) throws(JOSEError) -> SigningKey {
        guard secret.count >= JSONWebKey.minimumSecretLength else {
            throw JOSEError(.invalidKey, "HMAC secrets must be at least \(JSONWebKey.minimumSecretLength) bytes")
        }
        return SigningKey(.secret(secret))
    }

    /// A new random key for `algorithm`: 32 random bytes for HS256, a 2048-bit RSA key for
    /// RS256, a P-256 key for ES256.
    public static func generate(_ algorithm: JWSAlgorithm) -> SigningKey {
        switch algorithm {
        case .HS256: SigningKey(.secret(SecureRandom.bytes(JSONWebKey.minimumSecretLength)))
        case .RS256: SigningKey(.privateKey(OpenSSLKey.generate(.rsa)))
        case .ES256: SigningKey(.privateKey(OpenSSLKey.generate(.ellipticCurveP256)))
        }
    }

    /// An RSA or P-256 private key from PEM (PKCS #8 `PRIVATE KEY`, or the traditional
    /// `RSA PRIVATE KEY` / `EC PRIVATE KEY` blocks).
    ///
    /// - Throws: `.invalidKey` when the text holds no such key, or an RSA key under 2048 bits.
    public init(privateKeyPEM pem: String) throws(JOSEError) {
        self.init(.privateKey(try OpenSSLKey.privateKey(pem: pem)))
    }

    /// The ES256 key whose private key is the 32-byte big-endian `privateKey` (the form Web
    /// Push's VAPID keys are exchanged in, RFC 8292).
    ///
    /// - Throws: `.invalidKey` when it is not 32 bytes or not a valid P-256 private key.
    public static func ellipticCurveP256(privateKey: [UInt8]) throws(JOSEError) -> SigningKey {
        SigningKey(.privateKey(try OpenSSLKey.ellipticCurveP256PrivateKey(scalar: privateKey)))
    }

    /// An ES256 key's public key as an uncompressed P-256 point (65 bytes: `0x04 || x || y`);
    /// nil for HS256 and RS256 keys.
    public var uncompressedPublicKey: [UInt8]? {
        guard case .privateKey(let key) = material, key.kind == .ellipticCurveP256 else { return nil }
        return key.uncompressedP256Point
    }

    /// The private key as PKCS #8 PEM; nil for an HMAC key.
    public var privateKeyPEM: String? {
        guard case .privateKey(let key) = material else { return nil }
        return key.privateKeyPEM
    }

    /// The key that verifies this key's signatures: the public key for RSA and EC, the same
    /// secret for HMAC.
    public func verificationKey(keyID: String? = nil) -> JSONWebKey {
        switch material {
        case .secret(let secret):
            JSONWebKey(keyID: keyID, algorithm: .HS256, use: "sig", material: .secret(secret))
        case .privateKey(let key):
            JSONWebKey(keyID: keyID, algorithm: algorithm, use: "sig", material: .publicKey(key))
        }
    }

    /// The JWS signature of `message` (for ES256 the 64-byte `r || s` form).
    func sign(_ message: [UInt8]) -> [UInt8] {
        switch material {
        case .secret(let secret):
            return HMACSHA256.authenticationCode(key: secret, message: message)
        case .privateKey(let key):
            let signature = key.sign(message)
            return key.kind == .ellipticCurveP256 ? ECDSASignature.raw(fromDER: signature) : signature
        }
    }
}
