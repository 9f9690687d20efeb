import Foundation
import HearthServices
import HearthStore
import SMTP
import Support
import TestFixtures
import Testing

/// The outbox and the delivery worker with a scripted transport and a hand-moved clock.
struct MailOutboxTests {
    private let mail = OutgoingMail(recipients: ["ada@example.org"], subject: "Hello", text: "Hi Ada\n", html: "<p>Hi Ada</p>")

    @Test func enqueuedMailCommitsOrRollsBackWithTheCallersTransaction() async throws {
        try await MigratedDatabase.withPool { pool in
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test")
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
        try await MigratedDatabase.withPool { pool in
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test")
            #expect(throws: MessageError.self) { try outbox.enqueueNow(OutgoingMail(recipients: ["nobody"], subject: "x", text: "")) }
            #expect(throws: MessageError.self) { try outbox.enqueueNow(OutgoingMail(recipients: [], subject: "x", text: "")) }
            #expect(throws: MessageError.self) {
                try outbox.enqueueNow(OutgoingMail(recipients: ["a@b.test"], subject: "x\r\nBcc: c@d.test", text: ""))
            }
        }
    }

    @Test func retriesTransientFailuresWithGrowingDelaysThenDelivers() async throws {
        try await MigratedDatabase.withPool { pool in
            let clock = ManualClock()
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test", now: clock.function)
            let transient = MailDeliveryError(code: .transient, message: "451 try later")
            let transport = ScriptedTransport(failures: [transient, transient])
            let worker = MailDeliveryWorker(
                outbox: outbox, transport: transport, links: .forTests, configuration: .init(initialRetryDelay: .seconds(30)), logger: .disabled,
                jitter: { 1 })
            let id = try outbox.enqueueNow(mail)
            #expect(try await worker.deliverDueMessages().retrying == 1)
            #expect(try outbox.message(id: id)?.nextAttemptAt == clock.now.addingTimeInterval(30))
            #expect(try await worker.deliverDueMessages() == .init())  // not due yet
            clock.advance(seconds: 30)
            #expect(try await worker.deliverDueMessages().retrying == 1)
            #expect(try outbox.message(id: id)?.nextAttemptAt == clock.now.addingTimeInterval(60))
            #expect(try outbox.message(id: id)?.lastError == "451 try later")
            clock.advance(seconds: 60)
            #expect(try await worker.deliverDueMessages().sent == 1)
            let sent = try #require(try outbox.message(id: id))
            #expect(sent.status == .sent && sent.attempts == 3 && sent.transport == "scripted" && sent.sentAt == clock.now)
            #expect(sent.lastError == nil)
        }
    }

    @Test func marksPermanentFailuresFailedAtOnceAndTransientOnesAfterTheLastAttempt() async throws {
        try await MigratedDatabase.withPool { pool in
            let clock = ManualClock()
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test", now: clock.function)
            let refused = try outbox.enqueueNow(mail)
            let permanent = ScriptedTransport(failures: [MailDeliveryError(code: .permanent, message: "550 no such user")])
            let worker = MailDeliveryWorker(outbox: outbox, transport: permanent, links: .forTests, logger: .disabled, jitter: { 1 })
            #expect(try await worker.deliverDueMessages().failed == 1)
            #expect(try outbox.message(id: refused)?.status == .failed)
            #expect(try outbox.message(id: refused)?.lastError == "550 no such user")

            let flaky = try outbox.enqueueNow(mail)
            let transient = ScriptedTransport(failures: Array(repeating: MailDeliveryError(code: .transient, message: "down"), count: 5))
            let patient = MailDeliveryWorker(
                outbox: outbox, transport: transient, links: .forTests,
                configuration: .init(maxAttempts: 3, initialRetryDelay: .seconds(1), maxRetryDelay: .seconds(1)), logger: .disabled,
                jitter: { 1 })
            for _ in 0..<2 {
                #expect(try await patient.deliverDueMessages().retrying == 1)
                clock.advance(seconds: 1)
            }
            #expect(try await patient.deliverDueMessages().failed == 1)
            #expect(try outbox.message(id: flaky)?.status == .failed && outbox.message(id: flaky)?.attempts == 3)
        }
    }

    @Test func aRunningWorkerIsWokenByACommittedEnqueue() async throws {
        try await MigratedDatabase.withPool { pool in
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test")
            let transport = ScriptedTransport()
            let worker = MailDeliveryWorker(outbox: outbox, transport: transport, links: .forTests, logger: .disabled)
            let running = Task { await worker.run() }
            var deliveries = transport.delivered.makeAsyncIterator()
            // No pending mail: the worker waits without a timeout until the enqueue commits.
            let id = try outbox.enqueueNow(mail)
            #expect(await deliveries.next()?.id == id)
            let second = try outbox.enqueueNow(mail)
            #expect(await deliveries.next()?.id == second)
            running.cancel()
            await running.value
            #expect(try outbox.message(id: second)?.status == .sent)
        }
    }

    @Test func pendingMailFromBeforeARestartIsDelivered() async throws {
        try await TemporaryDatabase.withPath { path in
            let first = try DatabasePool(path: path)
            try Migrator(migrations: MigratedDatabase.migrations).migrate(first)
            let id = try MailOutbox(pool: first, messageIDDomain: "hearth.test").enqueueNow(mail)
            first.close()

            let pool = try DatabasePool(path: path)
            defer { pool.close() }
            let transport = ScriptedTransport()
            let worker = MailDeliveryWorker(outbox: MailOutbox(pool: pool, messageIDDomain: "hearth.test"), transport: transport, links: .forTests, logger: .disabled)
            let running = Task { await worker.run() }
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

    @Test func theOutboxStoresAPlaceholderForALinksTokenAndTheWorkerSendsTheToken() async throws {
        try await MigratedDatabase.withPool { pool in
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test")
            let token = LinkTokens.forTests.issue(.emailToken)
            let id = try outbox.enqueueNow(try linkMail(token))
            let stored = try #require(try outbox.message(id: id))
            let withheld = "https://hearth.test/confirm-email?token=\(MailOutbox.tokenPlaceholder)"
            #expect(stored.text.contains(withheld) && stored.html?.contains(withheld) == true)
            #expect(!stored.text.contains(token.value) && stored.html?.contains(token.value) == false)
            #expect(stored.withheldLinkKind == .emailToken && stored.withheldLinkID == token.id)
            #expect(try !pool.filesContain(token.value), "not in any page or log frame")

            let transport = ScriptedTransport()
            let worker = MailDeliveryWorker(outbox: outbox, transport: transport, links: .forTests, logger: .disabled)
            #expect(try await worker.deliverDueMessages().sent == 1)
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
        try await MigratedDatabase.withPool { pool in
            let outbox = MailOutbox(pool: pool, messageIDDomain: "hearth.test", keepsLinkTokens: true)
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
