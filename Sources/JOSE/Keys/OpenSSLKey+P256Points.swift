import COpenSSL
import Support

extension OpenSSLKey {
    /// The length of an uncompressed P-256 point (SEC 1 §2.3.3): `0x04 || x || y`.
    static let uncompressedP256PointLength = 65

    /// The P-256 key pair whose private key is the 32-byte big-endian `scalar` (the form Web
    /// Push tools exchange VAPID keys in); its public point is computed from it.
    ///
    /// - Throws: `.invalidKey` when `scalar` is not 32 bytes or not in `1 ..< n`.
    static func ellipticCurveP256PrivateKey(scalar: [UInt8]) throws(JOSEError) -> OpenSSLKey {
        defer { ERR_clear_error() }
        guard scalar.count == 32, let number = BN_bin2bn(scalar, Int32(scalar.count), nil) else {
            throw JOSEError(.invalidKey, "a P-256 private key is 32 bytes")
        }
        defer { BN_clear_free(number) }
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else { preconditionFailure("OpenSSL has no P-256 group") }
        defer { EC_GROUP_free(group) }
        guard BN_is_zero(number) == 0, BN_cmp(number, EC_GROUP_get0_order(group)) < 0 else {
            throw JOSEError(.invalidKey, "the P-256 private key is out of range")
        }
        guard let point = EC_POINT_new(group) else { preconditionFailure("OpenSSL EC_POINT_new failed") }
        defer { EC_POINT_free(point) }
        let encoded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: uncompressedP256PointLength)
        defer { encoded.deallocate() }
        guard EC_POINT_mul(group, point, number, nil, nil, nil) == 1,
            EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, encoded.baseAddress, encoded.count, nil) == encoded.count
        else { preconditionFailure("OpenSSL could not compute a P-256 public point") }
        guard let builder = OSSL_PARAM_BLD_new() else { preconditionFailure("OpenSSL OSSL_PARAM_BLD_new failed") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard hearth_param_bld_push_p256_key_pair(builder, number, encoded.baseAddress, encoded.count) == 1,
            let parameters = OSSL_PARAM_BLD_to_param(builder)
        else { throw JOSEError(.invalidKey, "EC key parameters rejected by OpenSSL") }
        defer { OSSL_PARAM_free(parameters) }
        let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard let context, EVP_PKEY_fromdata_init(context) == 1,
            EVP_PKEY_fromdata(context, &key, hearth_evp_pkey_key_pair_selection(), parameters) == 1, let key
        else { throw JOSEError(.invalidKey, "OpenSSL could not build an EC key from its private key") }
        return try OpenSSLKey(taking: key)
    }

    /// The P-256 public key encoded as an uncompressed point (65 bytes).
    ///
    /// - Throws: `.invalidKey` when `point` is not an uncompressed point on the curve.
    static func ellipticCurveP256PublicKey(uncompressedPoint point: [UInt8]) throws(JOSEError) -> OpenSSLKey {
        guard point.count == uncompressedP256PointLength, point.first == 0x04 else {
            throw JOSEError(.invalidKey, "a P-256 public key is a 65-byte uncompressed point starting with 0x04")
        }
        return try ellipticCurveP256PublicKey(x: Array(point[1...32]), y: Array(point[33...]))
    }

    /// This EC key's public point, uncompressed (65 bytes).
    var uncompressedP256Point: [UInt8] {
        precondition(kind == .ellipticCurveP256, "only P-256 keys have a P-256 point")
        return [0x04] + integerParameter("qx", width: 32) + integerParameter("qy", width: 32)
    }
}
