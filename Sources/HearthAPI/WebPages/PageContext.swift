import HearthHTTP
import HearthServices
import Support

/// What every page shares: the form protection, the caller's address as the API sees it (for
/// the same rate limits), the logger for failures, and the steps every page request takes
/// before its own work: reading the link's token, reading and checking a form.
struct PageContext: Sendable {
    /// Protects the forms.
    let protection: FormProtection
    /// The client address of a request, as the GraphQL API's rate limits see it.
    let clientAddress: @Sendable (HTTPRequest) -> String
    /// Where failures are logged (never with a token).
    let logger: Logger

    /// `text` when it can be a link token (base64url characters only, which makes it safe in a
    /// URL and a hidden field alike; its length is bounded by the request line's limit); `nil`
    /// otherwise, answered as an unknown link without a database read.
    static func linkToken(_ text: String?) -> String? {
        guard let text, !text.isEmpty,
              text.utf8.allSatisfy({ byte in
                  switch byte {
                  case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                       UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"): true
                  default: false
                  }
              })
        else { return nil }
        return text
    }

    /// The link token of a page's address (`?token=…`), if well-formed.
    func linkToken(of request: HTTPRequest) -> String? {
        Self.linkToken(try? FormDecoding.parameters(request.query ?? "")["token"])
    }

    /// The form a browser posted, checked against cross-site request forgery, and its link
    /// token; or the page refusing it: 415 for a body that is not a form, 400 for a malformed
    /// one, 403 for a failed check (see ``FormProtection``), 404 for a malformed link token.
    func checkedForm(_ request: HTTPRequest, purpose: FormProtection.Purpose) -> Result<(form: [String: String], linkToken: String), PageRefusal> {
        guard let contentType = request.headers["Content-Type"], MediaType.essence(of: contentType, is: "application/x-www-form-urlencoded") else {
            return .failure(PageRefusal(WebPage(
                status: .unsupportedMediaType, title: "This form could not be read",
                content: "<p>Send the form from the page itself.</p>")))
        }
        guard let body = String(validating: request.body, as: UTF8.self),
              let form = try? FormDecoding.parameters(body[...]) else {
            return .failure(PageRefusal(WebPage(
                status: .badRequest, title: "This form could not be read", content: "<p>Open the link from the email again.</p>")))
        }
        let presentedToken = form["token"] ?? ""
        do {
            try protection.check(request, form: form, purpose: purpose, linkToken: presentedToken)
        } catch {
            return .failure(PageRefusal(Self.refusalPage(error)))
        }
        guard let linkToken = Self.linkToken(presentedToken) else {
            return .failure(PageRefusal(WebPage(
                status: .notFound, title: "This link is not valid", content: "<p>Open the link from the email again.</p>")))
        }
        return .success((form, linkToken))
    }

    /// The 403 page of a refused form: what to do, never why in detail (an attacker learns nothing).
    static func refusalPage(_ refusal: FormProtection.Refusal) -> WebPage {
        let advice: HTML = switch refusal {
        case .missingCookie:
            "<p>This page protects its form with a cookie, and your browser did not send it back. Allow cookies for this site, open the link from the email again and send the form from there.</p>"
        case .crossOrigin, .tokenMismatch:
            "<p>The form did not come from this page, or the page has expired. Open the link from the email again and send the form from there.</p>"
        }
        return WebPage(status: .forbidden, title: "This form was not accepted", content: advice)
    }

    /// The page for a failure the visitor cannot fix: logged with the request id (never with the
    /// request's token or form), answered 500 with that id to quote.
    func failurePage(_ error: any Error, request: HTTPRequest) -> WebPage {
        logger.error("page failed", ["request.id": request.id, "http.route": request.route ?? "", "error": "\(error)"])
        return WebPage(
            status: .internalServerError, title: "Something went wrong",
            content: "<p>Something went wrong on our side. Try again in a moment.</p><p class=\"hint\">Reference: \(request.id)</p>")
    }

    /// The status of a page answering `error`, as the GraphQL API's would be over HTTP where
    /// it has one (429 for `RATE_LIMITED`), and otherwise by what went wrong.
    static func status(of error: ServiceError) -> HTTPStatus {
        switch error.code {
        case .rateLimited: .tooManyRequests
        case .forbidden, .emailNotConfirmed, .termsAcceptanceRequired: .forbidden
        case .conflict: HTTPStatus(code: 409)
        case .notFound: .notFound
        case .unavailable: .serviceUnavailable
        default: .badRequest
        }
    }

    /// The hidden fields every form carries: the link token and the form token.
    func hiddenFields(purpose: FormProtection.Purpose, linkToken: String, nonce: [UInt8]) -> HTML {
        let formToken = protection.token(for: purpose, linkToken: linkToken, nonce: nonce)
        return """
            <input type="hidden" name="token" value="\(linkToken)">
            <input type="hidden" name="\(FormProtection.tokenField)" value="\(formToken)">
            """
    }
}

/// A problem with what was typed into a form (two different passwords): the form is shown
/// again with the message, and nothing changed.
struct FormProblem: Error {
    /// What to tell the visitor.
    let message: String
}

/// A page answering a request that could not go ahead.
struct PageRefusal: Error {
    /// The page to send.
    let page: WebPage

    init(_ page: WebPage) {
        self.page = page
    }
}
