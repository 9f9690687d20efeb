import Foundation
import GraphQL
import Testing

/// The pages that emailed links open, over HTTP against the real binary: open, then send the
/// form with its token, as a browser does; forged forms refused; the API's limits; no token in
/// the log.
@Suite struct EmailLinkPagesTests {
    static let baseURL = ServerProcess.householdBaseURL
    static let me = "{ me { isEmailConfirmed } }"

    /// Registers Ana through the API; returns her access token and the token of the
    /// confirmation link mailed to her.
    @discardableResult
    static func register(_ server: ServerProcess) throws -> (access: String, confirmation: String) {
        let registered = try server.graphQL(AccountsTests.register, variables: ["input": [
            "username": "ana", "email": "ana@example.com", "password": .string(AccountsTests.password),
        ]])
        let access = try #require(registered.data?["register"]?["tokens"]?["accessToken"]?.stringValue, "\(registered.json)")
        return (access, try server.emailedToken(to: "ana@example.com", page: "confirm-email", baseURL: baseURL))
    }

    /// Asks for a password reset for Ana through the API; returns the mailed link's token.
    static func requestReset(_ server: ServerProcess) throws -> String {
        _ = try AccountEmailFlowTests.requestReset(server, email: "ana@example.com")
        return try server.emailedToken(to: "ana@example.com", page: "reset-password", baseURL: baseURL)
    }

    static func isConfirmed(_ server: ServerProcess, _ token: String) throws -> Bool? {
        if case .bool(let confirmed)? = try server.graphQL(me, token: token).data?["me"]?["isEmailConfirmed"] { return confirmed }
        return nil
    }

    @Test func theConfirmationLinkOpensAPageAndItsButtonConfirmsTheAddress() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (access, token) = try Self.register(server)
        var browser = PageBrowser(server)
        let page = try browser.open("/confirm-email?token=\(token)")
        #expect(page.status == 200)
        #expect(page.text.contains("Confirm my address"))
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(page.headers["Content-Security-Policy"]
            == "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
        #expect(page.headers["Referrer-Policy"] == "no-referrer")
        #expect(page.headers["Cache-Control"] == "no-store")
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(page.headers["Set-Cookie"]?.hasPrefix("__Host-hearth-form=") == true, "an https base URL")
        #expect(try Self.isConfirmed(server, access) == false, "opening the link confirms nothing")

        let done = try browser.submit("/confirm-email")
        #expect(done.status == 200)
        #expect(done.text.contains("ana@example.com is confirmed"))
        #expect(try Self.isConfirmed(server, access) == true)

        let again = try browser.open("/confirm-email?token=\(token)")
        #expect(again.status == 410)
        #expect(again.text.contains("This link was already used"))
        let style = try server.get("/pages/style.css")
        #expect(style.status == 200 && style.headers["Content-Type"] == "text/css; charset=utf-8")
    }

    @Test func formsWithoutTheirTokenCookieOrOriginAreRefusedWith403AndChangeNothing() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (access, token) = try Self.register(server)
        var browser = PageBrowser(server)
        try browser.open("/confirm-email?token=\(token)")
        let wrongToken = String(repeating: "A", count: 43)
        let refusals = [
            ("no form token", try browser.submit("/confirm-email", ["form_token": ""])),
            ("a wrong form token", try browser.submit("/confirm-email", ["form_token": wrongToken])),
            ("no cookie", try browser.submit("/confirm-email", withCookie: false)),
            ("another site (Fetch Metadata)", try browser.submit("/confirm-email", headers: "Sec-Fetch-Site: cross-site\r\n")),
            ("another origin", try browser.submit("/confirm-email", headers: "Origin: https://evil.example\r\n")),
            ("the token of another page", try browser.submit("/confirm-email", ["token": wrongToken])),
        ]
        for (what, response) in refusals {
            #expect(response.status == 403, "\(what)")
            #expect(response.text.contains("This form was not accepted"), "\(what)")
        }
        #expect(try Self.isConfirmed(server, access) == false)
        let passes = try browser.submit("/confirm-email", headers: "Origin: \(Self.baseURL)\r\n")
        #expect(passes.status == 200, "the link still works: the refusals spent nothing")
    }

    @Test func usedReplacedAndExpiredLinksOpenPagesThatSaySo() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        try Self.register(server)
        let first = try Self.requestReset(server)
        let second = try Self.requestReset(server)
        var browser = PageBrowser(server)
        let replaced = try browser.open("/reset-password?token=\(first)")
        #expect(replaced.status == 410 && replaced.text.contains("a newer link replaces older ones"))
        try server.databaseWrite("UPDATE email_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE purpose = 'reset_password'")
        let expired = try browser.open("/reset-password?token=\(second)")
        #expect(expired.status == 410 && expired.text.contains("This link has expired"))
        let confirmation = try server.emailedToken(to: "ana@example.com", page: "confirm-email", baseURL: Self.baseURL)
        let wrongPage = try browser.open("/reset-password?token=\(confirmation)")
        #expect(wrongPage.status == 404 && wrongPage.text.contains("This link is not valid"), "a confirmation token resets nothing")
    }

    @Test func theResetPageSetsTheNewPasswordWithTheAPIsRules() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        try Self.register(server)
        let token = try Self.requestReset(server)
        var browser = PageBrowser(server)
        #expect(try browser.open("/reset-password?token=\(token)").status == 200)
        let mine = try browser.submit("/reset-password", ["new_password": "ana@example.com", "repeat_password": "ana@example.com"])
        #expect(mine.status == 400)
        #expect(mine.text.contains("A password must not be your username or email address."))
        #expect(try AccountsTests.signIn(server).data?["login"] != nil, "the old password still works")

        let done = try browser.submit("/reset-password", ["new_password": AccountEmailFlowTests.newPassword, "repeat_password": AccountEmailFlowTests.newPassword])
        #expect(done.status == 200 && done.text.contains("You were signed out on every device"))
        #expect(try AccountsTests.signIn(server).errorReason == "INVALID_CREDENTIALS")
        #expect(try AccountsTests.signIn(server, password: AccountEmailFlowTests.newPassword).data?["login"] != nil)
    }

    @Test func theInvitationPageEscapesNamesAndItsSignInCountsAgainstTheAPIsLimits() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--login-failures-per-account", "1"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("<script>alert(1)</script>", as: ana)
        let token = try server.inviteToken("bob@example.com", to: householdID, by: ana)
        let bob = try server.person("bob")
        var browser = PageBrowser(server)
        let page = try browser.open("/invitation?token=\(token)")
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>Join &lt;script&gt;alert(1)&lt;/script&gt; on Hearth</h1>"))
        #expect(!page.text.contains("<script>"))

        // One failed sign-in through the API empties bob's bucket; the page draws on the same one.
        #expect(try AccountsTests.signIn(server, "bob", password: "a wrong guess here").errorReason == "INVALID_CREDENTIALS")
        let limited = try browser.submit("/invitation", ["email": bob.email, "password": AccountsTests.password, "answer": "accept"])
        #expect(limited.status == 429)
        #expect(limited.headers["Retry-After"] != nil)
        #expect(limited.text.contains("Too many attempts"))
        let households = try server.graphQL("{ households { id } }", token: bob.token)
        #expect(households.data?["households"] == .array([]), "\(households.json)")
    }

    @Test func theInvitationFormAcceptsAsTheInvitedAccount() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Home", as: ana)
        let token = try server.inviteToken("bob@example.com", to: householdID, by: ana)
        let bob = try server.person("bob")
        var browser = PageBrowser(server)
        try browser.open("/invitation?token=\(token)")
        let joined = try browser.submit("/invitation", ["email": bob.email, "password": AccountsTests.password, "answer": "accept"])
        #expect(joined.status == 200 && joined.text.contains("You joined Home."))
        let households = try server.graphQL("{ households { id } }", token: bob.token)
        #expect(households.data?["households"]?[0]?["id"]?.stringValue == householdID, "\(households.json)")
    }

    @Test func noLinkTokenOrPasswordReachesTheLog() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--log-level", "trace"])
        defer { server.remove() }
        let confirmation = try Self.register(server).confirmation
        var browser = PageBrowser(server)
        try browser.open("/confirm-email?token=\(confirmation)")
        let formToken = try #require(browser.field("form_token"))
        #expect(try browser.submit("/confirm-email").status == 200)
        let reset = try Self.requestReset(server)
        try browser.open("/reset-password?token=\(reset)")
        let password = AccountEmailFlowTests.newPassword
        #expect(try browser.submit("/reset-password", ["new_password": password, "repeat_password": password]).status == 200)
        let cookie = try #require(browser.cookie?.split(separator: "=").last.map(String.init))

        // Stopped first, so the access-log line of the last request is written before the log is read.
        #expect(server.stop() == 0)
        let log = try String(contentsOfFile: server.logPath, encoding: .utf8)
        #expect(log.contains("http.route=/confirm-email") && log.contains("http.route=/reset-password"), "the access log has the pages")
        for (what, secret) in [("confirmation token", confirmation), ("reset token", reset), ("form token", formToken),
                               ("cookie", cookie), ("password", password), ("encoded password", "a%20brand%20new"), ("form-encoded password", "a+brand+new")] {
            #expect(!log.contains(secret), "the log holds the \(what)")
        }
    }
}
