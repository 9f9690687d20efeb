/// An `http://` or `https://` URL as the ``HTTPClient`` uses it:
/// `scheme://host[:port][/path][?query]`, the host a name, an IPv4 address or a bracketed
/// IPv6 address. User information and fragments are not accepted.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    /// Whether the connection uses TLS (`https`).
    public let isSecure: Bool
    /// The host as given, without brackets for IPv6.
    public let host: String
    /// The TCP port; 80 or 443 when the URL has none.
    public let port: Int
    /// The request target: path and query, at least `/`.
    public let target: String
    /// The URL as written.
    public let description: String

    /// Parses `text`.
    /// - Throws: `NetworkError` `.invalidURL` naming what is wrong: another scheme, no host,
    ///   user information, a bad port.
    public init(_ text: String) throws(NetworkError) {
        description = text
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("http://") {
            isSecure = false
            rest = text.dropFirst("http://".count)
        } else if lowered.hasPrefix("https://") {
            isSecure = true
            rest = text.dropFirst("https://".count)
        } else {
            throw NetworkError(code: .invalidURL, peer: text, detail: "expected http:// or https://")
        }
        guard !text.contains(where: { $0 == " " || $0 == "\r" || $0 == "\n" || $0 == "#" }) else {
            throw NetworkError(code: .invalidURL, peer: text, detail: "spaces, line breaks and fragments are not allowed")
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let path = rest[authorityEnd...]
        target = path.isEmpty ? "/" : (path.first == "?" ? "/" + path : String(path))
        var hostPart = rest[..<authorityEnd]
        var portPart: Substring?
        if hostPart.first == "[" {
            guard let close = hostPart.firstIndex(of: "]") else {
                throw NetworkError(code: .invalidURL, peer: text, detail: "unterminated IPv6 address")
            }
            let after = hostPart[hostPart.index(after: close)...]
            if after.first == ":" {
                portPart = after.dropFirst()
            } else if !after.isEmpty {
                throw NetworkError(code: .invalidURL, peer: text, detail: "unexpected text after the IPv6 address")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else {
            throw NetworkError(code: .invalidURL, peer: text, detail: "expected a host after the scheme")
        }
        host = String(hostPart)
        if let portPart {
            guard let value = Int(portPart), (1...65535).contains(value) else {
                throw NetworkError(code: .invalidURL, peer: text, detail: "the port must be a number from 1 to 65535")
            }
            port = value
        } else {
            port = isSecure ? 443 : 80
        }
    }

    /// The `Host` header: the host, bracketed if IPv6, with the port unless it is the scheme's default.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }
}
