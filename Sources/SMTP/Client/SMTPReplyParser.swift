/// Assembles ``SMTPReply`` values from reply lines (RFC 5321 §4.2.1): `250-first`,
/// `250-second`, `250 last` make one reply. Bounded: a reply has at most ``maxLines`` lines.
public struct SMTPReplyParser: Sendable {
    /// The most lines one reply may have (an EHLO reply lists a dozen extensions at most).
    public let maxLines: Int
    private var pending: SMTPReply?

    /// A parser accepting replies of up to `maxLines` lines.
    public init(maxLines: Int = 100) {
        self.maxLines = maxLines
    }

    /// Consumes one line (without its CRLF).
    /// - Returns: the reply when `line` completed it, nil when more lines follow.
    /// - Throws: `SMTPError` `.protocolViolation` for a line that is not `DDD[ -]text`, a
    ///   continuation line with another code, or too many lines.
    public mutating func feed(_ line: [UInt8]) throws(SMTPError) -> SMTPReply? {
        let text = String(decoding: line, as: UTF8.self)
        guard line.count >= 3, line[0...2].allSatisfy({ (48...57).contains($0) }), (2...5).contains(Int(line[0]) - 48),
            line.count == 3 || line[3] == 32 || line[3] == 45
        else {
            throw SMTPError(code: .protocolViolation, message: "the server sent a malformed reply line '\(text.prefix(80))'")
        }
        let code = Int(text.prefix(3))!
        let isLast = line.count == 3 || line[3] == 32
        let content = line.count > 4 ? String(text.dropFirst(4)) : ""
        var reply = pending ?? SMTPReply(code: code, lines: [])
        guard reply.code == code else {
            throw SMTPError(code: .protocolViolation, message: "a multi-line reply changed its code from \(reply.code) to \(code)")
        }
        reply.lines.append(content)
        guard reply.lines.count <= maxLines else {
            throw SMTPError(code: .protocolViolation, message: "a reply has more than \(maxLines) lines")
        }
        if isLast {
            pending = nil
            return reply
        }
        pending = reply
        return nil
    }
}
