import FoundationEssentials
import Net
import Support

/// The requests Hearth makes to Google, after Google's documented API: OAuth 2.0's token endpoint
/// (the authorization code with its PKCE verifier, RFC 7636; refresh tokens), the revocation
/// endpoint, and the Calendar API v3 (`calendarList`, `events`). Blocking: called from jobs and
/// from resolvers through a worker thread.
struct GoogleAPIClient: Sendable {
    let configuration: GoogleCalendarConfiguration
    let client: HTTPClient

    /// A client for `configuration`'s endpoints.
    init(configuration: GoogleCalendarConfiguration) {
        self.configuration = configuration
        client = HTTPClient(configuration: .init(
            timeout: configuration.requestTimeout, limits: .init(maxBodyBytes: configuration.maximumResponseBytes), tls: configuration.tls))
    }

    /// What the token endpoint grants.
    struct TokenGrant: Decodable, Sendable {
        var access_token: String
        var expires_in: Int?
        var refresh_token: String?
        var scope: String?
    }

    /// Exchanges an authorization `code` and its PKCE `verifier` for tokens.
    func exchange(code: String, verifier: String, at now: Date) throws(GoogleFailure) -> TokenGrant {
        try token([
            ("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier), ("redirect_uri", configuration.redirectURI),
            ("client_id", configuration.clientID), ("client_secret", configuration.clientSecret),
        ], at: now)
    }

    /// A new access token for `refreshToken`.
    func refresh(_ refreshToken: String, at now: Date) throws(GoogleFailure) -> TokenGrant {
        try token([
            ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", configuration.clientID),
            ("client_secret", configuration.clientSecret),
        ], at: now)
    }

    private func token(_ form: [(String, String)], at now: Date) throws(GoogleFailure) -> TokenGrant {
        let response = try send("POST", configuration.tokenEndpoint, body: Array(FormEncoding.encode(form).utf8), form: true)
        guard response.isSuccess else { throw GoogleFailure.answer(response, from: "Google's token endpoint", at: now) }
        guard let grant = try? JSONDecoder().decode(TokenGrant.self, from: Data(response.body)), !grant.access_token.isEmpty else {
            throw GoogleFailure(kind: .network, message: "Google's token endpoint answered no access_token")
        }
        return grant
    }

    /// Revokes `token` (a refresh token revokes its access tokens too).
    func revoke(_ token: String, at now: Date) throws(GoogleFailure) {
        let response = try send("POST", configuration.revocationEndpoint, body: Array(FormEncoding.encode([("token", token)]).utf8), form: true)
        // 400 invalid_token: it is revoked already, which is what was wanted.
        guard response.isSuccess || response.status == 400 else { throw GoogleFailure.answer(response, from: "Google's revocation endpoint", at: now) }
    }

    /// A Calendar API request: `method` on `path` (under the API's base URL, its segments encoded by
    /// the caller) with `query`, a JSON `body`, authorised by `accessToken`.
    func calendar(
        _ method: String, _ path: String, query: [(String, String)] = [], body: [UInt8]? = nil, accessToken: String, at now: Date
    ) throws(GoogleFailure) -> HTTPResponse {
        let text = configuration.calendarAPI + path + (query.isEmpty ? "" : "?" + FormEncoding.encode(query))
        let url: HTTPURL
        do {
            url = try HTTPURL(text)
        } catch {
            throw GoogleFailure(kind: .network, message: "the Calendar API's URL is not valid: \(error.detail)")
        }
        let response = try send(method, url, body: body, form: false, bearer: accessToken)
        guard response.isSuccess else { throw GoogleFailure.answer(response, from: "Google Calendar (\(method) \(path.prefix(80)))", at: now) }
        return response
    }

    private func send(_ method: String, _ url: HTTPURL, body: [UInt8]?, form: Bool, bearer: String? = nil) throws(GoogleFailure) -> HTTPResponse {
        var headers = [("Accept", "application/json")]
        if let body, !body.isEmpty { headers.append(("Content-Type", form ? "application/x-www-form-urlencoded" : "application/json")) }
        if let bearer { headers.append(("Authorization", "Bearer " + bearer)) }
        do {
            return try client.send(method: method, url: url, headers: headers, body: body)
        } catch {
            throw GoogleFailure(kind: .network, message: "Google could not be reached: \(error.detail)")
        }
    }

    /// `text` as one path segment (a calendar or event id).
    static func segment(_ text: String) -> String {
        FormEncoding.component(text).replacing("+", with: "%20")
    }
}
