import Foundation
import GraphQL
import HearthStore
import TestPython
import Testing

/// `hearth admin` against a running server's database: listing accounts, disabling one (its
/// sign-ins and refreshes refused with ACCOUNT_DISABLED, its sockets closed, enabled again),
/// a password reset emailed by the server whose link works, and the database's status.
@Suite struct AdminCommandTests {
    /// The server polls for jobs other processes queue every second; `/_test/jobs/idle` says
    /// when it has run them.
    static let arguments = AccountEmailFlowTests.serverArguments + ["--test-endpoints", "--job-poll-interval", "1s", "--heartbeat-interval", "100ms"]

    static func admin(_ server: ServerProcess, _ arguments: String...) throws -> HearthCommand.Outcome {
        try HearthCommand.run(["admin"] + arguments + ["--database", server.database])
    }

    /// Waits until the server has run every due job, those `hearth admin` queued included.
    static func waitForJobs(_ server: ServerProcess) throws {
        #expect(try server.get("/_test/jobs/idle").text == "idle")
    }

    @Test func usersAreListedNewestFirstAndSearched() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let ana = try AccountsTests.register(server, "ana")
        try AccountsTests.register(server, "bob")
        let all = try Self.admin(server, "users")
        #expect(all.status == 0)
        let lines = all.standardOutput.split(separator: "\n")
        #expect(lines.count == 3, "\(all.standardOutput)")
        #expect(lines[0].hasPrefix("ID ") && lines[0].hasSuffix("EMAIL"))
        #expect(lines[1].contains(" no ") && lines[1].hasSuffix(" bob@example.com"), "\(lines[1])")
        let id = try #require(try server.databaseText("SELECT user_id FROM sessions WHERE id = '\(ana.sessionID)'"))
        #expect(lines[2].hasPrefix(id + " ") && lines[2].hasSuffix("ana@example.com"))
        #expect(!lines[2].contains("never"), "ana signed in at registration")
        let searched = try Self.admin(server, "users", "--search", "ANA")
        #expect(searched.standardOutput.split(separator: "\n").count == 2)
        #expect(try Self.admin(server, "users", "--search", "%").standardOutput == "no accounts\n", "LIKE's wildcards are literal")
        #expect(try Self.admin(server, "users", "--limit", "1").standardOutput.split(separator: "\n").count == 2)
        #expect(try Self.admin(server, "users", "--limit", "0").status == 64)
    }

    @Test func aDisabledAccountCannotSignInOrRefreshItsSocketsCloseAndEnablingLetsItBack() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let registered = try AccountsTests.register(server)
        let other = try AccountsTests.tokens(try AccountsTests.signIn(server).data?["login"])
        let lines = try TestPython.runScript(RealtimeAuthenticationTests.helpers + """

            import subprocess
            async def main(base, token, binary, database):
                ws = await opened(base, {"authorization": "Bearer " + token})
                print((await answer(ws))["type"])
                await ws.send(json.dumps({"type": "subscribe", "id": "1", "payload": {"query": "subscription { serverEvents { kind } }"}}))
                print((await answer(ws))["payload"]["data"]["serverEvents"]["kind"])
                disabled = subprocess.run([binary, "admin", "disable", "ANA@example.com", "--database", database], capture_output=True, text=True)
                print(disabled.returncode, disabled.stdout.strip())
                while True:
                    reply = await answer(ws)
                    if "closed" in reply:
                        print(reply["closed"], reply["reason"])
                        break
            asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]))
            """, ["http://127.0.0.1:\(server.port)", registered.access, ServerProcess.binary, server.database])
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first == "connection_ack")
        #expect(lines.dropFirst(2).first?.hasPrefix("0 ana@example.com is disabled since ") == true, "\(lines)")
        #expect(lines.dropFirst(2).first?.hasSuffix("; 2 session(s) ended") == true, "\(lines)")
        #expect(lines.last == "4403 Session revoked")

        let signIn = try AccountsTests.signIn(server)
        #expect(signIn.errorCode == "UNAUTHENTICATED" && signIn.errorReason == "ACCOUNT_DISABLED", "\(signIn.json)")
        let wrongPassword = try AccountsTests.signIn(server, password: "not the password")
        #expect(wrongPassword.errorReason == "INVALID_CREDENTIALS", "only the password's holder learns the account is disabled")
        let refresh = try AccountEmailFlowTests.refresh(server, other.refresh)
        #expect(refresh.errorReason == "ACCOUNT_DISABLED", "\(refresh.json)")
        #expect(try server.graphQL(AccountsTests.me, token: other.access).errorReason == "SESSION_REVOKED")
        #expect(try Self.admin(server, "users").standardOutput.split(separator: "\n")[1].contains(" no ") == false)
        #expect(try Self.admin(server, "disable", "ana@example.com").standardOutput.hasSuffix("; 0 session(s) ended\n"), "disabling twice changes nothing")

        let enabled = try Self.admin(server, "enable", "ana@example.com")
        #expect(enabled.status == 0 && enabled.standardOutput == "ana@example.com may sign in again\n")
        let again = try AccountsTests.tokens(try AccountsTests.signIn(server).data?["login"])
        #expect(try server.graphQL(AccountsTests.me, token: again.access).data?["me"]?["username"] == "ana")
        #expect(try AccountEmailFlowTests.refresh(server, other.refresh).errorReason != nil, "the sessions it lost stay ended")

        let unknown = try Self.admin(server, "disable", "nobody@example.com")
        #expect(unknown.status == 1 && unknown.standardError == "hearth admin: no account has the address nobody@example.com\n")
    }

    @Test func aPasswordResetIsEmailedByTheServerAndItsLinkWorks() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        try AccountsTests.register(server)
        let before = try server.mails(to: "ana@example.com").count
        let queued = try Self.admin(server, "reset-password", "ana@example.com")
        #expect(queued.status == 0)
        #expect(queued.standardOutput.hasPrefix("a password-reset email to ana@example.com is queued (job "), "\(queued.standardOutput)")
        #expect(!queued.standardOutput.contains("token="), "the link is not printed")
        try Self.waitForJobs(server)
        let mails = try server.mails(to: "ana@example.com")
        #expect(mails.count == before + 1)
        #expect(mails.last?.subject == "Reset your Hearth password")
        let token = try server.emailedToken(to: "ana@example.com", page: "reset-password", baseURL: AccountEmailFlowTests.baseURL)
        let reset = try AccountEmailFlowTests.reset(server, token: token, to: AccountEmailFlowTests.newPassword)
        #expect(reset.data?["resetPassword"]?["user"]?["username"] == "ana", "\(reset.json)")
        #expect(try AccountsTests.signIn(server, password: AccountEmailFlowTests.newPassword).data?["login"] != nil)
        #expect(try Self.admin(server, "reset-password", "nobody@example.com").status == 1)
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "the sizes of SQLite's files"))
    func statusShowsTheSchemaVersionSizesRowsAndKeys() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        try AccountsTests.register(server)
        let status = try Self.admin(server, "status")
        #expect(status.status == 0)
        let text = status.standardOutput
        let migrations = try #require(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM schema_migrations"))
        let version = try #require(try server.databaseText("SELECT CAST(max(version) AS TEXT) FROM schema_migrations"))
        #expect(text.contains("Database: \(server.databasePath)\n"))
        #expect(text.contains("Schema version: \(version) (\(migrations) migrations applied, 0 pending; this hearth has \(migrations))\n"), "\(text)")
        #expect(text.contains("Database size: "))
        #expect(text.contains("Log (-wal) size: "))
        #expect(text.contains("Key directory: \(server.directory.path)/keys ("), "\(text)")
        let users = try #require(text.split(separator: "\n").first { $0.hasPrefix("  users ") })
        #expect(users.hasSuffix(" 1"), "\(users)")
        #expect(try HearthCommand.run(["admin", "frobnicate"]).status == 64)
    }

    @Test(.enabled(if: !TestDatabaseStore.isSQLite, "PostgreSQL's answer"))
    func statusOnPostgreSQLSaysWhereTheFiguresAreInstead() throws {
        let server = try ServerProcess(Self.arguments)
        defer { server.remove() }
        let status = try Self.admin(server, "status")
        #expect(status.status == 64 && status.standardOutput.isEmpty)
        #expect(status.standardError.contains("'hearth admin status' works on an SQLite database file"), "\(status.standardError)")
        #expect(status.standardError.contains("hearth migrate --status"), "\(status.standardError)")
    }
}
