import Net

extension PublicBaseURL {
    /// The origin of the URL as browsers send it in `Origin` (RFC 6454 §6.1): the scheme and
    /// host in lowercase, an IPv6 host in brackets, the port only when it is not the scheme's
    /// default. `https://Hearth.example.org:443/app` has the origin `https://hearth.example.org`.
    public var origin: String {
        // The text was parsed as an HTTPURL when this value was made, so parsing it again succeeds.
        guard let url = try? HTTPURL(description) else { return description }
        let scheme = url.isSecure ? "https" : "http"
        let host = url.host.contains(":") ? "[\(url.host.lowercased())]" : url.host.lowercased()
        return url.port == (url.isSecure ? 443 : 80) ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(url.port)"
    }

    /// Whether users reach the server over HTTPS, so its cookies can be `Secure`.
    public var isSecure: Bool { origin.hasPrefix("https:") }
}
