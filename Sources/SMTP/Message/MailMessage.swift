import FoundationEssentials
import Glibc

/// An email as RFC 5322 and MIME (RFC 2045–2047) write it: `Date`, `Message-ID`, `From`,
/// `To`, `Subject` (encoded words when not ASCII, folded), `MIME-Version`, and a UTF-8
/// quoted-printable text body, or `multipart/alternative` with a text and an HTML part.
/// Every line ends in CRLF; header values with line breaks are refused (no header injection).
///
/// ```swift
/// let message = MailMessage(
///     from: try MailAddress("noreply@hearth.example", displayName: "Hearth"),
///     to: [try MailAddress("ada@example.org")], subject: "Confirm your address",
///     text: "Open https://hearth.example/confirm?token=…", html: "<p><a href=\"…\">Confirm</a></p>",
///     date: Date(), messageID: MailMessage.makeMessageID(domain: "hearth.example"))
/// let bytes = try message.encoded()
/// ```
public struct MailMessage: Sendable, Hashable {
    /// The author (`From`).
    public var from: MailAddress
    /// The recipients (`To`).
    public var to: [MailAddress]
    /// The subject, any Unicode text without line breaks.
    public var subject: String
    /// The plain-text body.
    public var text: String
    /// The HTML body, or nil for a text-only message.
    public var html: String?
    /// When the message was written (`Date`).
    public var date: Date
    /// The globally unique `Message-ID`, without angle brackets, e.g. `1a2b…@hearth.example`.
    public var messageID: String

    /// A message.
    public init(from: MailAddress, to: [MailAddress], subject: String, text: String, html: String?, date: Date, messageID: String) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.date = date
        self.messageID = messageID
    }

    /// A new random message ID at `domain`: 128 random bits in hex.
    public static func makeMessageID(domain: String) -> String {
        randomHex(bytes: 16) + "@" + domain
    }

    /// Checks that `subject` can be a `Subject` header: no line breaks or control characters.
    /// - Throws: `MessageError` `.invalidHeader`.
    public static func validate(subject: String) throws(MessageError) {
        try MessageError.checkHeaderValue(subject, field: "subject")
    }

    /// The message's bytes, ready for ``SMTPClient/send(_:envelope:)``.
    /// - Throws: `MessageError` `.invalidHeader` when the subject or message ID contains a
    ///   line break or control character, `.noRecipient` without recipients.
    public func encoded() throws(MessageError) -> [UInt8] {
        guard !to.isEmpty else { throw MessageError(code: .noRecipient, message: "a message needs at least one recipient") }
        try MessageError.checkHeaderValue(subject, field: "subject")
        try MessageError.checkHeaderValue(messageID, field: "message ID")
        guard messageID.contains("@"), !messageID.contains(" "), !messageID.contains("<"), !messageID.contains(">") else {
            throw MessageError(code: .invalidHeader, message: "the message ID must look like unique@domain")
        }
        var head = HeaderEncoding.field("Date", Self.rfc5322Date(date))
        head += HeaderEncoding.field("Message-ID", "<\(messageID)>")
        head += "From: " + from.headerText + "\r\n"
        head += HeaderEncoding.fold("To: " + to.map(\.headerText).joined(separator: ", ")) + "\r\n"
        head += HeaderEncoding.field("Subject", subject)
        head += "MIME-Version: 1.0\r\n"
        guard let html else {
            return Array((head + Self.textPart("plain", text) + "\r\n").utf8)
        }
        // "=_" never occurs in quoted-printable output, so the boundary cannot collide with a body.
        let boundary = "=_hearth_" + Self.randomHex(bytes: 12)
        var body = head + "Content-Type: multipart/alternative; boundary=\"\(boundary)\"\r\n\r\n"
        body += "This is a multi-part message in MIME format.\r\n"
        body += "--\(boundary)\r\n" + Self.textPart("plain", text) + "\r\n"
        body += "--\(boundary)\r\n" + Self.textPart("html", html) + "\r\n"
        body += "--\(boundary)--\r\n"
        return Array(body.utf8)
    }

    /// A UTF-8 quoted-printable part: its headers, a blank line and the encoded text.
    private static func textPart(_ subtype: String, _ content: String) -> String {
        "Content-Type: text/\(subtype); charset=UTF-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
            + QuotedPrintable.encode(content)
    }

    /// `Tue, 01 Dec 2026 17:11:44 +0000` (RFC 5322 §3.3), in UTC.
    static func rfc5322Date(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    private static func randomHex(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined()
    }
}
