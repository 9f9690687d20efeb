/// A mailbox as RFC 5322 §3.4 writes it in headers: an optional display name and an
/// address, e.g. `"Ada Lovelace" <ada@example.org>`. Non-ASCII display names are written as
/// RFC 2047 encoded words; the address itself must be ASCII (SMTPUTF8 is not used).
public struct MailAddress: Sendable, Hashable {
    /// The address, e.g. `ada@example.org`.
    public var address: String
    /// The name shown by mail readers, or nil.
    public var displayName: String?

    /// A mailbox.
    /// - Throws: `MessageError` `.invalidAddress` when `address` is not `local@domain` in
    ///   printable ASCII without spaces or angle brackets, `.invalidHeader` when the display
    ///   name contains a line break.
    public init(_ address: String, displayName: String? = nil) throws(MessageError) {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254,
            address.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 && $0 != "<" && $0 != ">" && $0 != "," })
        else {
            throw MessageError(code: .invalidAddress, message: "'\(address.prefix(80))' is not a usable mail address")
        }
        if let displayName { try MessageError.checkHeaderValue(displayName, field: "display name") }
        self.address = address
        self.displayName = displayName
    }

    /// The mailbox as a header writes it.
    var headerText: String {
        guard let displayName, !displayName.isEmpty else { return address }
        if !HeaderEncoding.isPlainASCII(displayName) {
            return HeaderEncoding.encodedWords(displayName, firstLineUsed: 0).joined(separator: " ") + " <\(address)>"
        }
        let escaped = displayName.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
        return "\"\(escaped)\" <\(address)>"
    }
}
