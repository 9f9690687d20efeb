/// An email a service wants sent: recipients, subject and bodies. The sender, `Date` and
/// `Message-ID` are added by the outbox and the transport.
public struct OutgoingMail: Sendable, Hashable {
    /// The recipients' addresses (`To`), at least one.
    public var recipients: [String]
    /// The subject; any Unicode text without line breaks.
    public var subject: String
    /// The plain-text body.
    public var text: String
    /// The HTML body, or nil for a text-only message.
    public var html: String?
    /// The token of the link the bodies carry, if any: unless the transport is the development
    /// one, the outbox stores the bodies with a placeholder in its place and the delivery
    /// job puts it back at send time (see ``MailOutbox``).
    public var link: LinkToken?

    /// An email.
    public init(recipients: [String], subject: String, text: String, html: String? = nil, link: LinkToken? = nil) {
        self.recipients = recipients
        self.subject = subject
        self.text = text
        self.html = html
        self.link = link
    }
}
