import Foundation
import Glibc
import HearthStore
import Testing

/// The development mail transport through the real binary: mail pending in the outbox when
/// the server starts is delivered to the log transport, and `hearth mail list/show` read it.
@Suite struct MailCommandTests {
    private static let link = "https://hearth.example.org/confirm-email?token=tok_secret_123"

    @Test func theServerDeliversPendingMailToTheLogAndTheCommandsShowIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try ServerProcess.database(in: directory, sqlitePath: directory.appendingPathComponent("hearth.sqlite").path)
        #expect(try HearthCommand.run(["migrate", "--database", database]).status == 0)
        try Self.enqueue(in: database)

        let pending = try HearthCommand.run(["mail", "list"], environment: ["HEARTH_DATABASE": database])
        #expect(pending.status == 0)
        #expect(pending.standardOutput.contains("pending") && pending.standardOutput.contains("ada@example.org / Bestätige deine Adresse"))

        let server = try ServerProcess(directory: directory, arguments: ["--test-endpoints"])
        defer { server.remove() }
        // The delivery job was due at start: once no job is due or running, the mail was sent.
        try server.waitForDueJobs()
        #expect(server.stop() == 0)
        #expect(server.log.contains("hearth mail show 1"))
        #expect(!server.log.contains("tok_secret_123"))

        let shown = try HearthCommand.run(["mail", "show", "1", "--database", database])
        #expect(shown.status == 0)
        #expect(shown.standardOutput.contains("Status: sent (log)\n"))
        #expect(shown.standardOutput.contains("Subject: Bestätige deine Adresse\n"))
        #expect(shown.standardOutput.hasSuffix("\n\nOpen \(Self.link)\n"))
        let html = try HearthCommand.run(["mail", "show", "1", "--html", "--database", database])
        #expect(html.standardOutput.contains("<a href=\"\(Self.link)\">"))

        let missing = try HearthCommand.run(["mail", "show", "99", "--database", database])
        #expect(missing.status == 1 && missing.standardError.contains("no message 99"))
        #expect(try HearthCommand.run(["mail", "send", "--database", database]).status == 64)
    }

    /// A confirmation email as a service enqueues it: the outbox row and its delivery job.
    private static func enqueue(in location: String) throws {
        let now = Date()
        try TemporaryDatabase.withExisting(location) { try $0.write { database in
            try database.execute(
                """
                INSERT INTO mail_outbox (message_id, recipients, subject, text_body, html_body, created_at, next_attempt_at)
                VALUES ('e2e@hearth.test', '["ada@example.org"]', 'Bestätige deine Adresse', ?, ?, ?, ?)
                """,
                ["Open \(link)\n", "<p><a href=\"\(link)\">Confirm</a></p>", now, now])
            // And its delivery job, in the same transaction.
            try database.execute(
                """
                INSERT INTO jobs (kind, payload, dedupe_key, due_at, created_at, updated_at)
                VALUES ('mail.deliver', '{"outboxID":1}', '1', ?, ?, ?)
                """,
                [now, now, now])
        } }
    }
}
