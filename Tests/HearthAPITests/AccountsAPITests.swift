import Foundation
import GraphQL
@testable import HearthAPI
import HearthHTTP
import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// The account mutations of the real `schema.graphql` in process: one write for a profile
/// update, the re-authentication error as clients see it, corrupt data as an internal error.
struct AccountsAPITests {
    /// A 1×1 PNG.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
    static let updateProfile = """
        mutation($name: String, $file: Upload, $zone: TimeZone) {
          updateProfile(input: { displayName: $name, avatar: $file, timeZone: $zone }) { user { displayName timeZone avatarUrl } }
        }
        """

    @Test func aGoodNameWithABadAvatarChangesNothing() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let before = try await fixture.harness.accounts.service.user(id: ana.userID)
            let html = UploadedFile(name: "0", filename: "me.png", contentType: "image/png", bytes: Array("<html><script>x</script></html>".utf8))
            let refused = try await fixture.execute(
                Self.updateProfile, ["name": "Ana López", "zone": "Europe/Lisbon", "file": "0"], as: ana, uploads: ["0": html])
            #expect(refused.errors.first?.extensions["code"] == "BAD_USER_INPUT")
            #expect(refused.errors.first?.extensions["field"] == "input.avatar")
            #expect(try await fixture.harness.accounts.service.user(id: ana.userID) == before)

            let png = UploadedFile(name: "0", bytes: Self.png)
            let saved = try await fixture.execute(
                Self.updateProfile, ["name": "Ana López", "zone": "Europe/Lisbon", "file": "0"], as: ana, uploads: ["0": png])
            #expect(saved.errors.isEmpty)
            let user = try await fixture.harness.accounts.service.user(id: ana.userID)
            #expect(user?.displayName == "Ana López" && user?.timeZone == "Europe/Lisbon" && user?.avatarId != nil)
        }
    }

    @Test func reauthenticationRequiredTellsTheClientWhichProofToSend() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let refused = try await fixture.execute(
                #"mutation { changeEmail(input: { newEmail: "ana.new@example.org" }) { user { pendingEmail } } }"#, as: ana)
            let extensions = try #require(refused.errors.first?.extensions)
            #expect(extensions["code"] == "REAUTHENTICATION_REQUIRED")
            #expect(extensions["methods"] == ["PASSWORD"])
            #expect(extensions["field"] == "input.currentPassword")
            let accepted = try await fixture.execute(
                #"mutation($password: String) { changeEmail(input: { newEmail: "ana.new@example.org", currentPassword: $password }) { user { pendingEmail } } }"#,
                ["password": .string(AccountsHarness.password)], as: ana)
            #expect(accepted.errors.isEmpty)
        }
    }

    @Test func aCorruptPasswordHashIsAnInternalErrorLoggedWithTheRequestID() async throws {
        let sink = MemoryLogSink()
        try await HouseholdsAPIFixture.with(logger: Logger(label: "test", sink: sink)) { fixture in
            _ = try await fixture.person("ana")
            try await fixture.harness.pool.write { try $0.execute("UPDATE users SET password_hash = 'not a PHC string'") }
            let result = try await fixture.execute(
                #"mutation($password: String!) { login(input: { email: "ana@example.com", password: $password }) { user { id } } }"#,
                ["password": .string(AccountsHarness.password)], as: nil)
            let extensions = try #require(result.errors.first?.extensions)
            #expect(extensions["code"] == "INTERNAL_SERVER_ERROR")
            #expect(extensions["requestId"] == "r")
            let logged = sink.lines.first { $0.contains("level=error") && $0.contains("request.id=r") }
            #expect(logged?.contains("malformedHash") == true)
        }
    }
}

/// The WebSocket side of sessions: a connection must close when its session ended before the
/// watch registered, or when the session directory no longer holds the session. A watch that
/// misses the end never closes: each test's time limit turns that into a failure.
@Suite struct WebSocketSessionWatchTests {
    /// Authorizes a connection for `issued`'s access token and returns its watch.
    private static func watch(_ authentication: WebSocketAuthentication, _ issued: IssuedSession) async throws -> ConnectionWatch {
        let upgrade = WebSocketAuthentication.Upgrade(clientAddress: "127.0.0.1", authorization: "Bearer \(issued.accessToken)")
        guard case .accept(_, let watch?) = await authentication.authorize(upgrade, nil) else {
            throw GraphQLError(message: "the connection was not accepted with a watch")
        }
        return watch
    }

    /// Starts `watch` and returns the first close it asks for. A watch that never asks for one
    /// hangs here until the test's time limit (`.timeLimit`, per test: it also counts the wait
    /// for a test database, which is long in a full PostgreSQL pass) fails it.
    private static func firstClose(of watch: ConnectionWatch) async -> (code: UInt16, reason: String) {
        let (closes, continuation) = AsyncStream<(UInt16, String)>.makeStream()
        let stop = watch.start { code, reason in continuation.yield((code.rawValue, reason)) }
        defer { stop() }
        var iterator = closes.makeAsyncIterator()
        return await iterator.next() ?? (0, "")
    }

    @Test(.timeLimit(.minutes(5))) func aSessionRevokedBetweenAuthenticationAndTheWatchClosesTheConnection() async throws {
        try await AccountsHarness.with { harness in
            let authentication = WebSocketAuthentication(authenticator: Authenticator(accounts: harness.service), logger: .disabled)
            let (_, issued) = try await harness.register()
            let watch = try await Self.watch(authentication, issued)
            // Between the authorization and the watch's start: nobody is observing the session yet.
            try await harness.service.logout(viewer: try await harness.service.authenticate(accessToken: issued.accessToken))
            let close = await Self.firstClose(of: watch)
            #expect(close.code == 4403 && close.reason == "Session revoked")
            #expect(harness.service.sessions.observerCount == 0)
        }
    }

    @Test(.timeLimit(.minutes(5))) func aSessionEvictedFromTheDirectoryIsCheckedInTheDatabase() async throws {
        try await AccountsHarness.with(configure: { $0.sessionCacheCapacity = 1 }) { harness in
            let authentication = WebSocketAuthentication(authenticator: Authenticator(accounts: harness.service), logger: .disabled)
            let (_, ana) = try await harness.register("ana")
            let revokedWatch = try await Self.watch(authentication, ana)
            // Ben's sign-in evicts Ana's session from a directory of one; then hers is revoked by a
            // write the directory never sees.
            let (_, ben) = try await harness.register("ben")
            #expect(harness.service.sessions.entry(ana.session.id) == nil)
            try await harness.pool.write {
                try $0.execute("UPDATE sessions SET revoked_at = created_at, revoked_reason = 'test' WHERE id = ?", [ana.session.id])
            }
            let revoked = await Self.firstClose(of: revokedWatch)
            #expect(revoked.code == 4403)

            // An evicted session that reached its end closes as expired.
            let expiringWatch = try await Self.watch(authentication, ben)
            _ = try await harness.register("cara")
            #expect(harness.service.sessions.entry(ben.session.id) == nil)
            harness.clock.advance(seconds: 30 * 24 * 3600)
            let expired = await Self.firstClose(of: expiringWatch)
            #expect(expired.code == 4401 && expired.reason == "Session expired")
        }
    }
}
