/// Why a byte sequence is not the JSON text `JSON(parsing:)` accepts.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure, to match on.
    public enum Code: Sendable, Hashable {
        /// The input ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue a value here.
        case unexpectedCharacter
        /// A number outside RFC 8259's grammar.
        case invalidNumber
        /// A bad escape, an unescaped control character, or an unpaired surrogate.
        case invalidString
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// Arrays and objects nested deeper than the limit.
        case tooDeep
        /// Something other than whitespace after the value.
        case trailingCharacters
    }

    /// The kind of failure.
    public let code: Code
    /// A description for people.
    public let message: String
    /// Byte offset of the problem in the input.
    public let offset: Int

    /// Creates an error.
    public init(code: Code, message: String, offset: Int) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    /// The message and its offset.
    public var description: String { "\(message) (at byte \(offset))" }
}
