import HearthHTTP

/// The pages' stylesheet, served at `/pages/style.css`: readable on a phone, large touch
/// targets, visible focus, and enough contrast (WCAG AA) for text and buttons.
enum PageStyle {
    /// Where it is served.
    static let path = "/pages/style.css"
    /// How pages link to it: relative, so a public base URL with a path still finds it.
    static let relativePath = "pages/style.css"

    /// The stylesheet.
    static let css = """
        body{margin:0;padding:1rem;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f2ee;color:#1c1c1c}
        main{max-width:34rem;margin:1rem auto;padding:1.25rem 1.5rem;background:#fff;border-radius:.5rem;box-shadow:0 1px 3px rgba(0,0,0,.2)}
        h1{font-size:1.5rem;line-height:1.25;margin:.25rem 0 1rem}
        h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
        dt{font-weight:600}
        dd{margin:0 0 .5rem}
        label{display:block;font-weight:600;margin-top:1rem}
        input{display:block;width:100%;box-sizing:border-box;margin-top:.25rem;padding:.6rem;font:inherit;border:1px solid #767676;border-radius:.3rem}
        button,.button{display:inline-block;margin:1.25rem .5rem 0 0;padding:.7rem 1.2rem;font:inherit;font-weight:600;color:#fff;background:#a33f00;border:0;border-radius:.3rem;text-decoration:none;cursor:pointer}
        button.secondary{background:#4a4a4a}
        :focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}
        .message{padding:.6rem .8rem;border-left:.3rem solid #1b7a3a;background:#e7f4eb}
        .message.error{border-color:#b3001b;background:#fdebee}
        .hint{color:#4d4d4d;font-size:.9rem}

        """

    /// The response to `GET /pages/style.css`: the same bytes for a day in any cache.
    static let response = HTTPResponse(
        status: .ok,
        headers: ["Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"],
        body: Array(css.utf8))
}
