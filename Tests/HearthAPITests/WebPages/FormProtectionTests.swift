@testable import HearthAPI
import HearthHTTP
import HearthServices
import Testing

/// The three checks of a form's `POST`: origin, cookie, and a token bound to the page's link.
@Suite struct FormProtectionTests {
    static let key = [UInt8](repeating: 9, count: 32)
    static let linkToken = "l1nk-T0ken_abcdefghijklmnopqrstuvwxyz012345"

    let protection = FormProtection(publicBaseURL: try! PublicBaseURL("https://Hearth.Example.org:443/app"), key: key)

    /// What a browser sends: the cookie the page set, and the form with the token it showed.
    func post(
        cookie: String?, formToken: String?, headers: [(String, String)] = [("Sec-Fetch-Site", "same-origin"), ("Origin", "null")]
    ) -> (HTTPRequest, [String: String]) {
        var fields = HTTPHeaders(headers.map { (name: $0.0, value: $0.1) })
        if let cookie { fields.add(name: "Cookie", value: "other=1; \(cookie)") }
        var form = ["token": Self.linkToken]
        form[FormProtection.tokenField] = formToken
        return (HTTPRequest(head: HTTPRequestHead(method: .post, target: "/confirm-email", headers: fields)), form)
    }

    /// The cookie (`name=value`) and form token a page opened in a new browser hands out.
    func openPage(purpose: FormProtection.Purpose = .confirmAddress, linkToken: String = linkToken) -> (cookie: String, formToken: String) {
        let (nonce, setCookie) = protection.browserNonce(of: HTTPRequest(head: HTTPRequestHead(method: .get, target: "/confirm-email")))
        let cookie = String(setCookie!.split(separator: ";")[0])
        return (cookie, protection.token(for: purpose, linkToken: linkToken, nonce: nonce))
    }

    func check(_ request: (HTTPRequest, [String: String]), purpose: FormProtection.Purpose = .confirmAddress) -> FormProtection.Refusal? {
        do {
            try protection.check(request.0, form: request.1, purpose: purpose, linkToken: Self.linkToken)
            return nil
        } catch {
            return error
        }
    }

    @Test func theFormOfThePageInTheSameBrowserPasses() {
        let page = openPage()
        #expect(check(post(cookie: page.cookie, formToken: page.formToken)) == nil)
    }

    @Test func theCookieIsHostOnlyStrictHttpOnlyAndSecureForAnHTTPSBaseURL() {
        let (_, setCookie) = protection.browserNonce(of: HTTPRequest(head: HTTPRequestHead(method: .get, target: "/")))
        #expect(setCookie?.hasPrefix("__Host-hearth-form=") == true)
        #expect(setCookie?.hasSuffix("; Path=/; HttpOnly; SameSite=Strict; Secure") == true)
        let plain = FormProtection(publicBaseURL: try! PublicBaseURL("http://127.0.0.1:8080"), key: Self.key)
        let (_, plainCookie) = plain.browserNonce(of: HTTPRequest(head: HTTPRequestHead(method: .get, target: "/")))
        #expect(plainCookie?.hasPrefix("hearth-form=") == true)
        #expect(plainCookie?.hasSuffix("; Path=/; HttpOnly; SameSite=Strict") == true)
    }

    @Test func aBrowserWithTheCookieKeepsItsNonceSoOtherOpenPagesStillWork() {
        let page = openPage()
        let again = HTTPRequest(head: HTTPRequestHead(method: .get, target: "/", headers: ["Cookie": page.cookie]))
        let (nonce, setCookie) = protection.browserNonce(of: again)
        #expect(setCookie == nil)
        #expect(protection.token(for: .confirmAddress, linkToken: Self.linkToken, nonce: nonce) == page.formToken)
    }

    @Test func aMissingOrForeignFormTokenIsRefused() {
        let page = openPage()
        #expect(check(post(cookie: page.cookie, formToken: nil)) == .tokenMismatch)
        #expect(check(post(cookie: page.cookie, formToken: "not base64url!")) == .tokenMismatch)
        #expect(check(post(cookie: page.cookie, formToken: openPage().formToken)) == .tokenMismatch, "another browser's token")
        #expect(check(post(cookie: page.cookie, formToken: openPage(linkToken: "other").formToken)) == .tokenMismatch)
        #expect(check(post(cookie: page.cookie, formToken: page.formToken), purpose: .resetPassword) == .tokenMismatch)
    }

    @Test func aTokenFromBeforeARestartNoLongerPasses() {
        let page = openPage()
        let restarted = FormProtection(publicBaseURL: try! PublicBaseURL("https://hearth.example.org"), key: [UInt8](repeating: 1, count: 32))
        let request = post(cookie: page.cookie, formToken: page.formToken)
        #expect(throws: FormProtection.Refusal.tokenMismatch) {
            try restarted.check(request.0, form: request.1, purpose: .confirmAddress, linkToken: Self.linkToken)
        }
    }

    @Test func withoutTheCookieTheFormIsRefused() {
        let page = openPage()
        #expect(check(post(cookie: nil, formToken: page.formToken)) == .missingCookie)
        #expect(check(post(cookie: "hearth-form=\(page.cookie.split(separator: "=")[1])", formToken: page.formToken)) == .missingCookie,
                "the http cookie name on an https server")
        #expect(check(post(cookie: "__Host-hearth-form=short", formToken: page.formToken)) == .missingCookie)
        #expect(check(post(cookie: "\(page.cookie); \(openPage().cookie)", formToken: page.formToken)) == .missingCookie,
                "two values are ambiguous")
    }

    @Test func anotherSiteIsRefusedByFetchMetadataOrOrigin() {
        let page = openPage()
        for site in ["cross-site", "same-site"] {
            #expect(check(post(cookie: page.cookie, formToken: page.formToken, headers: [("Sec-Fetch-Site", site)])) == .crossOrigin)
        }
        #expect(check(post(cookie: page.cookie, formToken: page.formToken, headers: [("Origin", "https://evil.example")])) == .crossOrigin)
        #expect(check(post(cookie: page.cookie, formToken: page.formToken, headers: [("Origin", "http://hearth.example.org")])) == .crossOrigin)
    }

    @Test func thePublicOriginANullOriginAndNoOriginPass() {
        let page = openPage()
        for headers in [[("Origin", "https://hearth.example.org")], [("Origin", "null")], [], [("Sec-Fetch-Site", "none")]] {
            #expect(check(post(cookie: page.cookie, formToken: page.formToken, headers: headers)) == nil, "\(headers)")
        }
    }
}
