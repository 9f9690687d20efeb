import Foundation
import GraphQL
import Testing

/// Accounts and sessions through the real binary over HTTP: registration, sign-in, refresh
/// with rotation and reuse detection, sign-out, and every error path a client sees.
@Suite struct AccountsTests {
    /// Cheap password hashing keeps the suite fast; one test runs the default cost.
    static let serverArguments = ["--password-hash-cost", "10"]
    static let password = "correct horse battery"

    static let register = """
        mutation Register($input: RegisterInput!) {
          register(input: $input) {
            user { id username email isEmailConfirmed displayName }
            tokens { accessToken refreshToken accessTokenExpiresAt refreshTokenExpiresAt session { id deviceLabel isCurrent } }
          }
        }
        """
    static let login = """
        mutation Login($input: LoginInput!) {
          login(input: $input) { user { id } tokens { accessToken refreshToken session { id } } }
        }
        """
    static let refresh = """
        mutation Refresh($input: RefreshSessionInput!) {
          refreshSession(input: $input) { tokens { accessToken refreshToken session { id } } }
        }
        """
    static let me = "{ me { id username email displayName } }"

    struct Tokens {
        var access: String
        var refresh: String
        var sessionID: String
    }

    static func tokens(_ payload: JSON?) throws -> Tokens {
        let tokens = try #require(payload?["tokens"])
        return Tokens(
            access: try #require(tokens["accessToken"]?.stringValue), refresh: try #require(tokens["refreshToken"]?.stringValue),
            sessionID: try #require(tokens["session"]?["id"]?.stringValue))
    }

    @discardableResult
    static func register(_ server: ServerProcess, _ username: String = "ana", device: String = "Ana's phone") throws -> Tokens {
        let response = try server.graphQL(register, variables: ["input": .object([
            "username": .string(username), "email": .string("\(username)@example.com"), "password": .string(password),
            "deviceLabel": .string(device),
        ])])
        #expect(response.status == 200, "\(response.json)")
        return try tokens(response.data?["register"])
    }

    static func signIn(_ server: ServerProcess, _ username: String = "ana", password: String = AccountsTests.password) throws -> ServerProcess.GraphQLResponse {
        try server.graphQL(login, variables: ["input": .object([
            "email": .string("\(username)@example.com"), "password": .string(password),
        ])])
    }

    @Test func registrationSignsTheNewUserInAndMeAnswersWithTheToken() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let response = try server.graphQL(Self.register, variables: ["input": .object([
            "username": "Ana.L", "email": " Ana@Example.COM ", "password": .string(Self.password), "deviceLabel": "Ana's phone",
        ])])
        let payload = try #require(response.data?["register"])
        #expect(payload["user"]?["username"] == "Ana.L")
        #expect(payload["user"]?["email"] == "Ana@example.com")
        #expect(payload["user"]?["isEmailConfirmed"] == false)
        #expect(payload["tokens"]?["session"]?["deviceLabel"] == "Ana's phone")
        #expect(payload["tokens"]?["session"]?["isCurrent"] == true)
        let tokens = try Self.tokens(payload)
        #expect(tokens.access.split(separator: ".").count == 3)
        let me = try server.graphQL(Self.me, token: tokens.access)
        #expect(me.data?["me"]?["username"] == "Ana.L")
        #expect(me.data?["me"]?["email"] == "Ana@example.com")
    }

    @Test func signedOutCallersGetUnauthenticatedAndPublicFieldsStillWork() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let signedOut = try server.graphQL(Self.me)
        #expect(signedOut.status == 200)
        #expect(signedOut.errorCode == "UNAUTHENTICATED")
        #expect(signedOut.errorReason == "SIGNED_OUT")
        // A refused token fails only the fields that need a signed-in user.
        let garbage = try server.graphQL(Self.me, token: "not.a.token")
        #expect(garbage.errorReason == "TOKEN_INVALID")
        let publicField = try server.graphQL("{ serverInfo { version } }", token: "not.a.token")
        #expect(publicField.data?["serverInfo"]?["version"] != nil)
        #expect(publicField.json["errors"] == nil)
    }

    @Test func invalidRegistrationsNameEveryFieldAndTakenNamesConflict() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let invalid = try server.graphQL(Self.register, variables: ["input": .object([
            "username": "a", "email": "nope", "password": "short",
        ])])
        #expect(invalid.errorCode == "BAD_USER_INPUT")
        #expect(invalid.errorExtensions?["field"] == "input.username")
        let fields = invalid.errorExtensions?["fieldErrors"]
        #expect(fields?[0]?["reason"] == "TOO_SHORT")
        #expect(fields?[1]?["field"] == "input.email")
        #expect(fields?[2]?["field"] == "input.password")
        let common = try server.graphQL(Self.register, variables: ["input": .object([
            "username": "ana", "email": "ana@example.com", "password": "1234567890",
        ])])
        #expect(common.errorExtensions?["reason"] == "TOO_COMMON")
        try Self.register(server)
        let taken = try server.graphQL(Self.register, variables: ["input": .object([
            "username": "ANA", "email": "other@example.com", "password": .string(Self.password),
        ])])
        #expect(taken.errorCode == "CONFLICT")
        #expect(taken.errorExtensions?["field"] == "input.username")
        #expect(taken.errorExtensions?["reason"] == "TAKEN")
    }

    @Test func signInRefreshAndReuseDetection() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        try Self.register(server)
        let wrong = try Self.signIn(server, password: "not the password")
        let unknown = try Self.signIn(server, "nobody")
        #expect(wrong.errorReason == "INVALID_CREDENTIALS")
        #expect(unknown.json["errors"] == wrong.json["errors"])
        let first = try Self.tokens(try Self.signIn(server).data?["login"])
        let second = try Self.tokens(try server.graphQL(Self.refresh, variables: ["input": .object(["refreshToken": .string(first.refresh)])]).data?["refreshSession"])
        #expect(second.sessionID == first.sessionID)
        #expect(try server.graphQL(Self.me, token: first.access).errorReason == "TOKEN_SUPERSEDED")
        #expect(try server.graphQL(Self.me, token: second.access).data?["me"]?["username"] == "ana")
        let third = try Self.tokens(try server.graphQL(Self.refresh, variables: ["input": .object(["refreshToken": .string(second.refresh)])]).data?["refreshSession"])
        // `first.refresh` is two rotations old: presenting it is reuse, and ends the session.
        let reuse = try server.graphQL(Self.refresh, variables: ["input": .object(["refreshToken": .string(first.refresh)])])
        #expect(reuse.errorReason == "REFRESH_TOKEN_REUSED")
        #expect(try server.graphQL(Self.me, token: third.access).errorReason == "SESSION_REVOKED")
    }

    @Test func logoutRevokesTheSessionAndSessionsListsTheOthers() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let phone = try Self.register(server)
        let laptop = try Self.tokens(try Self.signIn(server).data?["login"])
        let sessions = try server.graphQL("{ sessions { id deviceLabel isCurrent } }", token: phone.access)
        let list = try #require(sessions.data?["sessions"])
        #expect(list[0]?["id"]?.stringValue == laptop.sessionID || list[1]?["id"]?.stringValue == laptop.sessionID)
        let revoke = try server.graphQL(
            "mutation($input: RevokeSessionInput!) { revokeSession(input: $input) { session { id } } }",
            variables: ["input": .object(["sessionId": .string(laptop.sessionID), "currentPassword": .string(Self.password)])],
            token: phone.access)
        #expect(revoke.data?["revokeSession"]?["session"]?["id"]?.stringValue == laptop.sessionID)
        #expect(try server.graphQL(Self.me, token: laptop.access).errorReason == "SESSION_REVOKED")
        let logout = try server.graphQL("mutation { logout { sessionId } }", token: phone.access)
        #expect(logout.data?["logout"]?["sessionId"]?.stringValue == phone.sessionID)
        #expect(try server.graphQL(Self.me, token: phone.access).errorReason == "SESSION_REVOKED")
        let refresh = try server.graphQL(Self.refresh, variables: ["input": .object(["refreshToken": .string(phone.refresh)])])
        #expect(refresh.errorReason == "SESSION_REVOKED")
    }

    @Test func refusedRefreshesAreRateLimitedPerAddressAtTheConfiguredEdge() throws {
        // 20 an hour: a burst of 2, then one every 200 seconds.
        let server = try ServerProcess(Self.serverArguments + ["--refresh-failures-per-address", "20"])
        defer { server.remove() }
        let first = try Self.register(server)
        func refresh(_ token: String) throws -> ServerProcess.GraphQLResponse {
            try server.graphQL(Self.refresh, variables: ["input": .object(["refreshToken": .string(token)])])
        }
        // Successful refreshes are not counted.
        let second = try Self.tokens(try refresh(first.refresh).data?["refreshSession"])
        for guess in ["made-up-1", "made-up-2"] {
            #expect(try refresh(guess).errorReason == "TOKEN_INVALID")
        }
        let limited = try refresh(second.refresh)
        #expect(limited.errorCode == "RATE_LIMITED", "\(limited.json)")
        #expect(limited.errorExtensions?["retryAfter"] == 200)
    }

    @Test func requestsThatSendEmailAreRateLimitedPerAddressAtTheConfiguredEdge() throws {
        // 20 an hour: a burst of 2, then one every 200 seconds; each request to a new recipient, so
        // only the client address's bucket empties.
        let server = try ServerProcess(Self.serverArguments + ["--mail-requests-per-address", "20"])
        defer { server.remove() }
        func reset(_ email: String) throws -> ServerProcess.GraphQLResponse {
            try server.graphQL(
                "mutation($input: RequestPasswordResetInput!) { requestPasswordReset(input: $input) { accepted } }",
                variables: ["input": ["email": .string(email)]])
        }
        for email in ["one@example.com", "two@example.com"] {
            #expect(try reset(email).data?["requestPasswordReset"]?["accepted"] == true)
        }
        let limited = try reset("three@example.com")
        #expect(limited.errorCode == "RATE_LIMITED", "\(limited.json)")
        #expect(limited.errorExtensions?["retryAfter"] == 200)
    }

    @Test func aCorruptPasswordHashIsAnInternalErrorLoggedWithItsRequestID() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        try Self.register(server)
        try server.databaseWrite("UPDATE users SET password_hash = '$scrypt$ln=10,r=8,p=1$damaged'")
        let refused = try Self.signIn(server)
        #expect(refused.errorCode == "INTERNAL_SERVER_ERROR", "\(refused.json)")
        let requestID = try #require(refused.errorExtensions?["requestId"]?.stringValue)
        #expect(server.log.split(separator: "\n").contains { $0.contains("level=error") && $0.contains("request.id=\(requestID)") })
    }

    @Test func logoutEverywhereEndsEverySession() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let phone = try Self.register(server)
        let laptop = try Self.tokens(try Self.signIn(server).data?["login"])
        let ended = try server.graphQL("mutation { logoutEverywhere { endedSessionCount } }", token: laptop.access)
        #expect(ended.data?["logoutEverywhere"]?["endedSessionCount"] == 2)
        #expect(try server.graphQL(Self.me, token: phone.access).errorCode == "UNAUTHENTICATED")
    }

    @Test func failedSignInsAreRateLimitedWithRetryAfter() throws {
        let server = try ServerProcess(Self.serverArguments + ["--login-failures-per-account", "20"])
        defer { server.remove() }
        try Self.register(server)
        for _ in 0..<2 { #expect(try Self.signIn(server, password: "wrong guess").errorReason == "INVALID_CREDENTIALS") }
        let limited = try Self.signIn(server)
        #expect(limited.errorCode == "RATE_LIMITED")
        #expect((limited.errorExtensions?["retryAfter"]).flatMap { if case .int(let seconds) = $0 { seconds } else { nil } } ?? 0 > 0)
    }

    @Test func sessionsSurviveARestart() throws {
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let tokens = try Self.register(server)
        #expect(server.stop() == 0)
        let restarted = try ServerProcess(directory: server.directory, arguments: Self.serverArguments)
        defer { restarted.remove() }
        #expect(try restarted.graphQL(Self.me, token: tokens.access).data?["me"]?["username"] == "ana")
    }

    @Test func theDefaultPasswordCostIsUsedAndStored() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        try Self.register(server)
        #expect(try Self.signIn(server).data?["login"]?["user"]?["id"] != nil)
        let hash = try server.databaseText("SELECT password_hash FROM users")
        #expect(hash?.hasPrefix("$scrypt$ln=17,r=8,p=1$") == true)
    }
}
