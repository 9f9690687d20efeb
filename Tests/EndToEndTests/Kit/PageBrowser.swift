import Foundation
import HearthHTTP

/// A browser reduced to what the pages need, over raw HTTP to the real server: it keeps the
/// cookie a page sets, reads the hidden fields of the page it was shown, and sends forms as a
/// browser does (`Sec-Fetch-Site: same-origin`; `Origin: null` under `Referrer-Policy: no-referrer`).
struct PageBrowser {
    let server: ServerProcess
    private(set) var cookie: String?
    /// The last page shown.
    private(set) var page: HTTPTestClient.Response?

    init(_ server: ServerProcess) {
        self.server = server
    }

    /// Opens `target`, keeping any cookie it sets.
    @discardableResult
    mutating func open(_ target: String) throws -> HTTPTestClient.Response {
        let response = try server.get(target, headers: cookie.map { "Cookie: \($0)\r\n" } ?? "")
        if let setCookie = response.headers["Set-Cookie"] { cookie = String(setCookie.split(separator: ";")[0]) }
        page = response
        return response
    }

    /// The value of the input named `name` on the last page.
    func field(_ name: String) -> String? {
        guard let text = page?.text, let start = text.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return String(text[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Sends `fields` to `path`, with the last page's `token` and `form_token` unless `fields`
    /// gives them (`""` leaves one out), the cookie unless `withCookie` is false, and the
    /// headers a browser sends for a form on the same origin unless `headers` replaces them.
    func submit(
        _ path: String, _ fields: [String: String] = [:], withCookie: Bool = true,
        headers: String = "Sec-Fetch-Site: same-origin\r\nOrigin: null\r\n"
    ) throws -> HTTPTestClient.Response {
        var fields = fields
        for name in ["token", "form_token"] where fields[name] == nil { fields[name] = field(name) }
        let body = fields.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        var head = "POST \(path) HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\n"
        head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\(headers)"
        if withCookie, let cookie { head += "Cookie: \(cookie)\r\n" }
        let client = try server.connect()
        defer { client.close() }
        try client.send(head + "\r\n" + body)
        return try client.readResponse()
    }
}
