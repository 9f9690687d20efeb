import COpenSSL

/// Comparisons whose running time does not depend on where secret bytes differ.
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes, compared with `CRYPTO_memcmp`.
    ///
    /// Collections of different lengths are unequal at once: lengths of MACs, digests and
    /// tokens are public.
    public static func equals(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withContiguousBytes { a in
            b.withContiguousBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }
}
