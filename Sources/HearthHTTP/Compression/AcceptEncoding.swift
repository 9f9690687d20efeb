/// `Accept-Encoding` negotiation (RFC 9110 §12.5.3), only as far as gzip is concerned.
enum AcceptEncoding {
    /// Whether a response may be gzip-encoded for this `Accept-Encoding` value: `gzip` (or `x-gzip`) is listed
    /// with a non-zero quality, or it is not listed and `*` is, with a non-zero quality.
    static func allowsGzip(_ value: String) -> Bool {
        Array(value.utf8).withUnsafeBytes { bytes in
            var gzipQuality: Bool?
            var wildcardQuality: Bool?
            ASCII.forEachListElement(bytes) { element in
                let semicolon = element.firstIndex(of: ASCII.semicolon)
                let coding = ASCII.trimmed(UnsafeRawBufferPointer(rebasing: element[..<(semicolon ?? element.count)]))
                let accepted = semicolon.map { qualityIsNonZero(UnsafeRawBufferPointer(rebasing: element[($0 + 1)...])) } ?? true
                if ASCII.equalsCaseInsensitive(coding, "gzip") || ASCII.equalsCaseInsensitive(coding, "x-gzip") {
                    gzipQuality = accepted
                } else if coding.count == 1, coding[0] == 0x2A {
                    wildcardQuality = accepted
                }
            }
            return gzipQuality ?? wildcardQuality ?? false
        }
    }

    /// Reads the parameters after a coding; false only for `q=0`, `q=0.`, `q=0.000` and the like.
    private static func qualityIsNonZero(_ parameters: UnsafeRawBufferPointer) -> Bool {
        let trimmed = ASCII.trimmed(parameters)
        guard trimmed.count >= 2, ASCII.lowercased(trimmed[0]) == 0x71 else { return true }
        var index = 1
        while index < trimmed.count, trimmed[index] == ASCII.space || trimmed[index] == ASCII.tab { index += 1 }
        guard index < trimmed.count, trimmed[index] == 0x3D else { return true }
        index += 1
        while index < trimmed.count, trimmed[index] == ASCII.space || trimmed[index] == ASCII.tab { index += 1 }
        let number = trimmed[index...]
        return number.contains { $0 >= 0x31 && $0 <= 0x39 }
    }
}
