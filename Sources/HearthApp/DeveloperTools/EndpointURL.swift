/// The URL of a GraphQL endpoint as the developer tools accept it:
/// `http://host[:port][/path][?query]`, the host a name, an IPv4 address or a bracketed IPv6
/// address.
struct EndpointURL: Sendable, Hashable, CustomStringConvertible {
    /// The host as given, without brackets for IPv6.
    let host: String
    /// The TCP port; 80 when the URL has none.
    let port: Int
    /// The request target: path and query, at least `/`.
    let target: String
    /// The URL as the user wrote it, for messages.
    let description: String

    /// Parses `text`.
    /// - Throws: `UsageError` naming what is wrong: another scheme than `http`, no host, a bad port.
    init(_ text: String) throws(UsageError) {
        description = text
        guard text.lowercased().hasPrefix("http://") else {
            if text.lowercased().hasPrefix("https://") {
                throw UsageError(message: "invalid URL '\(text)': https is not supported yet; use http:// (for example behind a local TLS-terminating proxy)")
            }
            throw UsageError(message: "invalid URL '\(text)': expected http://HOST[:PORT]/PATH")
        }
        let rest = text.dropFirst("http://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        target = path.isEmpty ? "/" : (path.first == "?" ? "/" + path : String(path))

        var hostPart = Substring(authority)
        var portPart: Substring?
        if hostPart.first == "[" {
            guard let close = hostPart.firstIndex(of: "]") else { throw UsageError(message: "invalid URL '\(text)': unterminated IPv6 address") }
            let after = hostPart[hostPart.index(after: close)...]
            if after.first == ":" { portPart = after.dropFirst() } else if !after.isEmpty {
                throw UsageError(message: "invalid URL '\(text)': unexpected text after the IPv6 address")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty, !hostPart.contains("@") else {
            throw UsageError(message: "invalid URL '\(text)': expected a host after http://")
        }
        host = String(hostPart)
        if let portPart {
            guard let value = Int(portPart), (1...65535).contains(value) else {
                throw UsageError(message: "invalid URL '\(text)': the port must be a number from 1 to 65535")
            }
            port = value
        } else {
            port = 80
        }
    }

    /// The `Host` header: the host, bracketed if IPv6, with the port unless it is 80.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }
}
