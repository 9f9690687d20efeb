/// Why a message cannot be composed.
public struct MessageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Code: String, Sendable, Hashable {
        /// An address is not `local@domain` in printable ASCII.
        case invalidAddress
        /// A header value contains a line break (which would let it add headers: header
        /// injection) or another control character.
        case invalidHeader
        /// The message has no recipient.
        case noRecipient
    }

    /// What is wrong.
    public var code: Code
    /// A sentence naming the field.
    public var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    /// Refuses CR, LF and other control characters (tab excepted) in a header value.
    static func checkHeaderValue(_ value: String, field: String) throws(MessageError) {
        guard !value.unicodeScalars.contains(where: { ($0.value < 32 && $0 != "\t") || $0.value == 127 }) else {
            throw MessageError(code: .invalidHeader, message: "the \(field) contains a line break or control character")
        }
    }
}
