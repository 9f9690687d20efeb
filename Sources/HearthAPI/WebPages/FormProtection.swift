import HearthHTTP
import HearthServices
import Support

/// Protection of the pages' forms against cross-site request forgery: three independent
/// checks, each enough against a forged `POST` from another site in current browsers.
///
/// 1. **A form token bound to the link.** Each form carries
///    `HMAC-SHA256(key, purpose ‖ SHA-256(link token) ‖ browser nonce)`, base64url, in a hidden
///    field. The key is random per process and never stored, so a token cannot be made without
///    the server, serves only the page (and link) it was issued for, and stops working when the
///    server restarts (the page then asks to reopen the link).
/// 2. **A double-submit cookie.** The browser nonce in the token comes from a cookie the page
///    sets (`HttpOnly`, `SameSite=Strict`, `Path=/`; `Secure` and the `__Host-` prefix when the
///    public base URL is `https`). A cross-site `POST` carries no `SameSite=Strict` cookie, and
///    a token issued to another browser does not match this browser's nonce.
/// 3. **The origin.** `Sec-Fetch-Site` (sent by every current browser) must be `same-origin`
///    (or `none`, a user's own navigation); an `Origin` other than `null` must be the public
///    base URL's origin. The pages send `Referrer-Policy: no-referrer`, under which browsers
///    send `Origin: null` with the form's own `POST` (Fetch standard, "append a request
///    `Origin` header") and no `Referer`: so `null` and an absent `Origin` are not refused
///    here, and a client that sends neither header relies on checks 1 and 2.
///
/// A `POST` that fails any check is refused with 403 and changes nothing.
struct FormProtection: Sendable {
    /// What a form is for: part of what its token signs, so one page's token serves no other.
    enum Purpose: String, Sendable {
        case confirmAddress = "confirm-email"
        case resetPassword = "reset-password"
        case invitation
    }

    /// Why a `POST` was refused.
    enum Refusal: Error, Equatable {
        /// `Sec-Fetch-Site` or `Origin` says the request came from another site.
        case crossOrigin
        /// The browser sent no (well-formed) form cookie: cookies are off, or the request did not
        /// come from the page.
        case missingCookie
        /// The form token is missing or does not match this page, link and browser.
        case tokenMismatch
    }

    /// The hidden field carrying the form token.
    static let tokenField = "form_token"
    /// The bytes of a browser nonce.
    static let nonceLength = 16

    /// The name of the cookie holding the browser nonce.
    let cookieName: String
    private let key: [UInt8]
    private let origin: String
    private let cookieAttributes: String

    /// The protection of forms served at `publicBaseURL`; `key` signs form tokens (random by
    /// default; tests pass their own).
    init(publicBaseURL: PublicBaseURL, key: [UInt8] = SecureRandom.bytes(32)) {
        self.key = key
        origin = publicBaseURL.origin
        // `__Host-` makes browsers refuse the cookie unless it is Secure, host-only and for `/`:
        // no sibling subdomain can plant a nonce of its choosing.
        cookieName = publicBaseURL.isSecure ? "__Host-hearth-form" : "hearth-form"
        cookieAttributes = "Path=/; HttpOnly; SameSite=Strict" + (publicBaseURL.isSecure ? "; Secure" : "")
    }

    /// The browser nonce of `request`'s form cookie, or a new one with the `Set-Cookie` value
    /// that gives it to the browser (a session cookie: it ends with the browser session).
    /// Reusing a present nonce keeps the forms of other open pages working.
    func browserNonce(of request: HTTPRequest) -> (nonce: [UInt8], setCookie: String?) {
        if let nonce = cookieNonce(of: request) { return (nonce, nil) }
        let nonce = SecureRandom.bytes(Self.nonceLength)
        return (nonce, "\(cookieName)=\(Base64URL.encode(nonce)); \(cookieAttributes)")
    }

    /// The form token of a page for `purpose` opened with `linkToken` in the browser holding `nonce`.
    func token(for purpose: Purpose, linkToken: String, nonce: [UInt8]) -> String {
        // Every part but the purpose has a fixed length, and the purpose ends with a 0 byte: no two
        // different inputs share a message.
        let message = Array(purpose.rawValue.utf8) + [0] + SHA256.digest(Array(linkToken.utf8)) + nonce
        return Base64URL.encode(HMACSHA256.authenticationCode(key: key, message: message))
    }

    /// Checks a form's `POST`: the origin, the cookie, and the form token in `form` against
    /// `purpose` and `linkToken`.
    /// - Throws: ``Refusal``.
    func check(_ request: HTTPRequest, form: [String: String], purpose: Purpose, linkToken: String) throws(Refusal) {
        if let site = request.headers["Sec-Fetch-Site"], site != "same-origin", site != "none" { throw .crossOrigin }
        if let sender = request.headers["Origin"], sender != "null", sender.lowercased() != origin { throw .crossOrigin }
        guard let nonce = cookieNonce(of: request) else { throw .missingCookie }
        guard let presented = form[Self.tokenField].flatMap(Base64URL.decode),
              let expected = Base64URL.decode(token(for: purpose, linkToken: linkToken, nonce: nonce)),
              ConstantTime.equals(presented, expected)
        else { throw .tokenMismatch }
    }

    /// The nonce in `request`'s form cookie, when there is exactly one well-formed value.
    private func cookieNonce(of request: HTTPRequest) -> [UInt8]? {
        var found: [UInt8]?
        for header in request.headers.values(name: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].trimmingSpaces() == cookieName else { continue }
                // Two values (one planted by another path or host) are ambiguous: use neither.
                guard found == nil, let nonce = Base64URL.decode(parts[1].trimmingSpaces()), nonce.count == Self.nonceLength else {
                    return nil
                }
                found = nonce
            }
        }
        return found
    }
}
