import Foundation
import GraphQL
import TestPython
import Testing

/// Passwords, tokens and keys never reach the log: a full account lifecycle through the real
/// binary at its most verbose log level, then a search of everything it wrote.
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
        if let key = try server.databaseText("SELECT value FROM server_metadata WHERE key = 'access_token_key'") {
            secrets.add("access-token signing key", key)
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
}
