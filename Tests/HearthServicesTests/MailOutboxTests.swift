import Foundation
import HearthServices
import HearthStore
import SMTP
import Support
import TestFixtures
import Testing

/// The outbox and its delivery job, run by the scheduler, with a scripted transport and a hand-moved clock.
struct MailOutboxTests {
    private let mail = OutgoingMail(recipients: ["ada@example.org"], subject: "Hello", text: "Hi Ada\n", html: "<p>Hi Ada</p>")

    @Test func enqueuedMailCommitsOrRollsBackWithTheCallersTransaction() async throws {
        try await MigratedDatabase.withDatabase { pool in
            let outbox = MailOutbox(pool: pool)
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try pool.write { database in
                    try outbox.enqueue(mail, in: database)
                    throw Abort()
                }
            }
            #expect(try outbox.messages(limit: 10).isEmpty)
            let id = try outbox.enqueueNow(mail)
            let stored = try #require(try outbox.message(id: id))
            #expect(stored.status == .pending && stored.attempts == 0 && stored.recipients == ["ada@example.org"])
            #expect(stored.subject == "Hello" && stored.text == "Hi Ada\n" && stored.html == "<p>Hi Ada</p>")
            #expect(stored.messageID.hasSuffix("@hearth.test"))
        }
    }

    @Test func refusesUnusableRecipientsAndSubjectsWithLineBreaks() async throws {
        try await MigratedDatabase.withDatabase { pool in
            let outbox = MailOutbox(pool: pool)
            #expect(throws: MessageError.self) { try outbox.enqueueNow(OutgoingMail(recipients: ["nobody"], subject: "x", text: "")) }
            #expect(throws: MessageError.self) { try outbox.enqueueNow(OutgoingMail(recipients: [], subject: "x", text: "")) }
            #expect(throws: MessageError.self) {
                try outbox.enqueueNow(OutgoingMail(recipients: ["a@b.test"], subject: "x\r\nBcc: c@d.test", text: ""))
            }
        }
    }

    @Test func retriesTransientFailuresWithGrowingDelaysThenDelivers() async throws {
        try await MigratedDatabase.withDatabase { pool in
            let clock = ManualClock()
            let transient = MailDeliveryError(code: .transient, message: "451 try later")
            let delivery = MailDelivery(
                pool: pool, transport: ScriptedTransport(failures: [transient, transient]), clock: clock,
                retry: RetryPolicy(initialDelay: .seconds(30), jitter: { 1 }))
            let outbox = delivery.outbox
            let id = try outbox.enqueueNow(mail)
            #expect(try await delivery.deliverDueMessages().retrying == 1)
            #expect(try outbox.message(id: id)?.nextAttemptAt == clock.now.addingTimeInterval(30))
            #expect(try await delivery.deliverDueMessages() == .init())  // not due yet
            clock.advance(seconds: 30)
            #expect(try await delivery.deliverDueMessages().retrying == 1)
            #expect(try outbox.message(id: id)?.nextAttemptAt == clock.now.addingTimeInterval(60))
            #expect(try outbox.message(id: id)?.lastError == "451 try later")
            clock.advance(seconds: 60)
            #expect(try await delivery.deliverDueMessages().done == 1)
            let sent = try #require(try outbox.message(id: id))
            #expect(sent.status == .sent && sent.attempts == 3 && sent.transport == "scripted" && sent.sentAt == clock.now)
            #expect(sent.lastError == nil)
        }
    }

    @Test func marksPermanentFailuresFailedAtOnceAndTransientOnesAfterTheLastAttempt() async throws {
        try await MigratedDatabase.withDatabase { pool in
            let clock = ManualClock()
            let permanent = MailDelivery(
                pool: pool, transport: ScriptedTransport(failures: [MailDeliveryError(code: .permanent, message: "550 no such user")]),
                clock: clock)
            let refused = try permanent.outbox.enqueueNow(mail)
            #expect(try await permanent.deliverDueMessages().dead == 1)
            #expect(try permanent.outbox.message(id: refused)?.status == .failed)
            #expect(try permanent.outbox.message(id: refused)?.lastError == "550 no such user")
            let dead = try await pool.read { database in try JobQueue.jobs(state: .dead, kind: .mailDelivery, limit: 10, in: database) }
            #expect(dead.count == 1)

            let patient = MailDelivery(
                pool: pool, transport: ScriptedTransport(failures: Array(repeating: MailDeliveryError(code: .transient, message: "down"), count: 5)),
                clock: clock, retry: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), maxDelay: .seconds(1), jitter: { 1 }))
            let flaky = try patient.outbox.enqueueNow(mail)
            for _ in 0..<2 {
                #expect(try await patient.deliverDueMessages().retrying == 1)
                clock.advance(seconds: 1)
            }
            #expect(try await patient.deliverDueMessages().dead == 1)
            #expect(try patient.outbox.message(id: flaky)?.status == .failed && patient.outbox.message(id: flaky)?.attempts == 3)
        }
    }

    @Test func aRunningSchedulerIsWokenByACommittedEnqueue() async throws {
        try await MigratedDatabase.withDatabase { pool in
            let transport = ScriptedTransport()
            let delivery = MailDelivery(pool: pool, transport: transport)
            let running = Task { await delivery.scheduler.run() }
            var deliveries = transport.delivered.makeAsyncIterator()
            // No pending mail: the scheduler waits until the enqueue commits (or its poll interval, a minute).
            let id = try delivery.outbox.enqueueNow(mail)
            #expect(await deliveries.next()?.id == id)
            let second = try delivery.outbox.enqueueNow(mail)
            #expect(await deliveries.next()?.id == second)
            running.cancel()
            await running.value
            #expect(try delivery.outbox.message(id: second)?.status == .sent)
        }
    }

    @Test func pendingMailFromBeforeARestartIsDelivered() async throws {
        try await TemporaryDatabase.withPath { path in
            let first = try DatabasePool(path: path)
            try Migrator(migrations: MigratedDatabase.migrations).migrate(first)
            let id = try MailOutbox(pool: first).enqueueNow(mail)
            first.close()

            let pool = try DatabasePool(path: path)
            defer { pool.close() }
            let transport = ScriptedTransport()
            let delivery = MailDelivery(pool: pool, transport: transport)
            let running = Task { await delivery.scheduler.run() }
            var deliveries = transport.delivered.makeAsyncIterator()
            #expect(await deliveries.next()?.id == id)
            running.cancel()
            await running.value
        }
    }

    /// A message carrying a link's token, as the services compose it.
    private func linkMail(_ token: LinkToken) throws -> OutgoingMail {
        try MailTemplate(
            subject: "Confirm", greeting: "Hello,", paragraphs: ["Confirm your address:"],
            action: .init(label: "Confirm my address", path: "/confirm-email", token: token)
        ).render(to: ["ada@example.org"], baseURL: try PublicBaseURL("https://hearth.test"))
    }

    @Test func theOutboxStoresAPlaceholderForALinksTokenAndTheDeliveryJobSendsTheToken() async throws {
        try await MigratedDatabase.withPool { pool in
            let outbox = MailOutbox(pool: pool)
            let token = LinkTokens.forTests.issue(.emailToken)
            let id = try outbox.enqueueNow(try linkMail(token))
            let stored = try #require(try outbox.message(id: id))
            let withheld = "https://hearth.test/confirm-email?token=\(MailOutbox.tokenPlaceholder)"
            #expect(stored.text.contains(withheld) && stored.html?.contains(withheld) == true)
            #expect(!stored.text.contains(token.value) && stored.html?.contains(token.value) == false)
            #expect(stored.withheldLinkKind == .emailToken && stored.withheldLinkID == token.id)
            #expect(try !pool.filesContain(token.value), "not in any page or log frame")

            let transport = ScriptedTransport()
            #expect(try await MailDelivery(pool: pool, transport: transport).deliverDueMessages().done == 1)
            var deliveries = transport.delivered.makeAsyncIterator()
            let sent = try #require(await deliveries.next())
            let link = "https://hearth.test/confirm-email?token=\(token.value)"
            #expect(sent.text.contains(link) && sent.html?.contains(link) == true, "\(sent.text)")
            #expect(!sent.text.contains(MailOutbox.tokenPlaceholder) && sent.withheldLinkKind == nil)
            let record = try #require(try outbox.message(id: id))
            #expect(record.status == .sent && record.text == stored.text, "the record of the sent message still withholds it")
            #expect(try !pool.filesContain(token.value))
        }
    }

    @Test func theDevelopmentOutboxKeepsTheTokenForHearthMailShow() async throws {
        try await MigratedDatabase.withDatabase { pool in
            let outbox = MailOutbox(pool: pool, keepsLinkTokens: true)
            let token = LinkTokens.forTests.issue(.invitation)
            let stored = try #require(try outbox.message(id: try outbox.enqueueNow(try linkMail(token))))
            #expect(stored.text.contains("https://hearth.test/confirm-email?token=\(token.value)"))
            #expect(stored.withheldLinkKind == nil && stored.withheldLinkID == nil)
        }
    }

    @Test func theTemplateLinksToThePublicBaseURLInBothBodiesAndEscapesHTML() throws {
        let template = MailTemplate(
            subject: "Confirm your email address", greeting: "Hello <Ada> & co,",
            paragraphs: ["Please confirm this address to finish creating your Hearth account."],
            action: .init(label: "Confirm my address", path: "/confirm-email?token=abc123"),
            closing: "If you did not create an account, ignore this email.")
        let mail = template.render(to: ["ada@example.org"], baseURL: try PublicBaseURL("https://hearth.example.org/"))
        #expect(mail.subject == "Confirm your email address" && mail.recipients == ["ada@example.org"])
        #expect(mail.text.contains("Confirm my address:\nhttps://hearth.example.org/confirm-email?token=abc123"))
        #expect(mail.text.hasPrefix("Hello <Ada> & co,\n\nPlease confirm"))
        let html = try #require(mail.html)
        #expect(html.contains("<a href=\"https://hearth.example.org/confirm-email?token=abc123\">Confirm my address</a>"))
        #expect(html.contains("Hello &lt;Ada&gt; &amp; co,"))
        #expect(throws: (any Error).self) { try PublicBaseURL("hearth.example.org") }
    }
}
