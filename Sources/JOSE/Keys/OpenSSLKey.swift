import COpenSSL
import Support

/// An OpenSSL `EVP_PKEY` (RSA or EC P-256, public or private), freed with the last reference.
///
/// `@unchecked Sendable`: the key is never modified after `init`; OpenSSL 3 documents
/// `EVP_PKEY` as safe to use from several threads at once for signing and verification
/// when each operation has its own `EVP_MD_CTX`, which `sign` and `verify` create per call.
final class OpenSSLKey: @unchecked Sendable {
    /// What kind of key OpenSSL holds.
    enum Kind: Equatable {
        case rsa
        case ellipticCurveP256
    }

    let pointer: OpaquePointer
    let kind: Kind

    /// Takes ownership of `pointer`.
    ///
    /// - Throws: `.invalidKey` for key types other than RSA and EC on P-256, or RSA keys under
    ///   2048 bits.
    init(taking pointer: OpaquePointer) throws(JOSEError) {
        let kind: Kind
        if EVP_PKEY_is_a(pointer, "RSA") == 1 {
            kind = .rsa
        } else if EVP_PKEY_is_a(pointer, "EC") == 1, Self.groupName(of: pointer) == "prime256v1" {
            kind = .ellipticCurveP256
        } else {
            EVP_PKEY_free(pointer)
            throw JOSEError(.invalidKey, "only RSA and EC P-256 keys are supported")
        }
        let bits = EVP_PKEY_get_bits(pointer)
        guard kind != .rsa || bits >= Self.minimumRSABits else {
            EVP_PKEY_free(pointer)
            throw JOSEError(.invalidKey, "RSA key of \(bits) bits; at least \(Self.minimumRSABits) are required")
        }
        self.pointer = pointer
        self.kind = kind
    }

    deinit { EVP_PKEY_free(pointer) }

    /// RSA keys shorter than this are refused (RFC 7518 §3.3 requires 2048 bits).
    static let minimumRSABits: Int32 = 2048

    // MARK: Building

    /// The RSA public key with modulus `n` and exponent `e` (unsigned big-endian bytes).
    static func rsaPublicKey(modulus: [UInt8], exponent: [UInt8]) throws(JOSEError) -> OpenSSLKey {
        guard !modulus.isEmpty, !exponent.isEmpty, exponent.count <= 8 else {
            throw JOSEError(.invalidKey, "RSA key with an empty modulus or an unusable exponent")
        }
        let n = BN_bin2bn(modulus, Int32(modulus.count), nil)
        let e = BN_bin2bn(exponent, Int32(exponent.count), nil)
        defer {
            BN_free(n)
            BN_free(e)
        }
        return try fromPublicParameters(type: "RSA") { hearth_param_bld_push_rsa_public_key($0, n, e) == 1 }
    }

    /// The P-256 public key at point (`x`, `y`), each 32 big-endian bytes; the point must be
    /// on the curve.
    static func ellipticCurveP256PublicKey(x: [UInt8], y: [UInt8]) throws(JOSEError) -> OpenSSLKey {
        guard x.count == 32, y.count == 32 else {
            throw JOSEError(.invalidKey, "P-256 coordinates must be 32 bytes each")
        }
        // The uncompressed point encoding; the builder reads it only when building the
        // parameters, after `push` returned, so it lives in memory of its own until then.
        let point = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 + x.count + y.count)
        defer { point.deallocate() }
        _ = point.initialize(from: [0x04] + x + y)
        let key = try fromPublicParameters(type: "EC") {
            hearth_param_bld_push_p256_public_key($0, point.baseAddress, point.count) == 1
        }
        let context = EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil)
        defer { EVP_PKEY_CTX_free(context) }
        // The quick check (on the curve, not the point at infinity) is the whole check for P-256,
        // whose cofactor is 1; the full one adds a scalar multiplication by the group order.
        guard let context, EVP_PKEY_public_check_quick(context) == 1 else {
            ERR_clear_error()
            throw JOSEError(.invalidKey, "the EC point is not a valid P-256 public key")
        }
        return key
    }

    private static func fromPublicParameters(
        type: String, _ push: (OpaquePointer) -> Bool
    ) throws(JOSEError) -> OpenSSLKey {
        defer { ERR_clear_error() }
        guard let builder = OSSL_PARAM_BLD_new() else { preconditionFailure("OpenSSL OSSL_PARAM_BLD_new failed") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard push(builder), let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            throw JOSEError(.invalidKey, "\(type) key parameters rejected by OpenSSL")
        }
        defer { OSSL_PARAM_free(parameters) }
        let context = EVP_PKEY_CTX_new_from_name(nil, type, nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard let context, EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, hearth_evp_pkey_public_key_selection(), parameters) == 1, let key
        else {
            throw JOSEError(.invalidKey, "OpenSSL could not build an \(type) key from its parameters")
        }
        return try OpenSSLKey(taking: key)
    }

    /// A fresh key pair: RSA of `rsaBits` bits, or P-256.
    static func generate(_ kind: Kind, rsaBits: Int = 2048) -> OpenSSLKey {
        let pointer = switch kind {
        case .rsa: hearth_generate_rsa_key(rsaBits)
        case .ellipticCurveP256: hearth_generate_ec_key("P-256")
        }
        guard let pointer, let key = try? OpenSSLKey(taking: pointer) else {
            preconditionFailure("OpenSSL key generation failed")
        }
        return key
    }

    /// The private key in a PEM `PRIVATE KEY` (PKCS #8) block.
    ///
    /// - Throws: `.invalidKey` when the text holds no private key, or one of an unsupported
    ///   kind.
    static func privateKey(pem: String) throws(JOSEError) -> OpenSSLKey {
        defer { ERR_clear_error() }
        let bytes = Array(pem.utf8)
        let pointer: OpaquePointer? = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let pointer else { throw JOSEError(.invalidKey, "no PEM private key found") }
        return try OpenSSLKey(taking: pointer)
    }

    // MARK: Exporting

    /// The private key as PEM (PKCS #8), or nil when this is a public key.
    var privateKeyPEM: String? { pem { PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil) } }

    /// The public key as PEM (`PUBLIC KEY`, SubjectPublicKeyInfo).
    var publicKeyPEM: String {
        guard let text = pem({ PEM_write_bio_PUBKEY($0, pointer) }) else {
            preconditionFailure("OpenSSL PEM_write_bio_PUBKEY failed")
        }
        return text
    }

    private func pem(_ write: (OpaquePointer) -> Int32) -> String? {
        defer { ERR_clear_error() }
        guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("OpenSSL BIO_new failed") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let length = hearth_bio_get_mem_data(bio, &data)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// The unsigned big-endian bytes of a big-number parameter (`n`, `e`, `qx`, `qy`), left
    /// padded with zeros to `width` when given.
    func integerParameter(_ name: String, width: Int? = nil) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            preconditionFailure("OpenSSL has no \(name) parameter for this key")
        }
        defer { BN_free(number) }
        let count = width ?? Int((BN_num_bits(number) + 7) / 8)
        var bytes = [UInt8](repeating: 0, count: count)
        guard BN_bn2binpad(number, &bytes, Int32(count)) == Int32(count) else {
            preconditionFailure("OpenSSL BN_bn2binpad failed")
        }
        return bytes
    }

    private static func groupName(of pointer: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_utf8_string_param(pointer, OSSL_PKEY_PARAM_GROUP_NAME, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Signing and verifying

    /// The signature of `message` with SHA-256: PKCS #1 v1.5 for RSA, DER-encoded ECDSA for EC.
    func sign(_ message: [UInt8]) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("OpenSSL EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1,
            EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { preconditionFailure("OpenSSL EVP_DigestSign failed (is this a public key?)") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            preconditionFailure("OpenSSL EVP_DigestSign failed")
        }
        return Array(signature.prefix(length))
    }

    /// Whether `signature` (PKCS #1 v1.5 for RSA, DER ECDSA for EC) signs `message` with SHA-256.
    func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        defer { ERR_clear_error() }
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("OpenSSL EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
    }
}
