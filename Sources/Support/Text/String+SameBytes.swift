#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether `other` has exactly this string's UTF-8 bytes: a `memcmp`, where `==` compares
    /// by Unicode canonical equivalence (normalising texts that are not known to be ASCII or
    /// NFC). For keys whose identity is their bytes, such as a document's text. Two copies of
    /// one string (the same storage) compare at once.
    public func hasSameUTF8(as other: String) -> Bool {
        var this = self, other = other
        return this.withUTF8 { a in
            other.withUTF8 { b in
                a.count == b.count
                    && (a.count == 0 || a.baseAddress == b.baseAddress || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            }
        }
    }
}
