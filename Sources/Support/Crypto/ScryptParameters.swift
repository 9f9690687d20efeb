/// The cost parameters of scrypt (RFC 7914): CPU/memory cost N = 2^`logN`, block size `r`,
/// parallelism `p`. Memory use is about 128 · r · N bytes.
public struct ScryptParameters: Sendable, Hashable {
    /// log2 of N, the CPU/memory cost.
    public var logN: UInt8
    /// The block size.
    public var r: UInt32
    /// The parallelisation factor.
    public var p: UInt32

    /// N = 2^17, r = 8, p = 1: about 128 MiB and a few hundred milliseconds per hash (the
    /// OWASP password storage recommendation).
    public static let recommended = ScryptParameters(logN: 17, r: 8, p: 1)

    /// The most memory a hash may use (1 GiB), so a stored string with absurd parameters
    /// cannot exhaust the server.
    public static let maximumMemory = 1 << 30

    /// Creates parameters from their parts.
    public init(logN: UInt8, r: UInt32, p: UInt32) {
        self.logN = logN
        self.r = r
        self.p = p
    }

    /// The bytes OpenSSL allocates for these parameters (its `Blen + Vlen`), or nil when
    /// they overflow.
    var memoryRequired: Int? {
        guard logN < 63 else { return nil }
        let (blocks, overflow) = (1 << Int(logN)).addingReportingOverflow(Int(p) + 2)
        guard !overflow else { return nil }
        let (perBlock, overflow2) = Int(r).multipliedReportingOverflow(by: 128)
        let (total, overflow3) = blocks.multipliedReportingOverflow(by: perBlock)
        return overflow2 || overflow3 ? nil : total
    }

    /// Whether OpenSSL accepts these parameters and they stay within `maximumMemory`
    /// (N > 1, r ≥ 1, p ≥ 1, r · p < 2^30 per RFC 7914).
    var isSupported: Bool {
        guard logN >= 1, r >= 1, p >= 1, UInt64(r) * UInt64(p) < 1 << 30 else { return false }
        guard let memory = memoryRequired else { return false }
        return memory <= Self.maximumMemory
    }
}
