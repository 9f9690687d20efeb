@testable import HearthAPI
import HearthServices
import TestFixtures
import Testing

/// The pages emailed links open, in process over the services with a clock the tests move:
/// what each page shows, that opening changes nothing, and that forms act like the API.
@Suite struct WebPagesTests {
    /// The token of the newest link to `page` mailed to `address`.
    static func token(_ harness: HouseholdsHarness, to address: String, page: String) throws -> String {
        let mail = try #require(harness.mail.all.last { $0.to == address && $0.text.contains("/\(page)?token=") })
        let start = try #require(mail.text.range(of: "/\(page)?token="))
        return String(mail.text[start.upperBound...].prefix { !$0.isWhitespace })
    }

    /// Ana's household named `name` and the token of its invitation to `bob@example.com`, which
    /// `configure` may change; `before` runs as Ana before the household is created.
    static func invitation(
        _ harness: HouseholdsHarness, household name: String = "Home",
        configure: (inout HouseholdService.NewInvitation) -> Void = { _ in }, before: (Viewer) async throws -> Void = { _ in }
    ) async throws -> (admin: Viewer, householdID: String, token: String) {
        let admin = try await harness.confirmedViewer("ana")
        try await before(admin)
        let (household, _, _) = try await harness.service.createHousehold(.init(name: name), viewer: admin)
        var invitation = HouseholdService.NewInvitation(householdID: household.id, email: "bob@example.com")
        configure(&invitation)
        let issued = try await harness.service.inviteMember(invitation, viewer: admin, clientAddress: "192.0.2.1")
        return (admin, household.id, issued.token)
    }

    /// Registers Ana and opens her confirmation link in a new visitor.
    static func openConfirmation(_ harness: HouseholdsHarness) async throws -> (user: UserRecord, token: String, visitor: PageVisitor, form: PageVisitor.Page) {
        let (user, _) = try await harness.accounts.register("ana")
        let token = try Self.token(harness, to: "ana@example.com", page: "confirm-email")
        let visitor = PageVisitor(harness)
        return (user, token, visitor, await visitor.get("/confirm-email?token=\(token)", with: visitor.confirmAddress.get))
    }

    @Test func openingAConfirmationLinkChangesNothingAndItsButtonConfirms() async throws {
        try await HouseholdsHarness.with { harness in
            let (user, token, visitor, form) = try await Self.openConfirmation(harness)
            #expect(form.status == 200)
            #expect(form.body.contains("<button type=\"submit\">Confirm my address</button>"))
            #expect(form.body.contains("<html lang=\"en\">") && form.body.contains("name=\"viewport\""))
            #expect(form.response.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
            #expect(form.response.headers["Referrer-Policy"] == "no-referrer")
            #expect(form.response.headers["Cache-Control"] == "no-store")
            #expect(try await harness.accounts.service.user(id: user.id)?.isEmailConfirmed == false)

            let done = await visitor.post("/confirm-email", [:], from: form, with: visitor.confirmAddress.post)
            #expect(done.status == 200)
            #expect(done.body.contains("ana@example.com is confirmed"))
            #expect(try await harness.accounts.service.user(id: user.id)?.isEmailConfirmed == true)

            let again = await visitor.get("/confirm-email?token=\(token)", with: visitor.confirmAddress.get)
            #expect(again.status == 410)
            #expect(again.body.contains("This link was already used"))
            #expect(!again.body.contains("<form"))
        }
    }

    @Test func expiredUnknownAndMalformedLinksSaySoWithoutAForm() async throws {
        try await HouseholdsHarness.with { harness in
            try await harness.accounts.register("ana")
            let token = try Self.token(harness, to: "ana@example.com", page: "confirm-email")
            let visitor = PageVisitor(harness)
            harness.clock.advance(seconds: 48 * 3600 + 1)
            let expired = await visitor.get("/confirm-email?token=\(token)", with: visitor.confirmAddress.get)
            #expect(expired.status == 410)
            #expect(expired.body.contains("This link has expired"))
            let unknown = await visitor.get("/confirm-email?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", with: visitor.confirmAddress.get)
            #expect(unknown.status == 404)
            #expect(unknown.body.contains("This link is not valid"))
            let malformed = await visitor.get("/confirm-email?token=%3Cscript%3E", with: visitor.confirmAddress.get)
            #expect(malformed.status == 404)
            #expect(!malformed.body.contains("<script>") && !malformed.body.contains("&lt;script"))
            let missing = await visitor.get("/reset-password", with: visitor.resetPassword.get)
            #expect(missing.status == 404)
        }
    }

    @Test func theResetFormKeepsThePasswordUntilBothFieldsAgreeAndThePolicyAccepts() async throws {
        try await HouseholdsHarness.with { harness in
            let (_, first) = try await harness.accounts.register("ana")
            try await harness.accounts.service.requestPasswordReset(email: "ana@example.com", clientAddress: "192.0.2.1")
            let token = try Self.token(harness, to: "ana@example.com", page: "reset-password")
            let visitor = PageVisitor(harness)
            let form = await visitor.get("/reset-password?token=\(token)", with: visitor.resetPassword.get)
            #expect(form.status == 200)
            #expect(form.body.contains("<label for=\"new-password\">") && form.body.contains("autocomplete=\"new-password\""))

            func send(_ password: String, _ again: String) async -> PageVisitor.Page {
                await visitor.post(
                    "/reset-password", [ResetPasswordForm.passwordField: password, ResetPasswordForm.repeatField: again],
                    from: form, with: visitor.resetPassword.post)
            }
            let differing = await send("a brand new passphrase", "a brand new passphrasf")
            #expect(differing.status == 400)
            #expect(differing.body.contains("The two passwords differ"))
            #expect(differing.body.contains("role=\"alert\"") && differing.body.contains("aria-invalid=\"true\""))
            #expect(!differing.body.contains("a brand new passphrase"), "passwords are never echoed")
            let common = await send("password1234", "password1234")
            #expect(common.status == 400)
            #expect(common.body.contains("This password is too common; choose another."))
            let short = await send("short", "short")
            #expect(short.body.contains("A password has at least 10 characters."))
            _ = try await harness.accounts.login("ana")

            let done = await send("a brand new passphrase", "a brand new passphrase")
            #expect(done.status == 200)
            #expect(done.body.contains("You were signed out on every device"))
            _ = try await harness.accounts.login("ana", password: "a brand new passphrase")
            await #expect(throws: ServiceError.self) { try await harness.accounts.service.authenticate(accessToken: first.accessToken) }
            let used = await send("another new passphrase", "another new passphrase")
            #expect(used.status == 410)
        }
    }

    @Test func theInvitationPageShowsTheInvitationWithEveryNameEscaped() async throws {
        try await HouseholdsHarness.with { harness in
            let (_, _, token) = try await Self.invitation(
                harness, household: "<script>alert(1)</script>", configure: { $0.role = .admin }
            ) { admin in
                _ = try await harness.accounts.service.updateProfile(viewer: admin, ProfileChange(displayName: "Ana \"><img src=x onerror=alert(1)>"))
            }
            let visitor = PageVisitor(harness)
            let page = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)
            #expect(page.status == 200)
            #expect(page.body.contains("<h1>Join &lt;script&gt;alert(1)&lt;/script&gt; on Hearth</h1>"))
            #expect(page.body.contains("<title>Join &lt;script&gt;alert(1)&lt;/script&gt; on Hearth · Hearth</title>"))
            #expect(page.body.contains("Ana &quot;&gt;&lt;img src=x onerror=alert(1)&gt;"))
            #expect(!page.body.contains("<script>") && !page.body.contains("<img"))
            #expect(page.body.contains("<dd>Admin</dd>") && page.body.contains("<dd>bob@example.com</dd>"))
            #expect(page.body.contains("href=\"hearth://invitation?token=\(token)\""))
            #expect(page.body.contains("value=\"bob@example.com\""))

            harness.clock.advance(seconds: 14 * 24 * 3600 + 1)
            let expired = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)
            #expect(expired.status == 410)
            #expect(expired.body.contains("This invitation has expired") && !expired.body.contains("<form"))
        }
    }

    @Test func theInvitationFormSignsInAcceptsAndSignsOutInOneRequest() async throws {
        try await HouseholdsHarness.with { harness in
            let (_, householdID, token) = try await Self.invitation(harness)
            let bob = try await harness.confirmedViewer("bob")
            let visitor = PageVisitor(harness)
            let page = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)

            let wrong = await visitor.post(
                "/invitation", ["email": "bob@example.com", "password": "not the password", "answer": "accept"],
                from: page, with: visitor.invitation.post)
            #expect(wrong.status == 400)
            #expect(wrong.body.contains("The email address or password is not correct."))
            #expect(wrong.body.contains("value=\"bob@example.com\""))

            let joined = await visitor.post(
                "/invitation", ["email": "bob@example.com", "password": AccountsHarness.password, "answer": "accept"],
                from: page, with: visitor.invitation.post)
            #expect(joined.status == 200)
            #expect(joined.body.contains("You joined Home."))
            #expect(try await harness.service.isActiveMember(bob, of: householdID))
            let sessions = try await harness.accounts.service.activeSessions(viewer: bob)
            #expect(!sessions.contains { $0.deviceLabel == InvitationPage.deviceLabel }, "the page's session ended")

            let spent = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)
            #expect(spent.status == 404)
        }
    }

    /// The form's session lives for its one request: at the session limit it signs none of
    /// the account's devices out to make room, and it ends on every path, refusals included.
    @Test func theInvitationFormsSessionSignsNoDeviceOutAndEndsOnEveryPath() async throws {
        try await HouseholdsHarness.with(configureAccounts: { $0.maximumSessionsPerUser = 2 }) { harness in
            let (_, householdID, token) = try await Self.invitation(harness)
            let bob = try await harness.confirmedViewer("bob", acceptingTerms: false)
            harness.clock.advance(seconds: 1)
            let laptop = try await harness.accounts.login("bob")
            let devices = Set([bob.sessionID, laptop.session.id])
            let visitor = PageVisitor(harness)
            let page = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)
            func answer(_ password: String = AccountsHarness.password) async -> PageVisitor.Page {
                harness.clock.advance(seconds: 1)
                return await visitor.post(
                    "/invitation", ["email": "bob@example.com", "password": password, "answer": "accept"],
                    from: page, with: visitor.invitation.post)
            }
            func activeSessions() async throws -> Set<String> {
                Set(try await harness.accounts.service.activeSessions(viewer: bob).map(\.id))
            }

            #expect(await answer("not the password").status == 400)
            #expect(await answer().status == 403, "the terms are not accepted yet")
            #expect(try await activeSessions() == devices, "refused: the page's session ended, both devices still signed in")
            _ = try await harness.service.acceptTerms(version: harness.service.configuration.termsVersion, viewer: bob)
            #expect(await answer().status == 200)
            #expect(try await harness.service.isActiveMember(bob, of: householdID))
            #expect(try await activeSessions() == devices, "joined: the page's session ended, both devices still signed in")
        }
    }

    /// An invitation that expired while its page was open answers the form as its page does
    /// (410, no form) without signing anyone in: the password is not even checked.
    @Test func theFormOfAnExpiredInvitationSignsNobodyIn() async throws {
        try await HouseholdsHarness.with { harness in
            let (_, _, token) = try await Self.invitation(harness)
            let bob = try await harness.confirmedViewer("bob")
            let visitor = PageVisitor(harness)
            let page = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)
            harness.clock.advance(seconds: 14 * 24 * 3600 + 1)
            let expired = await visitor.post(
                "/invitation", ["email": "bob@example.com", "password": AccountsHarness.password, "answer": "accept"],
                from: page, with: visitor.invitation.post)
            #expect(expired.status == 410)
            #expect(expired.body.contains("This invitation has expired") && !expired.body.contains("<form"))
            let sessions = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM sessions WHERE user_id = ?", [bob.userID]) }
            #expect(sessions == 1, "only the registration's session: the form signed nobody in")
        }
    }

    @Test func theInvitationFormAppliesTheAPIsRulesAddressTermsAndDecline() async throws {
        try await HouseholdsHarness.with { harness in
            let (admin, householdID, token) = try await Self.invitation(harness)
            _ = try await harness.confirmedViewer("carol")
            let bob = try await harness.confirmedViewer("bob", acceptingTerms: false)
            let visitor = PageVisitor(harness)
            let page = await visitor.get("/invitation?token=\(token)", with: visitor.invitation.get)
            func answer(_ who: String, _ answer: String) async -> PageVisitor.Page {
                await visitor.post(
                    "/invitation", ["email": "\(who)@example.com", "password": AccountsHarness.password, "answer": answer],
                    from: page, with: visitor.invitation.post)
            }

            let carol = await answer("carol", "accept")
            #expect(carol.status == 403)
            #expect(carol.body.contains("This invitation was sent to another email address."))
            let withoutTerms = await answer("bob", "accept")
            #expect(withoutTerms.status == 403)
            #expect(withoutTerms.body.contains("accept the current terms of service in the Hearth app"))
            #expect(try await harness.service.isActiveMember(bob, of: householdID) == false)

            _ = try await harness.service.acceptTerms(version: harness.service.configuration.termsVersion, viewer: bob)
            let declined = await answer("bob", "decline")
            #expect(declined.status == 200)
            #expect(declined.body.contains("You declined the invitation to Home."))
            #expect(try await harness.service.invitations(try await harness.service.access(viewer: admin, householdID: householdID)).isEmpty)
        }
    }

    @Test func aFormWithoutItsCookieOrTokenIsRefusedAndChangesNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let (user, token, visitor, form) = try await Self.openConfirmation(harness)
            let forged = await visitor.post("/confirm-email", ["token": token, "form_token": "AAAA"], with: visitor.confirmAddress.post)
            #expect(forged.status == 403)
            #expect(forged.body.contains("This form was not accepted") && !forged.body.contains("<form"))
            let elsewhere = PageVisitor(harness)
            let noCookie = await elsewhere.post("/confirm-email", [:], from: form, with: elsewhere.confirmAddress.post)
            #expect(noCookie.status == 403)
            #expect(noCookie.body.contains("Allow cookies for this site"))
            #expect(try await harness.accounts.service.user(id: user.id)?.isEmailConfirmed == false)
        }
    }
}
