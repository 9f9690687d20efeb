import FoundationEssentials
import HearthServices
import HearthStore
import Support

/// `hearth mail list` and `hearth mail show ID`: read the mail outbox of a database, where
/// the development transport leaves messages (with their links and tokens) for a developer.
/// Messages sent by SMTP are kept without their links' tokens (``MailOutbox``).
enum MailCommand: Command {
    static let name = "mail"
    static let summary = "List the mail outbox or show one message (the development transport keeps mail there)"
    static let usage = """
    Usage: hearth mail list [--limit N] [--database PATH]
           hearth mail show ID [--html] [--database PATH]

    'list' prints the newest messages of the outbox: id, status, attempts, creation time,
    recipients and subject. 'show' prints one message's delivery state and its text body
    (or its HTML body with --html). With the development transport (--mail-transport log)
    this is how to read confirmation and password-reset links. With --mail-transport smtp
    the outbox never holds a link's token: the body shows \(MailOutbox.tokenPlaceholder) in its
    place, and only the recipient's copy has the working link.
    """
    static let options: [OptionSpec] = [
        .value("--limit", "N", default: "20", help: "How many messages 'list' prints, newest first."),
        .toggle("--html", help: "'show' prints the HTML body instead of the text body."),
    ] + DatabaseSettings.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let settings = try DatabaseSettings(options)
        switch options.positional.first {
        case "list" where options.positional.count == 1:
            let limit = try options.integer("--limit", in: 1...100_000) ?? 20
            let messages = try settings.readExisting { try MailOutbox.messages(limit: limit, in: $0) }
            print(listing(messages), terminator: "")
            return 0
        case "show" where options.positional.count == 2:
            let id = try options.id(at: 1, of: "a message")
            guard let message = try settings.readExisting({ try MailOutbox.message(id: id, in: $0) }) else {
                StandardStreams.writeError("hearth mail: no message \(id) in the outbox\n")
                return 1
            }
            print(details(message, html: try options.isOn("--html")), terminator: "")
            return 0
        default:
            throw UsageError(message: "expected 'list' or 'show ID'")
        }
    }

    /// One line per message, under a header line.
    static func listing(_ messages: [OutboxMessage]) -> String {
        guard !messages.isEmpty else { return "the outbox is empty\n" }
        return CommandOutput.header(state: "STATUS", time: "CREATED", rest: "TO / SUBJECT") + messages.map { message in
            CommandOutput.row(
                message.id, message.status.rawValue, message.attempts, message.createdAt,
                message.recipients.joined(separator: ", ") + " / " + message.subject)
        }.joined()
    }

    /// The delivery state as header-like lines, a blank line, and the chosen body.
    static func details(_ message: OutboxMessage, html: Bool) -> String {
        var lines = [
            "Id: \(message.id)",
            "Status: \(message.status.rawValue)" + (message.transport.map { " (\($0))" } ?? ""),
            "Message-ID: <\(message.messageID)>",
            "To: \(message.recipients.joined(separator: ", "))",
            "Subject: \(message.subject)",
            "Created: \(CommandOutput.timestamp(message.createdAt))",
            "Attempts: \(message.attempts)",
        ]
        if let sentAt = message.sentAt { lines.append("Sent: \(CommandOutput.timestamp(sentAt))") }
        if message.status == .pending { lines.append("Next attempt: \(CommandOutput.timestamp(message.nextAttemptAt))") }
        if let error = message.lastError { lines.append("Last error: \(error)") }
        if message.withheldLinkKind != nil {
            lines.append("Link: its token is not stored (\(MailOutbox.tokenPlaceholder)); only the recipient's copy has it")
        }
        let body = html ? (message.html ?? "(no HTML body)") : message.text
        return lines.joined(separator: "\n") + "\n\n" + body + (body.hasSuffix("\n") ? "" : "\n")
    }
}
