import Foundation
import HearthServices
import Net
import SMTP
import TestPython
import TestFixtures
import Testing

/// Delivery through a real SMTP server on loopback: aiosmtpd with STARTTLS (a certificate
/// from a CA generated for the run) and AUTH, which parses each message it receives with
/// Python's `email` package and reports what arrived. One test uses implicit TLS instead.
///
/// The server refuses recipients starting with `refused` (550), and answers 451 to the first
/// DATA of a message whose subject contains `flaky`.
struct MailSMTPDeliveryTests {
    private static let script = #"""
    import base64, email, email.policy, email.utils, json, socket, ssl, sys, threading
    import trustme
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    directory, implicit = sys.argv[1], sys.argv[2] == "implicit"
    authority = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("localhost", "127.0.0.1").configure_cert(context)
    authority.cert_pem.write_to_path(directory + "/ca.pem")
    refused_once = set()

    class Handler:
        async def handle_RCPT(self, server, session, envelope, address, options):
            if address.startswith("refused"):
                return "550 5.1.1 no such user"
            envelope.rcpt_tos.append(address)
            return "250 OK"
        async def handle_DATA(self, server, session, envelope):
            try:
                return self.receive(server, session, envelope)
            except Exception as error:
                print(json.dumps({"error": repr(error)}), flush=True)
                return "554 5.3.0 the test server failed"
        def receive(self, server, session, envelope):
            message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
            if "flaky" in message["Subject"] and message["Message-ID"] not in refused_once:
                refused_once.add(message["Message-ID"])
                return "451 4.3.0 try again later"
            parts = [{"type": part.get_content_type(), "content": part.get_content()}
                     for part in message.walk() if not part.is_multipart()]
            print(json.dumps({
                "sender": envelope.mail_from, "recipients": envelope.rcpt_tos, "tls": server.transport.get_extra_info("ssl_object") is not None,
                "user": session.auth_data.login.decode() if session.auth_data else None,
                "subject": message["Subject"], "from": message["From"], "to": message["To"],
                "date": email.utils.parsedate_to_datetime(message["Date"]).timestamp(),
                "messageID": message["Message-ID"], "type": message.get_content_type(), "mime": message["MIME-Version"],
                "parts": parts, "defects": [str(d) for part in message.walk() for d in part.defects]}), flush=True)
            return "250 OK queued"

    def authenticate(server, session, envelope, mechanism, auth_data):
        accepted = auth_data.login == b"hearth" and auth_data.password == "s3cret päss".encode()
        # handled=False: aiosmtpd itself answers 535 to a refusal.
        return AuthResult(success=accepted, handled=False, auth_data=auth_data if accepted else None)

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    # aiosmtpd counts only STARTTLS as TLS for auth_require_tls, so implicit TLS switches it off.
    security = (dict(ssl_context=context, auth_require_tls=False) if implicit
                else dict(tls_context=context, require_starttls=True, auth_require_tls=True))
    controller = Controller(Handler(), hostname="127.0.0.1", port=port, authenticator=authenticate, **security)
    controller.start()
    print(json.dumps({"port": port}), flush=True)
    threading.Event().wait()
    """#

    /// The server, its CA file, and a transport configured for it.
    private final class Server {
        let peer: PythonPeer
        /// Where its files are (removed by ``stop()``).
        private let directory: String
        let port: Int
        let authorityFile: String
        let security: SMTPClientConfiguration.Security

        init(security: SMTPClientConfiguration.Security = .startTLSRequired) throws {
            self.security = security
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            peer = try PythonPeer(
                script: MailSMTPDeliveryTests.script, arguments: [directory, security == .implicitTLS ? "implicit" : "starttls"])
            port = try peer.readJSON()["port"] as? Int ?? 0
            authorityFile = directory + "/ca.pem"
        }

        /// Stops the peer and removes its files.
        func stop() {
            peer.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        func transport(password: String = "s3cret päss") throws -> SMTPMailTransport {
            try SMTPMailTransport(configuration: .init(
                host: "localhost", port: port, security: security, username: "hearth", password: password,
                sender: try MailAddress("noreply@hearth.test", displayName: "Hearth"), certificateAuthorityFile: authorityFile))
        }
    }

    @Test func deliversThroughStartTLSWithAuthenticationAndEverythingArrives() async throws {
        let server = try Server()
        defer { server.stop() }
        try await MigratedDatabase.withDatabase { pool in
            let delivery = MailDelivery(pool: pool, transport: try server.transport())
            let outbox = delivery.outbox
            let template = MailTemplate(
                subject: "Bestätige deine Adresse 🏠", greeting: "Hallo Åda,", paragraphs: ["Bitte bestätige deine Adresse."],
                action: .init(label: "Bestätigen", path: "/confirm-email?token=tok_123"))
            let id = try outbox.enqueueNow(template.render(to: ["ada@example.org", "bob@example.org"], baseURL: PublicBaseURL("https://hearth.example.org")))
            // Required: reading the server's report of a message that never arrived would wait forever.
            try #require(try await delivery.deliverDueMessages().done == 1)
            let stored = try #require(try outbox.message(id: id))
            #expect(stored.status == .sent && stored.transport == "smtp")

            let arrived = try server.peer.readJSON()
            #expect(arrived["tls"] as? Bool == true && arrived["user"] as? String == "hearth")
            #expect(arrived["sender"] as? String == "noreply@hearth.test")
            #expect(arrived["recipients"] as? [String] == ["ada@example.org", "bob@example.org"])
            #expect(arrived["subject"] as? String == "Bestätige deine Adresse 🏠")
            #expect(arrived["from"] as? String == "Hearth <noreply@hearth.test>")
            #expect(arrived["to"] as? String == "ada@example.org, bob@example.org")
            #expect(arrived["date"] as? Double == stored.createdAt.timeIntervalSince1970.rounded(.down))
            #expect(arrived["messageID"] as? String == "<\(stored.messageID)>")
            #expect(arrived["type"] as? String == "multipart/alternative" && arrived["mime"] as? String == "1.0")
            let parts = arrived["parts"] as? [[String: String]] ?? []
            #expect(parts.map { $0["type"] } == ["text/plain", "text/html"])
            let link = "https://hearth.example.org/confirm-email?token=tok_123"
            #expect(parts.first?["content"]?.contains("Bestätigen:\r\n\(link)") == true)
            #expect(parts.last?["content"]?.contains("<a href=\"\(link)\">Bestätigen</a>") == true)
            #expect((arrived["defects"] as? [String])?.isEmpty == true)
        }
    }

    @Test func deliversOverImplicitTLS() async throws {
        let server = try Server(security: .implicitTLS)
        defer { server.stop() }
        try await MigratedDatabase.withDatabase { pool in
            let delivery = MailDelivery(pool: pool, transport: try server.transport())
            try delivery.outbox.enqueueNow(OutgoingMail(recipients: ["ada@example.org"], subject: "Implicit", text: "hi\n"))
            let report = try await delivery.deliverDueMessages()
            let lastError = try delivery.outbox.messages(limit: 1).first?.lastError ?? ""
            try #require(report.done == 1, "\(lastError)")
            let arrived = try server.peer.readJSON()
            #expect(arrived["tls"] as? Bool == true && arrived["user"] as? String == "hearth" && arrived["subject"] as? String == "Implicit")
        }
    }

    @Test func aTransientRefusalIsRetriedAndThenDelivered() async throws {
        let server = try Server()
        defer { server.stop() }
        try await MigratedDatabase.withDatabase { pool in
            let clock = ManualClock()
            let delivery = MailDelivery(pool: pool, transport: try server.transport(), clock: clock)
            let outbox = delivery.outbox
            let id = try outbox.enqueueNow(OutgoingMail(recipients: ["ada@example.org"], subject: "flaky news", text: "hi\n"))
            #expect(try await delivery.deliverDueMessages().retrying == 1)
            let waiting = try #require(try outbox.message(id: id))
            #expect(waiting.status == .pending && waiting.lastError?.contains("451") == true)
            clock.advance(seconds: 30)
            try #require(try await delivery.deliverDueMessages().done == 1)
            #expect(try server.peer.readJSON()["subject"] as? String == "flaky news")
            #expect(try outbox.message(id: id)?.attempts == 2)
        }
    }

    @Test func aPermanentRefusalMarksTheMessageFailed() async throws {
        let server = try Server()
        defer { server.stop() }
        try await MigratedDatabase.withDatabase { pool in
            let delivery = MailDelivery(pool: pool, transport: try server.transport())
            let id = try delivery.outbox.enqueueNow(OutgoingMail(recipients: ["refused@example.org"], subject: "x", text: "x\n"))
            #expect(try await delivery.deliverDueMessages().dead == 1)
            let failed = try #require(try delivery.outbox.message(id: id))
            #expect(failed.status == .failed && failed.attempts == 1 && failed.lastError?.contains("550 5.1.1") == true)
        }
    }

    @Test func wrongCredentialsArePermanentAndAnUntrustedCertificateIsTransient() async throws {
        let server = try Server()
        defer { server.stop() }
        try await MigratedDatabase.withDatabase { pool in
            let outbox = MailOutbox(pool: pool)
            let message = try #require(try outbox.message(id: outbox.enqueueNow(OutgoingMail(recipients: ["a@example.org"], subject: "x", text: "x\n"))))
            let denied = #expect(throws: MailDeliveryError.self) { try server.transport(password: "wrong").deliver(message) }
            #expect(denied?.code == .permanent && denied?.message.contains("535") == true)
            let untrusted = try SMTPMailTransport(configuration: .init(
                host: "localhost", port: server.port, security: .startTLSRequired, sender: try MailAddress("noreply@hearth.test")))
            let rejected = #expect(throws: MailDeliveryError.self) { try untrusted.deliver(message) }
            #expect(rejected?.code == .transient && rejected?.message.contains("certificate") == true)
        }
    }
}
