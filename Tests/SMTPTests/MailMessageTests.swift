import Foundation
import SMTP
import TestPython
import Testing

/// Composed messages read back by Python's `email` package (policy `default`, which decodes
/// RFC 2047 words and MIME parts) as the oracle.
struct MailMessageTests {
    private static let parse = #"""
    import email, email.policy, email.utils, json, sys
    message = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
    parts = [{"type": part.get_content_type(), "content": part.get_content()} for part in message.walk() if not part.is_multipart()]
    print(json.dumps({
        "subject": message["Subject"], "from": message["From"], "to": message["To"],
        "date": email.utils.parsedate_to_datetime(message["Date"]).timestamp(), "messageID": message["Message-ID"],
        "type": message.get_content_type(), "mime": message["MIME-Version"], "parts": parts,
        "defects": [str(defect) for part in message.walk() for defect in part.defects]}))
    """#

    private func parsed(_ message: MailMessage) throws -> [String: Any] {
        let outcome = try TestPython.run(["-c", Self.parse], input: Data(try message.encoded()))
        #expect(outcome.status == 0, "\(outcome.errors)")
        return try JSONSerialization.jsonObject(with: outcome.standardOutput) as? [String: Any] ?? [:]
    }

    private func message(subject: String, text: String, html: String?) throws -> MailMessage {
        MailMessage(
            from: try MailAddress("noreply@hearth.test", displayName: "Hearth \"Home\""),
            to: [try MailAddress("ada@example.org", displayName: "Åda Lövelace"), try MailAddress("bob@example.org")],
            subject: subject, text: text, html: html, date: Date(timeIntervalSince1970: 1_764_000_000),
            messageID: "abc123@hearth.test")
    }

    @Test func writesHeadersAndBothPartsThatAMailReaderDecodes() throws {
        let subject = "Bestätige deine Adresse – ein sehr langer Betreff, der über mehrere Zeilen gefaltet werden muss 🏠"
        let text = "Hallo Åda,\n.a line starting with a dot\nOpen https://hearth.test/confirm?token=a=b&c=d now. Trailing space \n"
            + String(repeating: "long line ", count: 20)
        let html = "<p>Hallo Åda, <a href=\"https://hearth.test/confirm?token=a=b\">bestätigen</a></p>"
        let fields = try parsed(message(subject: subject, text: text, html: html))
        #expect(fields["subject"] as? String == subject)
        #expect(fields["from"] as? String == "\"Hearth \\\"Home\\\"\" <noreply@hearth.test>")
        #expect(fields["to"] as? String == "Åda Lövelace <ada@example.org>, bob@example.org")
        #expect(fields["date"] as? Double == 1_764_000_000)
        #expect(fields["messageID"] as? String == "<abc123@hearth.test>")
        #expect(fields["type"] as? String == "multipart/alternative" && fields["mime"] as? String == "1.0")
        let parts = fields["parts"] as? [[String: String]] ?? []
        #expect(parts.map { $0["type"] } == ["text/plain", "text/html"])
        #expect(parts.first?["content"] == text.replacingOccurrences(of: "\n", with: "\r\n").appending("\r\n")
            || parts.first?["content"] == text + "\n")
        #expect(parts.last?["content"]?.contains(html) == true)
        #expect((fields["defects"] as? [String])?.isEmpty == true)
    }

    @Test func keepsEveryLineShortAndEndsEveryLineWithCRLF() throws {
        let bytes = try message(subject: String(repeating: "word ", count: 40), text: String(repeating: "é", count: 300), html: "<p>x</p>").encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 78, "\(line)") }
        #expect(bytes.allSatisfy { $0 < 128 })
    }

    @Test func writesATextOnlyMessageWithoutMultipart() throws {
        let fields = try parsed(message(subject: "Plain", text: "just text\n", html: nil))
        #expect(fields["type"] as? String == "text/plain")
        #expect((fields["parts"] as? [[String: String]])?.first?["content"] == "just text\n")
    }

    @Test func refusesLineBreaksInHeaderValues() throws {
        #expect(throws: MessageError.self) { try message(subject: "Hi\r\nBcc: victim@example.org", text: "", html: nil).encoded() }
        #expect(throws: MessageError.self) { try MailAddress("ada@example.org", displayName: "Ada\nBcc: x@y") }
        #expect(throws: MessageError.self) { try MailAddress("ada@example.org>\r\nBcc: x@y") }
        #expect(throws: MessageError.self) { try MailAddress("not-an-address") }
        #expect(throws: SMTPError.self) { try SMTPEnvelope(sender: "a@b", recipients: ["c@d>\r\nRCPT TO:<e@f"]) }
    }
}
