import Foundation
@testable import HearthAPI
import HearthHTTP
import HearthServices
import Support
import TestFixtures

/// A browser in miniature for in-process page tests: the pages over a households harness, a
/// cookie jar of one cookie, and the fields of the last form it was shown.
final class PageVisitor {
    let harness: HouseholdsHarness
    let context: PageContext
    private(set) var cookie: String?

    init(_ harness: HouseholdsHarness) {
        self.harness = harness
        context = PageContext(
            protection: FormProtection(publicBaseURL: try! PublicBaseURL("https://hearth.example")),
            clientAddress: { _ in "192.0.2.7" }, logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()))
    }

    var confirmAddress: EmailLinkPage<ConfirmAddressForm> {
        EmailLinkPage(form: ConfirmAddressForm(accounts: harness.accounts.service), accounts: harness.accounts.service, context: context)
    }

    var resetPassword: EmailLinkPage<ResetPasswordForm> {
        EmailLinkPage(form: ResetPasswordForm(accounts: harness.accounts.service), accounts: harness.accounts.service, context: context)
    }

    var invitation: InvitationPage {
        InvitationPage(accounts: harness.accounts.service, households: harness.service, context: context)
    }

    /// A response's status and body as text.
    struct Page {
        let response: HTTPResponse
        var status: Int { response.status.code }
        var body: String { String(decoding: response.body, as: UTF8.self) }

        /// The value of the input named `name` on the page.
        func field(_ name: String) -> String? {
            guard let start = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
            return String(body[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    /// Opens `target` with `handler`, keeping any cookie it sets.
    func get(_ target: String, with handler: (HTTPRequest) async -> HTTPResponse) async -> Page {
        let page = Page(response: await handler(request(.get, target)))
        if let setCookie = page.response.headers["Set-Cookie"] { cookie = String(setCookie.split(separator: ";")[0]) }
        return page
    }

    /// Sends the form `fields` (with the token fields of `page` unless given) to `target`.
    func post(_ target: String, _ fields: [String: String], from page: Page? = nil, with handler: (HTTPRequest) async -> HTTPResponse) async -> Page {
        var fields = fields
        for name in ["token", FormProtection.tokenField] where fields[name] == nil { fields[name] = page?.field(name) }
        let body = fields.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.encode($0.value))" }.joined(separator: "&")
        var request = request(.post, target)
        request.head.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = Array(body.utf8)
        return Page(response: await handler(request))
    }

    private func request(_ method: HTTPMethod, _ target: String) -> HTTPRequest {
        var headers: HTTPHeaders = ["Sec-Fetch-Site": "same-origin"]
        if let cookie { headers.add(name: "Cookie", value: cookie) }
        return HTTPRequest(head: HTTPRequestHead(method: method, target: target, headers: headers))
    }

    /// `value` percent-encoded for a form body.
    private static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
