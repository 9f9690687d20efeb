import SMTP
import Testing

/// The SMTP conversation without sockets: replies in, commands out.
struct SMTPClientStateMachineTests {
    private let envelope = try! SMTPEnvelope(sender: "noreply@hearth.test", recipients: ["ada@example.org", "bob@example.org"])

    private func machine(_ configuration: SMTPClientConfiguration, isSecure: Bool = false) -> SMTPClientStateMachine {
        SMTPClientStateMachine(configuration: configuration, envelope: envelope, message: Array("Subject: x\r\n\r\nhi\r\n".utf8), isSecure: isSecure)
    }

    private func reply(_ code: Int, _ lines: String...) -> SMTPReply {
        SMTPReply(code: code, lines: lines.isEmpty ? ["ok"] : lines)
    }

    private func command(_ action: SMTPClientStateMachine.Action) -> String? {
        guard case .send(let bytes) = action else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func upgradesWithStartTLSThenAuthenticatesWithPlainAndSendsTheMessage() throws {
        var client = machine(.init(security: .startTLSRequired, credentials: .init(username: "hearth", password: "s3cret")))
        #expect(command(try client.receive(reply(220, "mx ESMTP"))) == "EHLO localhost\r\n")
        #expect(command(try client.receive(reply(250, "mx", "STARTTLS", "AUTH PLAIN LOGIN"))) == "STARTTLS\r\n")
        #expect(try client.receive(reply(220, "go ahead")) == .startTLS)
        #expect(command(client.tlsEstablished()) == "EHLO localhost\r\n")
        // "\0hearth\0s3cret" in base64.
        #expect(command(try client.receive(reply(250, "mx", "AUTH PLAIN LOGIN"))) == "AUTH PLAIN AGhlYXJ0aABzM2NyZXQ=\r\n")
        #expect(command(try client.receive(reply(235))) == "MAIL FROM:<noreply@hearth.test>\r\n")
        #expect(command(try client.receive(reply(250))) == "RCPT TO:<ada@example.org>\r\n")
        #expect(command(try client.receive(reply(250))) == "RCPT TO:<bob@example.org>\r\n")
        #expect(command(try client.receive(reply(251, "will forward"))) == "DATA\r\n")
        #expect(command(try client.receive(reply(354))) == "Subject: x\r\n\r\nhi\r\n.\r\n")
        #expect(client.isAwaitingMessageAcceptance && !client.isDelivered)
        #expect(command(try client.receive(reply(250, "queued"))) == "QUIT\r\n")
        #expect(client.isDelivered)
        #expect(try client.receive(reply(221)) == .finished)
    }

    @Test func authenticatesWithLoginWhenPlainIsNotOffered() throws {
        var client = machine(.init(security: .implicitTLS, credentials: .init(username: "hearth", password: "pw")), isSecure: true)
        _ = try client.receive(reply(220))
        #expect(command(try client.receive(reply(250, "mx", "AUTH LOGIN"))) == "AUTH LOGIN\r\n")
        #expect(command(try client.receive(reply(334, "VXNlcm5hbWU6"))) == "aGVhcnRo\r\n")
        #expect(command(try client.receive(reply(334, "UGFzc3dvcmQ6"))) == "cHc=\r\n")
        #expect(command(try client.receive(reply(235))) == "MAIL FROM:<noreply@hearth.test>\r\n")
    }

    @Test func fallsBackToHELOWhenEHLOIsUnknown() throws {
        var client = machine(.init(security: .plaintext))
        _ = try client.receive(reply(220))
        #expect(command(try client.receive(reply(502, "command not implemented"))) == "HELO localhost\r\n")
        #expect(command(try client.receive(reply(250))) == "MAIL FROM:<noreply@hearth.test>\r\n")
    }

    @Test func requiredStartTLSFailsWhenNotOfferedButOpportunisticContinuesInPlainText() throws {
        var required = machine(.init(security: .startTLSRequired))
        _ = try required.receive(reply(220))
        let error = #expect(throws: SMTPError.self) { try required.receive(reply(250, "mx", "8BITMIME")) }
        #expect(error?.code == .tlsUnavailable)
        var opportunistic = machine(.init(security: .startTLSOpportunistic))
        _ = try opportunistic.receive(reply(220))
        #expect(command(try opportunistic.receive(reply(250, "mx", "8BITMIME"))) == "MAIL FROM:<noreply@hearth.test>\r\n")
    }

    @Test func neverSendsCredentialsInClearTextUnlessAllowed() throws {
        let credentials = SMTPClientConfiguration.Credentials(username: "u", password: "p")
        var refused = machine(.init(security: .startTLSOpportunistic, credentials: credentials))
        _ = try refused.receive(reply(220))
        let error = #expect(throws: SMTPError.self) { try refused.receive(reply(250, "mx", "AUTH PLAIN")) }
        #expect(error?.code == .authenticationUnavailable)
        #expect(error?.isTransient == false)
        var allowed = machine(.init(security: .plaintext, credentials: credentials, allowsAuthenticationWithoutTLS: true))
        _ = try allowed.receive(reply(220))
        #expect(command(try allowed.receive(reply(250, "mx", "AUTH PLAIN")))?.hasPrefix("AUTH PLAIN ") == true)
    }

    @Test func classifiesFourHundredsAsTransientAndFiveHundredsAsPermanent() throws {
        var client = machine(.init(security: .plaintext))
        _ = try client.receive(reply(220))
        _ = try client.receive(reply(250))
        let transient = #expect(throws: SMTPError.self) { try client.receive(reply(451, "4.3.0 try again later")) }
        #expect(transient?.code == .transientFailure && transient?.isTransient == true && transient?.reply?.code == 451)
        var refused = machine(.init(security: .plaintext))
        _ = try refused.receive(reply(220))
        _ = try refused.receive(reply(250))
        _ = try refused.receive(reply(250))
        let permanent = #expect(throws: SMTPError.self) { try refused.receive(reply(550, "5.1.1 no such user")) }
        #expect(permanent?.code == .permanentFailure && permanent?.isTransient == false)
        #expect(permanent?.message.contains("RCPT TO:<ada@example.org>") == true)
    }

    @Test func dotStuffsLinesStartingWithADotAndNormalisesLineEndings() {
        let stuffed = SMTPClientStateMachine.dotStuffed(Array(".hidden\n..two\r\nend.\r.\nlast".utf8))
        #expect(String(decoding: stuffed, as: UTF8.self) == "..hidden\r\n...two\r\nend.\r\n..\r\nlast\r\n.\r\n")
    }
}

struct SMTPReplyParserTests {
    @Test func assemblesMultiLineRepliesAndRejectsMalformedOnes() throws {
        var parser = SMTPReplyParser()
        #expect(try parser.feed(Array("250-mx.example greets you".utf8)) == nil)
        #expect(try parser.feed(Array("250-STARTTLS".utf8)) == nil)
        #expect(try parser.feed(Array("250 AUTH PLAIN".utf8)) == SMTPReply(code: 250, lines: ["mx.example greets you", "STARTTLS", "AUTH PLAIN"]))
        #expect(try parser.feed(Array("354".utf8)) == SMTPReply(code: 354, lines: [""]))
        #expect(throws: SMTPError.self) { try parser.feed(Array("hello".utf8)) }
        var mixed = SMTPReplyParser()
        _ = try mixed.feed(Array("250-a".utf8))
        #expect(throws: SMTPError.self) { try mixed.feed(Array("251 b".utf8)) }
        var long = SMTPReplyParser(maxLines: 2)
        _ = try long.feed(Array("250-a".utf8))
        _ = try long.feed(Array("250-b".utf8))
        #expect(throws: SMTPError.self) { try long.feed(Array("250-c".utf8)) }
    }
}
