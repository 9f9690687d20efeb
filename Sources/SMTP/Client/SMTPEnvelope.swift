/// The SMTP envelope of one message (RFC 5321 §2.3.1): the reverse path given in
/// `MAIL FROM` and the forward paths given in `RCPT TO`, which may differ from the message's
/// `From` and `To` headers.
public struct SMTPEnvelope: Sendable, Hashable {
    /// The sender's address (bounces go there), without angle brackets.
    public var sender: String
    /// The recipients' addresses, without angle brackets.
    public var recipients: [String]

    /// An envelope.
    /// - Throws: `SMTPError` `.invalidMessage` when there is no recipient or an address is
    ///   empty, has no `@`, or contains characters that would change the command (line
    ///   breaks, angle brackets, spaces).
    public init(sender: String, recipients: [String]) throws(SMTPError) {
        guard !recipients.isEmpty else { throw SMTPError(code: .invalidMessage, message: "a message needs at least one recipient") }
        for address in [sender] + recipients {
            guard address.contains("@"), address.utf8.count <= 254,
                !address.unicodeScalars.contains(where: { $0.value <= 32 || $0 == "<" || $0 == ">" || $0.value == 127 })
            else {
                throw SMTPError(code: .invalidMessage, message: "'\(address.prefix(80))' is not a usable mail address")
            }
        }
        self.sender = sender
        self.recipients = recipients
    }
}
