import COpenSSL

/// Conversion between JOSE's ECDSA signature form (RFC 7518 §3.4: r and s as fixed-width
/// big-endian integers, concatenated) and the DER `ECDSA-Sig-Value` OpenSSL produces and
/// expects.
enum ECDSASignature {
    /// The width of r and s for P-256.
    static let coordinateWidth = 32

    /// The DER form of a 64-byte `r || s` signature, or nil when it has the wrong length.
    static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard raw.count == 2 * coordinateWidth else { return nil }
        guard let signature = ECDSA_SIG_new() else { preconditionFailure("OpenSSL ECDSA_SIG_new failed") }
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(raw, Int32(coordinateWidth), nil)
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + coordinateWidth, Int32(coordinateWidth), nil) }
        // ECDSA_SIG_set0 takes ownership of both numbers on success only.
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            preconditionFailure("OpenSSL ECDSA_SIG_set0 failed")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &output)
        guard length > 0, let output else { preconditionFailure("OpenSSL i2d_ECDSA_SIG failed") }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// The 64-byte `r || s` form of a DER signature made by OpenSSL.
    static func raw(fromDER der: [UInt8]) -> [UInt8] {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { preconditionFailure("OpenSSL produced an unreadable ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 2 * coordinateWidth)
        raw.withUnsafeMutableBufferPointer { buffer in
            let r = BN_bn2binpad(ECDSA_SIG_get0_r(signature), buffer.baseAddress!, Int32(coordinateWidth))
            let s = BN_bn2binpad(ECDSA_SIG_get0_s(signature), buffer.baseAddress! + coordinateWidth, Int32(coordinateWidth))
            precondition(r == Int32(coordinateWidth) && s == Int32(coordinateWidth), "OpenSSL BN_bn2binpad failed")
        }
        return raw
    }
}
