import HearthDomain
import HearthHTTP
import HearthServices
import Support

/// `/invitation?token=…`: the invitation as `invitationPreview` shows it (household, who
/// invited, the role, the invited address, until when), with two ways to answer.
///
/// - **In the app**: a link to `hearth://invitation?token=…`, which the phone apps open, and a
///   word on installing the app first.
/// - **On the web**: the web has no session of its own (no cookie signs anyone in), so the form
///   asks for the email address and password of the account to answer with, and one `POST`
///   signs in (``AccountService/withOneRequestSession(email:password:deviceLabel:clientAddress:_:)``,
///   with the sign-in rate limits of the `login` mutation), accepts or declines through the same
///   service functions as the mutations (only an account whose confirmed address is the invited
///   one may; the current terms must be accepted, as the API's terms gate requires), and signs
///   out again on every path: the session lives for that one request and signs no device out
///   at the session limit. Accounts that sign in only with Google or Apple answer in the app.
///
/// Opening the page changes nothing (mail scanners open links); only the form's `POST` does.
struct InvitationPage: Sendable {
    let accounts: AccountService
    let households: HouseholdService
    let context: PageContext

    /// The form's fields.
    static let emailField = "email"
    static let passwordField = "password"
    static let answerField = "answer"
    /// The device label of the one-request session the form signs in with (the account's
    /// session list shows it, ended, should anyone look).
    static let deviceLabel = "Web page: invitation"

    /// The response to `GET /invitation?token=…`.
    func get(_ request: HTTPRequest) async -> HTTPResponse {
        guard let token = context.linkToken(of: request) else { return Self.invalidPage.response }
        do {
            let invitation = try await households.invitationPreview(token: token)
            let (nonce, setCookie) = context.protection.browserNonce(of: request)
            var page = page(invitation, token: token, nonce: nonce, email: invitation.email, error: nil)
            page.setCookie = setCookie
            return page.response
        } catch let error as ServiceError where error.reason == .linkInvalid {
            return Self.invalidPage.response
        } catch {
            return context.failurePage(error, request: request).response
        }
    }

    /// The response to the form's `POST /invitation`.
    func post(_ request: HTTPRequest) async -> HTTPResponse {
        let (form, token): ([String: String], String)
        switch context.checkedForm(request, purpose: .invitation) {
        case .failure(let refusal): return refusal.page.response
        case .success(let checked): (form, token) = checked
        }
        let invitation: ReceivedInvitation
        do {
            invitation = try await households.invitationPreview(token: token)
        } catch let error as ServiceError where error.reason == .linkInvalid {
            return Self.invalidPage.response
        } catch {
            return context.failurePage(error, request: request).response
        }
        let email = form[Self.emailField] ?? ""
        let nonce = context.protection.browserNonce(of: request).nonce
        // Expired while its page was open: answered as the page now is, before any sign-in (a
        // password checked for nothing would still count against the account's sign-ins).
        if invitation.isExpired { return page(invitation, token: token, nonce: nonce, email: email, error: nil).response }
        func again(_ message: String, status: HTTPStatus, retryAfter: Int? = nil) -> HTTPResponse {
            var page = page(invitation, token: token, nonce: nonce, email: email, error: message)
            page.status = status
            page.retryAfter = retryAfter
            return page.response
        }
        guard let answer = form[Self.answerField], answer == "accept" || answer == "decline" else {
            return again("Choose to accept or to decline the invitation.", status: .badRequest)
        }
        do {
            let done = try await accounts.withOneRequestSession(
                email: email, password: form[Self.passwordField] ?? "", deviceLabel: Self.deviceLabel,
                clientAddress: context.clientAddress(request)
            ) { user, viewer in
                guard households.termsStanding(of: user) == .accepted else {
                    throw FormProblem(message: "Before you answer, accept the current terms of service in the Hearth app, then open this link again.")
                }
                if answer == "accept" {
                    let joined = try await households.acceptInvitation(.token(token), viewer: viewer)
                    return WebPage(
                        title: "Welcome to \(joined.household.name)",
                        content: """
                            <p class="message" role="status">You joined \(joined.household.name).</p>
                            <p>Open the Hearth app, signed in as \(user.email), to take part.</p>
                            """)
                }
                _ = try await households.declineInvitation(.token(token), viewer: viewer)
                return WebPage(
                    title: "Invitation declined",
                    content: "<p class=\"message\" role=\"status\">You declined the invitation to \(invitation.householdName).</p>")
            }
            return done.response
        } catch let problem as FormProblem {
            return again(problem.message, status: .forbidden)
        } catch let error as ServiceError where error.reason == .linkInvalid {
            return Self.invalidPage.response
        } catch let error as ServiceError {
            return again(error.message, status: PageContext.status(of: error), retryAfter: error.retryAfter)
        } catch {
            return context.failurePage(error, request: request).response
        }
    }

    /// The invitation's page: its details, and while it works, both ways to answer it.
    private func page(_ invitation: ReceivedInvitation, token: String, nonce: [UInt8], email: String, error: String?) -> WebPage {
        let household = invitation.householdEmoji.map { "\($0) \(invitation.householdName)" } ?? invitation.householdName
        let role = switch (invitation.kind, invitation.role) {
        case (.coParent, _): "Co-parent (runs the household as an admin)"
        case (_, .admin): "Admin"
        case (_, .member): "Member"
        }
        let expiry = WallClock.Instant(invitation.expiresAt).iso8601
        let readableExpiry = "\(expiry.prefix(10)) \(expiry.dropFirst(11).prefix(5)) UTC"
        let details: HTML = """
            <dl>
            <dt>Household</dt><dd>\(household)</dd>
            <dt>Invited by</dt><dd>\(invitation.invitedByName ?? "A member who has since left")</dd>
            <dt>You would join as</dt><dd>\(role)</dd>
            <dt>For the address</dt><dd>\(invitation.email)</dd>
            <dt>\(invitation.isExpired ? "Expired" : "Valid until")</dt><dd><time datetime="\(expiry)">\(readableExpiry)</time></dd>
            </dl>
            """
        guard !invitation.isExpired else {
            let inviter = invitation.invitedByName ?? "an admin of the household"
            return WebPage(
                status: HTTPStatus(code: 410), title: "This invitation has expired",
                content: "\(details)<p>Ask \(inviter) to send it again.</p>")
        }
        let errorBox: HTML = error.map { "<p class=\"message error\" role=\"alert\" id=\"form-error\">\($0)</p>\n" } ?? .empty
        let described: HTML = error == nil ? .empty : " aria-describedby=\"form-error\""
        return WebPage(
            status: error == nil ? .ok : .badRequest, title: "Join \(invitation.householdName) on Hearth",
            content: """
                \(details)
                <h2>In the app</h2>
                <p><a class="button" href="hearth://invitation?token=\(token)">Open in the Hearth app</a></p>
                <p class="hint">No app yet? Install Hearth from your phone’s app store, sign in with the account that uses \(invitation.email) (or create one with it), then open this link again.</p>
                <h2>On the web</h2>
                \(errorBox)<p>Sign in with the account that uses \(invitation.email) to answer here. You are signed out again right away.</p>
                <form method="post" action="invitation">
                \(context.hiddenFields(purpose: .invitation, linkToken: token, nonce: nonce))
                <label for="email">Email address</label>
                <input id="email" name="\(Self.emailField)" type="email" autocomplete="email" required value="\(email)"\(described)>
                <label for="password">Password</label>
                <input id="password" name="\(Self.passwordField)" type="password" autocomplete="current-password" required\(described)>
                <button type="submit" name="\(Self.answerField)" value="accept">Accept and join</button>
                <button type="submit" name="\(Self.answerField)" value="decline" class="secondary">Decline</button>
                </form>
                <p class="hint">Signed up with Google or Apple? Answer in the app.</p>
                """)
    }

    /// The page of a link whose invitation does not exist (any more).
    static let invalidPage = WebPage(
        status: .notFound, title: "This invitation link does not work",
        content: """
            <p>The invitation was accepted or declined already, withdrawn, or sent again with a newer link \
            (only the newest works); or the link was cut short. Ask the household’s admin to send it again if you still want to join.</p>
            """)
}
