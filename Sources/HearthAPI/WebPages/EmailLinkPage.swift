import HearthHTTP
import HearthServices

/// What differs between the pages of emailed links (``ConfirmAddressForm``, ``ResetPasswordForm``):
/// the form a usable link shows and what sending it does. ``EmailLinkPage`` does the rest.
protocol EmailLinkForm: Sendable {
    /// The kind of link.
    var link: EmailLink { get }
    /// What the form token signs.
    var purpose: FormProtection.Purpose { get }
    /// The page's title while the link is usable.
    var title: String { get }
    /// The form, with `error` (already shown above it) marking its fields, and `hiddenFields`
    /// inside it.
    func form(hiddenFields: HTML, error: String?) -> HTML
    /// Does what the form asks with the checked fields of `form`; returns the success page.
    /// - Throws: ``FormProblem`` for a form to show again with a message; ``ServiceError``
    ///   from the service (the link's `LINK_INVALID` among them).
    func submit(_ form: [String: String], linkToken: String) async throws -> WebPage
}

/// The page an emailed link opens (`/confirm-email`, `/reset-password`).
///
/// `GET` shows the form while the link works, and otherwise says why it does not (used or
/// replaced, expired, unknown). It spends nothing: mail scanners open links before people do.
/// `POST` (the form's button) checks the form against forgery, then acts through the same
/// service function as the GraphQL mutation, with its rules, limits and messages.
struct EmailLinkPage<Form: EmailLinkForm>: Sendable {
    let form: Form
    let accounts: AccountService
    let context: PageContext

    /// The response to `GET <path>?token=…`.
    func get(_ request: HTTPRequest) async -> HTTPResponse {
        guard let token = context.linkToken(of: request) else { return Self.unusablePage(.unknown, link: form.link).response }
        do {
            let state = try await accounts.emailLinkState(token: token, for: form.link)
            guard state == .usable else { return Self.unusablePage(state, link: form.link).response }
            let (nonce, setCookie) = context.protection.browserNonce(of: request)
            var page = formPage(token: token, nonce: nonce, error: nil)
            page.setCookie = setCookie
            return page.response
        } catch {
            return context.failurePage(error, request: request).response
        }
    }

    /// The response to the form's `POST <path>`.
    func post(_ request: HTTPRequest) async -> HTTPResponse {
        let (fields, token): ([String: String], String)
        switch context.checkedForm(request, purpose: form.purpose) {
        case .failure(let refusal): return refusal.page.response
        case .success(let checked): (fields, token) = checked
        }
        let nonce = context.protection.browserNonce(of: request).nonce
        do {
            return try await form.submit(fields, linkToken: token).response
        } catch let problem as FormProblem {
            return formPage(token: token, nonce: nonce, error: problem.message).response
        } catch let error as ServiceError where error.reason == .linkInvalid {
            // Say why, as the page would have: used, expired or unknown (or changed under it).
            let state = (try? await accounts.emailLinkState(token: token, for: form.link)) ?? .unknown
            return Self.unusablePage(state == .usable ? .unknown : state, link: form.link).response
        } catch let error as ServiceError where error.problems.isEmpty == false || error.code == .rateLimited {
            var page = formPage(token: token, nonce: nonce, error: error.problems.first?.message ?? error.message)
            page.status = PageContext.status(of: error)
            page.retryAfter = error.retryAfter
            return page.response
        } catch let error as ServiceError {
            return WebPage(status: PageContext.status(of: error), title: "This did not work", content: "<p>\(error.message)</p>").response
        } catch {
            return context.failurePage(error, request: request).response
        }
    }

    private func formPage(token: String, nonce: [UInt8], error: String?) -> WebPage {
        let errorBox: HTML = error.map { "<p class=\"message error\" role=\"alert\" id=\"form-error\">\($0)</p>\n" } ?? .empty
        let hiddenFields = context.hiddenFields(purpose: form.purpose, linkToken: token, nonce: nonce)
        return WebPage(
            status: error == nil ? .ok : .badRequest, title: form.title,
            content: "\(errorBox)\(form.form(hiddenFields: hiddenFields, error: error))")
    }

    /// The page of a link that cannot be used: 410 for a used or expired one, 404 for an unknown one.
    static func unusablePage(_ state: EmailLinkState, link: EmailLink) -> WebPage {
        let again: HTML = switch link {
        case .confirmAddress: "sign in to the Hearth app and ask for a new confirmation email"
        case .resetPassword: "ask for a new password reset link in the Hearth app (“Forgot password”)"
        }
        switch state {
        case .used:
            let done: HTML = switch link {
            case .confirmAddress: "If you pressed its button before, your address is confirmed already."
            case .resetPassword: "If you chose a new password with it before, sign in with that one."
            }
            return WebPage(
                status: HTTPStatus(code: 410), title: "This link was already used",
                content: "<p>Each link works once, and a newer link replaces older ones. \(done)</p><p>Otherwise, \(again).</p>")
        case .expired:
            return WebPage(status: HTTPStatus(code: 410), title: "This link has expired", content: "<p>To get a new one, \(again).</p>")
        case .unknown, .usable:
            return WebPage(
                status: .notFound, title: "This link is not valid",
                content: "<p>Check that you opened the whole link from the email; some mail programs cut long links. If it still does not work, \(again).</p>")
        }
    }
}
