import FoundationEssentials

/// Header text as RFC 5322 and RFC 2047 want it: folded below 78 characters per line, and
/// non-ASCII text as `=?UTF-8?B?…?=` encoded words that never split a UTF-8 sequence.
enum HeaderEncoding {
    /// The longest line the encoder produces, without CRLF (RFC 5322 §2.1.1 recommends 78).
    static let lineLimit = 78

    /// Whether `text` is printable ASCII (and tab) only and has nothing that looks like an
    /// encoded word, so it can be written as is.
    static func isPlainASCII(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { ($0.value >= 32 && $0.value < 127) || $0 == "\t" } && !text.contains("=?")
    }

    /// A complete header field, `Name: value` with CRLF, folded; `value` is encoded when not
    /// plain ASCII.
    static func field(_ name: String, _ value: String) -> String {
        let prefix = name + ": "
        if isPlainASCII(value) { return fold(prefix + value) + "\r\n" }
        let words = encodedWords(value, firstLineUsed: prefix.utf8.count)
        return prefix + words.joined(separator: "\r\n ") + "\r\n"
    }

    /// Folds a plain line at spaces so that lines stay within ``lineLimit`` where the words allow.
    static func fold(_ line: String) -> String {
        var output = ""
        var current = ""
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if current.isEmpty {
                current = String(word)
            } else if current.utf8.count + 1 + word.utf8.count > lineLimit {
                output += current + "\r\n"
                current = " " + word
            } else {
                current += " " + word
            }
        }
        return output + current
    }

    /// `text` as RFC 2047 "B" encoded words of UTF-8, each at most 75 characters and the
    /// first fitting after `firstLineUsed` characters, for lines joined with CRLF SP.
    static func encodedWords(_ text: String, firstLineUsed: Int) -> [String] {
        let overhead = "=?UTF-8?B??=".utf8.count
        var words: [String] = []
        var chunk: [UInt8] = []
        var budget = min(75, lineLimit - firstLineUsed) - overhead
        func encodedLength(_ count: Int) -> Int { (count + 2) / 3 * 4 }
        for character in text.unicodeScalars {
            let bytes = Array(String(character).utf8)
            if !chunk.isEmpty && encodedLength(chunk.count + bytes.count) > max(budget, 4) {
                words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
                budget = 75 - overhead - 1
            }
            chunk += bytes
        }
        words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=")
        return words
    }
}
