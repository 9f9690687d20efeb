import COpenSSL
import Support

/// Elliptic-curve Diffie-Hellman on P-256 (the primitive of JWE's `ECDH-ES`, RFC 7518 §4.6,
/// and of Web Push message encryption, RFC 8291): one key pair, usually generated for a single
/// message, agreeing a shared secret with a peer's public key. Public keys travel as 65-byte
/// uncompressed points (SEC 1 §2.3.3).
public struct P256KeyAgreement: Sendable {
    private let key: OpenSSLKey

    private init(key: OpenSSLKey) {
        self.key = key
    }

    /// A fresh key pair from the system's random source.
    public static func generate() -> P256KeyAgreement {
        P256KeyAgreement(key: OpenSSLKey.generate(.ellipticCurveP256))
    }

    /// The key pair whose private key is the 32-byte big-endian `privateKey` (test vectors).
    /// - Throws: `.invalidKey` when it is not a P-256 private key.
    public init(privateKey: [UInt8]) throws(JOSEError) {
        key = try OpenSSLKey.ellipticCurveP256PrivateKey(scalar: privateKey)
    }

    /// This pair's public key as an uncompressed point (65 bytes).
    public var publicKey: [UInt8] { key.uncompressedP256Point }

    /// Checks that `publicKey` is an uncompressed point on P-256 (what a peer must send).
    /// - Throws: `.invalidKey` naming what is wrong.
    public static func validate(publicKey: [UInt8]) throws(JOSEError) {
        _ = try OpenSSLKey.ellipticCurveP256PublicKey(uncompressedPoint: publicKey)
    }

    /// The 32-byte shared secret (the x coordinate of the product) with `peerPublicKey`.
    /// - Throws: `.invalidKey` when `peerPublicKey` is not a P-256 point.
    public func sharedSecret(with peerPublicKey: [UInt8]) throws(JOSEError) -> [UInt8] {
        let peer = try OpenSSLKey.ellipticCurveP256PublicKey(uncompressedPoint: peerPublicKey)
        defer { ERR_clear_error() }
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil) else { preconditionFailure("OpenSSL EVP_PKEY_CTX_new failed") }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer.pointer) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1
        else { throw JOSEError(.invalidKey, "OpenSSL refused the ECDH peer key") }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1 else { throw JOSEError(.invalidKey, "ECDH key agreement failed") }
        return Array(secret.prefix(length))
    }
}
