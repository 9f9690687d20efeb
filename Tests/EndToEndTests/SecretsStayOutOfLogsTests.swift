import Foundation
import GraphQL
import HearthStore
import Support
import TestPython
import Testing

/// Passwords, tokens and keys never reach the log: a full account lifecycle through the real
/// binary at its most verbose log level, then a search of everything it wrote. And with the
/// SMTP transport, no emailed link's token ever reaches the database files.
@Suite struct SecretsStayOutOfLogsTests {
    static let baseURL = "https://hearth.example.org"

    /// What the run handed out or received, by kind, to look for in the log.
    struct Secrets {
        private(set) var values: [(kind: String, value: String)] = []

        mutating func add(_ kind: String, _ value: String) {
            values.append((kind, value))
        }

        /// Access tokens are also looked for by their signature alone, refresh tokens whole.
        mutating func add(_ tokens: AccountsTests.Tokens) {
            add("access token", tokens.access)
            add("access token signature", String(tokens.access.split(separator: ".").last ?? ""))
            add("Authorization header value", "Bearer \(tokens.access)")
            add("refresh token", tokens.refresh)
        }
    }

    @Test func aFullAccountLifecycleLogsNoPasswordTokenOrKey() throws {
        let server = try ServerProcess(AccountsTests.serverArguments + ["--public-base-url", Self.baseURL, "--log-level", "trace"])
        defer { server.remove() }
        var secrets = Secrets()
        let first = "first secret passphrase", second = "second secret passphrase", third = "third secret passphrase"
        let wrong = "wrong guess passphrase"
        for (index, password) in [first, second, third, wrong].enumerated() { secrets.add("password \(index + 1)", password) }

        // Register, confirm, sign in, refresh, fail a sign-in.
        let registered = try server.graphQL(AccountsTests.register, variables: ["input": [
            "username": "ana", "email": "ana@example.com", "password": .string(first), "deviceLabel": "phone",
        ]])
        let phone = try AccountsTests.tokens(registered.data?["register"])
        secrets.add(phone)
        let confirmation = try server.emailedToken(to: "ana@example.com", page: "confirm-email", baseURL: Self.baseURL)
        #expect(try AccountEmailFlowTests.confirm(server, token: confirmation).data?["confirmEmail"] != nil)
        let laptop = try AccountsTests.tokens(try AccountsTests.signIn(server, password: first).data?["login"])
        secrets.add(laptop)
        let refreshed = try AccountsTests.tokens(try AccountEmailFlowTests.refresh(server, laptop.refresh).data?["refreshSession"])
        secrets.add(refreshed)
        #expect(try AccountsTests.signIn(server, password: wrong).errorReason == "INVALID_CREDENTIALS")

        // A WebSocket authenticated by its connection_init payload, then signed out.
        let lines = try TestPython.runScript("""
            import asyncio, json, sys
            from websockets.asyncio.client import connect
            async def main(base, token):
                async with connect(base.replace("http", "ws") + "/graphql", subprotocols=["graphql-transport-ws"]) as ws:
                    await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer " + token}}))
                    print(json.loads(await ws.recv())["type"])
                    await ws.send(json.dumps({"type": "subscribe", "id": "1", "payload": {"query": "{ me { username } }"}}))
                    print(json.loads(await ws.recv())["payload"]["data"]["me"]["username"])
            asyncio.run(main(sys.argv[1], sys.argv[2]))
            """, ["http://127.0.0.1:\(server.port)", refreshed.access])
        #expect(lines == ["connection_ack", "ana"])
        #expect(try server.graphQL("mutation { logout { sessionId } }", token: refreshed.access).data?["logout"] != nil)

        // Reset the password, sign in with it, change it.
        _ = try AccountEmailFlowTests.requestReset(server, email: "ana@example.com")
        let resetToken = try server.emailedToken(to: "ana@example.com", page: "reset-password", baseURL: Self.baseURL)
        #expect(try AccountEmailFlowTests.reset(server, token: resetToken, to: second).data?["resetPassword"] != nil)
        let tablet = try AccountsTests.tokens(try AccountsTests.signIn(server, password: second).data?["login"])
        secrets.add(tablet)
        let changed = try server.graphQL(AccountEmailFlowTests.changePassword, variables: ["input": [
            "currentPassword": .string(second), "newPassword": .string(third),
        ]], token: tablet.access)
        #expect(changed.data?["changePassword"] != nil, "\(changed.json)")

        // Change the address and confirm it.
        let started = try server.graphQL(AccountEmailFlowTests.changeEmail, variables: ["input": [
            "newEmail": "ana.new@example.com", "currentPassword": .string(third),
        ]], token: tablet.access)
        #expect(started.data?["changeEmail"] != nil, "\(started.json)")
        let change = try server.emailedToken(to: "ana.new@example.com", page: "confirm-email", baseURL: Self.baseURL)
        #expect(try AccountEmailFlowTests.confirm(server, token: change).data?["confirmEmail"] != nil)

        for token in try server.emailedTokens() { secrets.add("emailed token", token) }
        #expect(try server.emailedTokens().count == 3)
        for file in KeyDirectoryTests.keyFiles {
            secrets.add("key (\(file))", Base64URL.encode(try KeyDirectoryTests.key(file, in: server.directory.appendingPathComponent("keys"))))
        }
        #expect(server.stop() == 0)

        let log = server.log
        // The run did log: every request and the account events, so silence proves nothing.
        #expect(log.contains("msg=\"password reset\"") && log.contains("msg=\"password changed\""), "\(log)")
        let logLines = log.split(separator: "\n")
        for (kind, value) in secrets.values {
            for line in logLines where line.contains(value) {
                Issue.record("the log contains a \(kind):\n\(line)")
            }
        }
    }

    @Test func theDevelopmentTransportWarnsOnceAtStartThatTheDatabaseKeepsLinks() throws {
        let server = try ServerProcess(AccountsTests.serverArguments)
        defer { server.remove() }
        let warnings = server.log.split(separator: "\n").filter { $0.contains("level=warning") && $0.contains("development mail transport") }
        #expect(warnings.count == 1, "\(server.log)")
        #expect(warnings.first?.contains("--mail-transport smtp") == true)
    }

    static let inviteMember = """
        mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteLink inviteToken invitation { id } } }
        """

    /// Over SMTP, every message with a link (confirmation, password reset, email change,
    /// invitation and its resend) reaches the recipient with a working token, while the
    /// database file, its write-ahead log and its index hold none of them, as text or as
    /// bytes, neither while the server runs nor after it stopped. A replayed `inviteMember`
    /// still answers with the invitation's link.
    @Test func overSMTPNoEmailedTokenReachesTheDatabaseFiles() throws {
        let smtp = try SMTPSink()
        let server = try ServerProcess(AccountsTests.serverArguments + ["--public-base-url", Self.baseURL] + smtp.serverArguments)
        defer { server.remove() }
        var received: [SMTPSink.Message] = []
        /// The token of the link to `page` in the next message, which must go to `address`.
        func nextToken(to address: String, page: String) throws -> String {
            let message = try smtp.next()
            received.append(message)
            #expect(message.recipients == [address], "\(message.subject)")
            return try #require(ServerProcess.linkTokens(in: message.text, linkingTo: "\(Self.baseURL)/\(page)").first, "\(message.text)")
        }

        let ana = try AccountsTests.register(server)
        let confirmation = try nextToken(to: "ana@example.com", page: "confirm-email")
        #expect(try AccountEmailFlowTests.confirm(server, token: confirmation).data?["confirmEmail"] != nil)
        let anaID = try #require(try server.graphQL(AccountsTests.me, token: ana.access).data?["me"]?["id"]?.stringValue)
        let admin = ServerProcess.Person(username: "ana", userID: anaID, token: ana.access)
        try server.acceptCurrentTerms(admin)
        let household = try server.createHousehold("Home", as: admin).householdID

        _ = try AccountEmailFlowTests.requestReset(server, email: "ana@example.com")
        let reset = try nextToken(to: "ana@example.com", page: "reset-password")
        let started = try server.graphQL(AccountEmailFlowTests.changeEmail, variables: ["input": [
            "newEmail": "ana.new@example.com", "currentPassword": .string(AccountsTests.password),
        ]], token: ana.access)
        #expect(started.data?["changeEmail"] != nil, "\(started.json)")
        _ = try nextToken(to: "ana.new@example.com", page: "confirm-email")

        let invite = ServerProcess.input(["householdId": .string(household), "email": "bo@example.com", "clientMutationId": "invite-bo"])
        let invited = try #require(try server.graphQL(Self.inviteMember, variables: invite, token: ana.access).data?["inviteMember"])
        let firstInvitation = try nextToken(to: "bo@example.com", page: "invitation")
        #expect(invited["inviteToken"]?.stringValue == firstInvitation)
        #expect(invited["inviteLink"]?.stringValue == "\(Self.baseURL)/invitation?token=\(firstInvitation)")
        let replayed = try server.graphQL(Self.inviteMember, variables: invite, token: ana.access).data?["inviteMember"]
        #expect(replayed?["inviteToken"]?.stringValue == firstInvitation, "a replay answers with the same link")
        let resent = try server.graphQL(
            "mutation($input: ResendInvitationInput!) { resendInvitation(input: $input) { inviteToken } }",
            variables: ["input": ["invitationId": try #require(invited["invitation"]?["id"])]], token: ana.access)
        let secondInvitation = try nextToken(to: "bo@example.com", page: "invitation")
        #expect(resent.data?["resendInvitation"]?["inviteToken"]?.stringValue == secondInvitation, "\(resent.json)")
        let replayedAfterResend = try server.graphQL(Self.inviteMember, variables: invite, token: ana.access).data?["inviteMember"]
        #expect(replayedAfterResend?["inviteToken"]?.stringValue == secondInvitation, "a replay answers with the link that works now")

        let tokens = Set(received.flatMap { ServerProcess.linkTokens(in: $0.text) + ServerProcess.linkTokens(in: $0.html) })
        #expect(tokens.count == 5, "confirmation, reset, email change, invitation, resent invitation")
        #expect(try server.emailedTokens().isEmpty, "the outbox keeps no token")
        let invitations = try server.mails(to: "bo@example.com")
        #expect(invitations.count == 2, "while it keeps the messages")
        let shown = try HearthCommand.run(["mail", "show", String(try #require(invitations.first).id), "--database", server.database])
        #expect(shown.standardOutput.contains("\(Self.baseURL)/invitation?token={token-withheld}"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("Link: its token is not stored"))
        #expect(!server.log.contains("development mail transport"), "the warning is for the log transport only")
        /// Each token as text, as bytes, and its last 32 bytes (the part a copy must not hold).
        var needles = tokens.flatMap { token -> [(String, [UInt8])] in
            let bytes = Base64URL.decode(token) ?? []
            return [(token, Array(token.utf8)), ("\(token) as bytes", bytes), ("\(token)'s last 32 bytes", Array(bytes.suffix(32)))]
        }
        // The session's tokens too: the refresh token is stored as a digest, the access token not at all.
        needles += [("the refresh token", Array(ana.refresh.utf8)), ("the refresh token as bytes", Base64URL.decode(ana.refresh) ?? []),
                    ("the access token", Array(ana.access.utf8))]
        // SQLite's files only: PostgreSQL's are the cluster's, not the test's (the outbox check above stands there).
        let files = TestDatabaseStore.isSQLite
        for (name, needle) in needles where files {
            #expect(try server.databaseFilesContaining(needle).isEmpty, "\(name) is in the database files of the running server")
        }

        // The tokens were live: the reset link still works.
        #expect(try AccountEmailFlowTests.reset(server, token: reset, to: "a brand new passphrase").data?["resetPassword"] != nil)
        _ = try smtp.next()  // "your password was changed"
        #expect(server.stop() == 0)
        for (name, needle) in needles where files {
            #expect(try server.databaseFilesContaining(needle).isEmpty, "\(name) is in the database files of the stopped server")
        }
    }
}
