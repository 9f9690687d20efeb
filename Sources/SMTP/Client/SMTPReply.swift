/// One SMTP reply (RFC 5321 §4.2): a three-digit code and one or more text lines
/// (a multi-line reply repeats the code with `-` on every line but the last).
public struct SMTPReply: Sendable, Hashable, CustomStringConvertible {
    /// The reply code, 200–599.
    public var code: Int
    /// The text of each line, without the code and separator.
    public var lines: [String]

    /// Creates a reply.
    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    /// 2xx: the command succeeded.
    public var isCompletion: Bool { code / 100 == 2 }
    /// 3xx: the server waits for more (the message after `DATA`, an `AUTH` challenge).
    public var isIntermediate: Bool { code / 100 == 3 }
    /// 4xx: a temporary failure; the same command may succeed later.
    public var isTransientFailure: Bool { code / 100 == 4 }
    /// 5xx: a permanent failure; repeating the command will not help.
    public var isPermanentFailure: Bool { code / 100 == 5 }

    /// The reply as the server sent it, lines joined with ` / `.
    public var description: String {
        "\(code) " + lines.joined(separator: " / ")
    }
}
