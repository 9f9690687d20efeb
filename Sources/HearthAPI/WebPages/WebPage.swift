import HearthHTTP

/// One server-rendered page: its status, title and the content of its `<main>`, rendered as a
/// complete HTML document with the headers every page carries.
///
/// The document works without JavaScript and carries none: `lang`, a viewport for phones and
/// the small stylesheet ``PageStyle`` (a separate file, so the policy needs no inline style).
/// Every link and form action is relative, so the pages also work under a public base URL
/// with a path (`https://example.org/hearth`) behind a proxy that strips it.
struct WebPage: Sendable {
    /// The response status.
    var status: HTTPStatus = .ok
    /// The title, also the page's `<h1>`.
    var title: String
    /// What follows the heading.
    var content: HTML
    /// A `Set-Cookie` value to send (the form protection's cookie), if any.
    var setCookie: String?
    /// Seconds for `Retry-After`, on a rate-limited answer.
    var retryAfter: Int?

    /// The headers of every page:
    /// - `Content-Security-Policy`: nothing may load but the stylesheet from this origin; no
    ///   script at all, forms post only to this origin, no framing (clickjacking), no `<base>`;
    /// - `Referrer-Policy: no-referrer`: the link's token in the address never leaves in a
    ///   `Referer`, not even to this server's own stylesheet;
    /// - `Cache-Control: no-store`: a page showing a token or a form token is kept by no cache;
    /// - `X-Content-Type-Options: nosniff`, and `X-Frame-Options: DENY` for browsers that
    ///   predate `frame-ancestors`.
    static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
    ]

    /// The complete document.
    var document: HTML {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="robots" content="noindex">
        <title>\(title) · Hearth</title>
        <link rel="stylesheet" href="\(PageStyle.relativePath)">
        </head>
        <body>
        <main>
        <h1>\(title)</h1>
        \(content)
        </main>
        </body>
        </html>

        """
    }

    /// The page as a response.
    var response: HTTPResponse {
        var headers = HTTPHeaders([(name: "Content-Type", value: "text/html; charset=utf-8")] + Self.securityHeaders)
        if let setCookie { headers.add(name: "Set-Cookie", value: setCookie) }
        if let retryAfter { headers.add(name: "Retry-After", value: String(retryAfter)) }
        return HTTPResponse(status: status, headers: headers, body: Array(document.description.utf8))
    }
}
