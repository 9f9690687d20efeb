import Foundation
import GraphQL
import Testing

/// The account flows that go through an emailed link, through the real binary: the test reads
/// each link's token from the server's mail outbox (where the development `log` transport keeps
/// every message), as the user would read it from their inbox.
@Suite struct AccountEmailFlowTests {
    static let baseURL = "https://hearth.example.org"
    static let serverArguments = AccountsTests.serverArguments + ["--public-base-url", baseURL]
    static let newPassword = "a brand new passphrase"

    static let confirmEmail = """
        mutation($input: ConfirmEmailInput!) { confirmEmail(input: $input) { user { email isEmailConfirmed } } }
        """
    static let requestPasswordReset = """
        mutation($input: RequestPasswordResetInput!) { requestPasswordReset(input: $input) { accepted } }
        """
    static let resetPassword = """
        mutation($input: ResetPasswordInput!) { resetPassword(input: $input) { user { username } } }
        """
    static let changePassword = """
        mutation($input: ChangePasswordInput!) { changePassword(input: $input) { user { username } } }
        """
    static let changeEmail = """
        mutation($input: ChangeEmailInput!) { changeEmail(input: $input) { user { email pendingEmail } } }
        """

    static func startServer() throws -> ServerProcess {
        try ServerProcess(serverArguments)
    }

    /// Follows an emailed link, signed in as `viewer` when given (the link's holder sees the
    /// account's own fields either way).
    static func confirm(_ server: ServerProcess, token: String, as viewer: String? = nil) throws -> ServerProcess.GraphQLResponse {
        try server.graphQL(confirmEmail, variables: ["input": ["token": .string(token)]], token: viewer)
    }

    static func requestReset(_ server: ServerProcess, email: String) throws -> ServerProcess.GraphQLResponse {
        try server.graphQL(requestPasswordReset, variables: ["input": ["email": .string(email)]])
    }

    static func reset(_ server: ServerProcess, token: String, to password: String) throws -> ServerProcess.GraphQLResponse {
        try server.graphQL(resetPassword, variables: ["input": ["token": .string(token), "newPassword": .string(password)]])
    }

    static func refresh(_ server: ServerProcess, _ refreshToken: String) throws -> ServerProcess.GraphQLResponse {
        try server.graphQL(AccountsTests.refresh, variables: ["input": ["refreshToken": .string(refreshToken)]])
    }

    @Test func registrationMailsAConfirmationLinkThatConfirmsTheAddressOnce() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        let tokens = try AccountsTests.register(server)

        let mails = try server.mails(to: "ana@example.com")
        let mail = try #require(mails.first)
        #expect(mails.count == 1)
        #expect(mail.recipients == ["ana@example.com"])
        #expect(mail.subject == "Confirm your email address for Hearth")
        let token = try #require(mail.token(linkingTo: "confirm-email", under: Self.baseURL), "\(mail.text)")
        #expect(token.count == 64, "a 128-bit random id and its 256-bit tag under the link key, base64url")
        // What an operator sees with the development transport.
        let shown = try HearthCommand.run(["mail", "show", String(mail.id), "--database", server.database])
        #expect(shown.status == 0)
        #expect(shown.standardOutput.contains("To: ana@example.com\n"))
        #expect(shown.standardOutput.contains("Subject: Confirm your email address for Hearth\n"))
        #expect(shown.standardOutput.contains("\(Self.baseURL)/confirm-email?token=\(token)"))

        #expect(try server.graphQL("{ me { isEmailConfirmed } }", token: tokens.access).data?["me"]?["isEmailConfirmed"] == false)
        // A confirmation page opened from the email is signed out: the token alone proves the inbox.
        let confirmed = try Self.confirm(server, token: token)
        #expect(confirmed.data?["confirmEmail"]?["user"]?["isEmailConfirmed"] == true, "\(confirmed.json)")
        #expect(confirmed.data?["confirmEmail"]?["user"]?["email"] == "ana@example.com")
        #expect(try server.graphQL("{ me { isEmailConfirmed } }", token: tokens.access).data?["me"]?["isEmailConfirmed"] == true)

        for refused in [token, "not-a-token-we-ever-sent"] {
            let again = try Self.confirm(server, token: refused)
            #expect(again.errorCode == "BAD_USER_INPUT")
            #expect(again.errorReason == "LINK_INVALID")
        }
        let resend = try server.graphQL("mutation { resendConfirmation { email } }", token: tokens.access)
        #expect(resend.errorCode == "CONFLICT", "a confirmed address is not asked again")
    }

    @Test func resendingTheConfirmationRetiresTheEarlierLink() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        let tokens = try AccountsTests.register(server)
        let first = try server.emailedToken(to: "ana@example.com", page: "confirm-email", baseURL: Self.baseURL)

        let resend = try server.graphQL("mutation { resendConfirmation { email } }", token: tokens.access)
        #expect(resend.data?["resendConfirmation"]?["email"] == "ana@example.com", "\(resend.json)")
        #expect(try server.mails(to: "ana@example.com").count == 2)
        let second = try server.emailedToken(to: "ana@example.com", page: "confirm-email", baseURL: Self.baseURL)
        #expect(second != first)

        #expect(try Self.confirm(server, token: first).errorReason == "LINK_INVALID")
        #expect(try Self.confirm(server, token: second, as: tokens.access).data?["confirmEmail"]?["user"]?["isEmailConfirmed"] == true)
        #expect(try server.graphQL("mutation { resendConfirmation { email } }").errorCode == "UNAUTHENTICATED")
    }

    @Test func passwordResetRequestsAnswerAlikeForKnownAndUnknownAddresses() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        try AccountsTests.register(server)

        let known = try Self.requestReset(server, email: "ana@example.com")
        let unknown = try Self.requestReset(server, email: "nobody@example.com")
        #expect(known.status == unknown.status)
        #expect(known.json == unknown.json)
        #expect(known.data?["requestPasswordReset"]?["accepted"] == true)

        let link = try #require(try server.mails(to: "ana@example.com").last)
        #expect(link.subject == "Reset your Hearth password")
        #expect(link.token(linkingTo: "reset-password", under: Self.baseURL) != nil, "\(link.text)")
        let note = try #require(try server.mails(to: "nobody@example.com").first)
        #expect(note.subject == "Password reset for Hearth")
        #expect(note.text.contains("no account uses it"))
        #expect(!note.text.contains("token="))
    }

    @Test func resettingThePasswordEndsEverySessionAndReplacesThePassword() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        let phone = try AccountsTests.register(server)
        let laptop = try AccountsTests.tokens(try AccountsTests.signIn(server).data?["login"])
        #expect(try Self.requestReset(server, email: "ana@example.com").data?["requestPasswordReset"]?["accepted"] == true)
        let token = try server.emailedToken(to: "ana@example.com", page: "reset-password", baseURL: Self.baseURL)

        // A refused new password does not spend the link.
        let weak = try Self.reset(server, token: token, to: "short")
        #expect(weak.errorCode == "BAD_USER_INPUT")
        #expect(weak.errorExtensions?["field"] == "input.newPassword")
        #expect(try Self.reset(server, token: token, to: "password12").errorExtensions?["reason"] == "TOO_COMMON")

        let reset = try Self.reset(server, token: token, to: Self.newPassword)
        #expect(reset.data?["resetPassword"]?["user"]?["username"] == "ana", "\(reset.json)")
        for session in [phone, laptop] {
            let me = try server.graphQL(AccountsTests.me, token: session.access)
            #expect(me.errorCode == "UNAUTHENTICATED")
            #expect(me.errorReason == "SESSION_REVOKED")
            #expect(try Self.refresh(server, session.refresh).errorCode == "UNAUTHENTICATED")
        }
        #expect(try AccountsTests.signIn(server).errorReason == "INVALID_CREDENTIALS")
        #expect(try AccountsTests.signIn(server, password: Self.newPassword).data?["login"]?["user"]?["id"] != nil)
        #expect(try Self.reset(server, token: token, to: "yet another passphrase").errorReason == "LINK_INVALID")
        #expect(try server.mails(to: "ana@example.com").last?.subject == "Your Hearth password was changed")
        // Following the reset link proved the address.
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM users WHERE email_confirmed_at IS NOT NULL") == "1")
    }

    @Test func changingThePasswordNeedsTheCurrentOneAndEndsOnlyTheOtherSessions() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        let phone = try AccountsTests.register(server)
        let laptop = try AccountsTests.tokens(try AccountsTests.signIn(server).data?["login"])

        let wrong = try server.graphQL(Self.changePassword, variables: ["input": [
            "currentPassword": "not my password", "newPassword": .string(Self.newPassword),
        ]], token: phone.access)
        #expect(wrong.errorCode == "UNAUTHENTICATED")
        #expect(wrong.errorReason == "INVALID_CREDENTIALS")
        #expect(wrong.errorExtensions?["field"] == "input.currentPassword")
        let weak = try server.graphQL(Self.changePassword, variables: ["input": [
            "currentPassword": .string(AccountsTests.password), "newPassword": "ana@example.com",
        ]], token: phone.access)
        #expect(weak.errorExtensions?["field"] == "input.newPassword", "the address is no password")

        let changed = try server.graphQL(Self.changePassword, variables: ["input": [
            "currentPassword": .string(AccountsTests.password), "newPassword": .string(Self.newPassword),
        ]], token: phone.access)
        #expect(changed.data?["changePassword"]?["user"]?["username"] == "ana", "\(changed.json)")
        #expect(try server.graphQL(AccountsTests.me, token: phone.access).data?["me"]?["username"] == "ana")
        #expect(try server.graphQL(AccountsTests.me, token: laptop.access).errorReason == "SESSION_REVOKED")
        #expect(try Self.refresh(server, laptop.refresh).errorCode == "UNAUTHENTICATED")
        #expect(try Self.refresh(server, phone.refresh).data?["refreshSession"]?["tokens"]?["accessToken"] != nil)
        #expect(try AccountsTests.signIn(server).errorReason == "INVALID_CREDENTIALS")
        #expect(try AccountsTests.signIn(server, password: Self.newPassword).data?["login"] != nil)
        #expect(try server.mails(to: "ana@example.com").last?.subject == "Your Hearth password was changed")
    }

    @Test func anEmailChangeTakesEffectWhenTheNewAddressConfirmsAndTellsTheOldOne() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        let tokens = try AccountsTests.register(server)
        let withoutPassword = try server.graphQL(Self.changeEmail, variables: ["input": ["newEmail": "ana.new@example.com"]], token: tokens.access)
        #expect(withoutPassword.errorCode == "REAUTHENTICATION_REQUIRED")

        let started = try server.graphQL(Self.changeEmail, variables: ["input": [
            "newEmail": "Ana.New@Example.com", "currentPassword": .string(AccountsTests.password),
        ]], token: tokens.access)
        #expect(started.data?["changeEmail"]?["user"]?["email"] == "ana@example.com", "\(started.json)")
        let me = try server.graphQL("{ me { email pendingEmail } }", token: tokens.access)
        #expect(me.data?["me"]?["email"] == "ana@example.com")
        #expect(me.data?["me"]?["pendingEmail"] == "Ana.New@example.com")

        let mail = try #require(try server.mails(to: "Ana.New@example.com").first)
        #expect(mail.subject == "Confirm your new email address for Hearth")
        let token = try #require(mail.token(linkingTo: "confirm-email", under: Self.baseURL))
        let confirmed = try Self.confirm(server, token: token, as: tokens.access)
        #expect(confirmed.data?["confirmEmail"]?["user"]?["email"] == "Ana.New@example.com", "\(confirmed.json)")
        #expect(confirmed.data?["confirmEmail"]?["user"]?["isEmailConfirmed"] == true)
        let after = try server.graphQL("{ me { email pendingEmail } }", token: tokens.access)
        #expect(after.data?["me"]?["email"] == "Ana.New@example.com")
        #expect(after.data?["me"]?["pendingEmail"] == .null)

        let notice = try #require(try server.mails(to: "ana@example.com").last)
        #expect(notice.subject == "Your Hearth email address was changed")
        #expect(notice.text.contains("Ana.New@example.com"))
        #expect(!notice.text.contains("token="))
        #expect(try AccountsTests.signIn(server).errorReason == "INVALID_CREDENTIALS", "the old address no longer signs in")
        #expect(try server.graphQL(AccountsTests.login, variables: ["input": [
            "email": "ana.new@example.com", "password": .string(AccountsTests.password),
        ]]).data?["login"]?["user"]?["id"] != nil)
    }

    @Test func anEmailChangeToATakenAddressConflicts() throws {
        let server = try Self.startServer()
        defer { server.remove() }
        let ana = try AccountsTests.register(server)
        try AccountsTests.register(server, "bob", device: "Bob's phone")
        let taken = try server.graphQL(Self.changeEmail, variables: ["input": [
            "newEmail": "BOB@example.com", "currentPassword": .string(AccountsTests.password),
        ]], token: ana.access)
        #expect(taken.errorCode == "CONFLICT")
        #expect(taken.errorExtensions?["field"] == "input.newEmail")
        #expect(try server.mails(to: "bob@example.com").count == 1, "bob got his own confirmation only")
    }
}
