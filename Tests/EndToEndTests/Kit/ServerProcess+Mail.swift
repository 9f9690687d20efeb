import Foundation
import GraphQL
import HearthStore

extension ServerProcess {
    /// One message of the server's mail outbox (the development `log` transport keeps every
    /// message there, sent or not).
    struct OutboxMail {
        /// The outbox id (`hearth mail show ID`).
        let id: Int64
        /// The addresses it goes to.
        let recipients: [String]
        /// The subject line.
        let subject: String
        /// The plain-text body.
        let text: String

        /// The token of the first link to `page` (such as `confirm-email`) under `baseURL`.
        func token(linkingTo page: String, under baseURL: String) -> String? {
            ServerProcess.linkTokens(in: text, linkingTo: "\(baseURL)/\(page)").first
        }
    }

    /// The tokens of the links in `text` (`…?token=TOKEN`), in order; only links starting with
    /// `prefix` when one is given.
    static func linkTokens(in text: String, linkingTo prefix: String = "") -> [String] {
        text.components(separatedBy: "\(prefix)?token=").dropFirst().compactMap { part in
            let token = part.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
            return token.isEmpty ? nil : String(token)
        }
    }

    /// The messages the server queued for `address`, oldest first, read from its database.
    func mails(to address: String) throws -> [OutboxMail] {
        // The recipients column is JSON, read in Swift: the dialects' JSON functions differ.
        let all = try TemporaryDatabase.withExisting(database) { store in
            try store.read { database in
                try database.query("SELECT id, recipients, subject, text_body FROM mail_outbox ORDER BY id").map { row in
                    let recipients = try JSON(parsing: Array((try row["recipients"] as String).utf8))
                    guard case .array(let list) = recipients else { throw Failure(description: "recipients are not a JSON array") }
                    return OutboxMail(
                        id: try row["id"], recipients: list.compactMap(\.stringValue), subject: try row["subject"], text: try row["text_body"])
                }
            }
        }
        return all.filter { $0.recipients.contains(address) }
    }

    /// Every token of every link in the outbox (any page, any recipient), for checks that look
    /// for secrets elsewhere.
    func emailedTokens() throws -> Set<String> {
        let bodies: [String] = try TemporaryDatabase.withExisting(database) { store in
            try store.read { database in try database.query("SELECT text_body FROM mail_outbox").map { try $0["text_body"] } }
        }
        return Set(bodies.flatMap { Self.linkTokens(in: $0) })
    }

    /// The token of the newest link to `page` mailed to `address`.
    func emailedToken(to address: String, page: String, baseURL: String) throws -> String {
        guard let token = try mails(to: address).reversed().lazy.compactMap({ $0.token(linkingTo: page, under: baseURL) }).first else {
            throw Failure(description: "no \(page) link was mailed to \(address)")
        }
        return token
    }
}
