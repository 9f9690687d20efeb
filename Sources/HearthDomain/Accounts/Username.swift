import Support

/// A validated username: 3–32 characters of ASCII letters, digits, `.`, `_` and `-`,
/// beginning and ending with a letter or digit. Usernames are unique regardless of case
/// (``key``), and shown as typed (``value``).
///
/// ASCII only, on purpose: Unicode usernames invite look-alikes (Cyrillic `а` for Latin `a`)
/// that let one account impersonate another; display names carry any script.
public struct Username: Sendable, Hashable, CustomStringConvertible {
    /// The fewest characters a username may have.
    public static let minimumLength = 3
    /// The most characters a username may have.
    public static let maximumLength = 32

    /// The username as the user typed it (after trimming surrounding white space).
    public let value: String
    /// The lowercased form that uniqueness is checked on.
    public var key: String { value.lowercased() }
    public var description: String { value }

    /// Validates `text`.
    /// - Parameter field: The input path named in the problem, e.g. `input.username`.
    /// - Throws: ``FieldProblem`` when the text is not a valid username.
    public init(_ text: String, field: String) throws(FieldProblem) {
        let trimmed = text.trimmingWhitespace()
        let bytes = Array(trimmed.utf8)
        if bytes.isEmpty { throw FieldProblem(field: field, reason: .required, message: "Choose a username.") }
        if bytes.count < Self.minimumLength {
            throw FieldProblem(field: field, reason: .tooShort, message: "A username has at least \(Self.minimumLength) characters.")
        }
        if bytes.count > Self.maximumLength {
            throw FieldProblem(field: field, reason: .tooLong, message: "A username has at most \(Self.maximumLength) characters.")
        }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        let punctuation: Set<UInt8> = [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]
        guard bytes.allSatisfy({ isAlphanumeric($0) || punctuation.contains($0) }),
              isAlphanumeric(bytes[0]), isAlphanumeric(bytes[bytes.count - 1])
        else {
            throw FieldProblem(
                field: field, reason: .invalidFormat,
                message: "A username uses letters, digits, '.', '_' and '-', and begins and ends with a letter or digit.")
        }
        value = trimmed
    }
}
