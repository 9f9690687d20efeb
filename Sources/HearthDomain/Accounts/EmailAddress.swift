import Support

/// A validated, normalised email address.
///
/// Accepted: `local@domain` with a dot-atom local part (RFC 5322 `atext` and dots, UTF-8
/// letters allowed as RFC 6531 does) of at most 64 bytes, and a domain of at least two
/// dot-separated labels of letters, digits and hyphens (UTF-8 letters allowed), at most 254
/// bytes in all. Quoted local parts and address literals (`user@[192.0.2.1]`) are refused:
/// real sign-up forms never need them and they are a classic source of parser confusion.
///
/// Normalisation trims white space and lowercases the domain; the local part keeps its case
/// when shown. Uniqueness (``key``) ignores case entirely, as every large mail provider does.
public struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    /// The longest address accepted, in bytes (RFC 5321's path limit minus the angle brackets).
    public static let maximumLength = 254

    /// The normalised address, as shown and as mail is sent to.
    public let value: String
    /// The lowercased form accounts are looked up and kept unique by.
    public var key: String { value.lowercased() }
    public var description: String { value }

    /// Validates and normalises `text`.
    /// - Parameter field: The input path named in the problem, e.g. `input.email`.
    /// - Throws: ``FieldProblem`` when the text is not an address we accept.
    public init(_ text: String, field: String) throws(FieldProblem) {
        let trimmed = text.trimmingWhitespace()
        if trimmed.isEmpty { throw FieldProblem(field: field, reason: .required, message: "Enter an email address.") }
        if trimmed.utf8.count > Self.maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "An email address has at most \(Self.maximumLength) characters.")
        }
        let invalid = FieldProblem(field: field, reason: .invalidFormat, message: "Enter an email address like name@example.com.")
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw invalid }
        let local = Array(parts[0].utf8)
        let domain = parts[1].lowercased()
        guard Self.isDotAtom(local), local.count <= 64, Self.isHostName(Array(domain.utf8)) else { throw invalid }
        value = String(parts[0]) + "@" + domain
    }

    /// RFC 5322 `dot-atom-text`, with UTF-8 sequences allowed as letters.
    private static func isDotAtom(_ bytes: [UInt8]) -> Bool {
        let specials = Set("!#$%&'*+/=?^_`{|}~-".utf8)
        var previousWasDot = true
        for byte in bytes {
            if byte == UInt8(ascii: ".") {
                if previousWasDot { return false }
                previousWasDot = true
                continue
            }
            previousWasDot = false
            guard isLetterOrDigit(byte) || specials.contains(byte) else { return false }
        }
        return !previousWasDot
    }

    /// Two or more labels of letters, digits and inner hyphens, 1–63 bytes each; the last
    /// label is not all digits (so `1.2.3.4` is not taken for a host name).
    private static func isHostName(_ bytes: [UInt8]) -> Bool {
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                  label.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return !labels[labels.count - 1].allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
    }
}
