/// The service extensions a server lists in its EHLO reply (RFC 5321 §4.1.1.1): one keyword
/// per line after the greeting line, with parameters, e.g. `STARTTLS` or `AUTH PLAIN LOGIN`.
struct SMTPExtensions: Sendable, Hashable {
    /// The keywords, upper-cased.
    var keywords: Set<String> = []
    /// The mechanisms listed after `AUTH`, upper-cased.
    var authenticationMechanisms: Set<String> = []

    /// No extensions (after HELO).
    init() {}

    /// The extensions of an EHLO reply.
    init(ehloReply reply: SMTPReply) {
        for line in reply.lines.dropFirst() {
            let words = line.split(separator: " ").map { $0.uppercased() }
            guard let keyword = words.first else { continue }
            keywords.insert(keyword)
            if keyword == "AUTH" { authenticationMechanisms.formUnion(words.dropFirst()) }
        }
    }

    /// Whether the server offers STARTTLS.
    var supportsStartTLS: Bool { keywords.contains("STARTTLS") }
}
