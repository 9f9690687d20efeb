/// One hop named in a forwarding header: an address, or a hop that does not show its address
/// (`unknown`, or an RFC 7239 obfuscated identifier such as `_hidden`).
enum ForwardedNode: Sendable, Equatable {
    /// A hop with a known address.
    case address(IPAddress)
    /// A hop whose address the proxy did not know or chose to hide.
    case hidden

    /// Parses a node (RFC 7239 §6): `192.0.2.1`, `192.0.2.1:8080`, `[2001:db8::1]`,
    /// `[2001:db8::1]:4711`, `unknown`, `_obfuscated`, with an optional obfuscated port
    /// (`_port`) as well. With `allowsBareIPv6`, an unbracketed IPv6 address too, as
    /// `X-Forwarded-For` writes them. Returns nil for anything else.
    init?(_ text: Substring, allowsBareIPv6: Bool) {
        var host = text
        var port: Substring?
        if text.first == "[" {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { return nil }
                port = rest.dropFirst()
            }
            guard host.contains(":") else { return nil }  // brackets hold IPv6 only
        } else if !(allowsBareIPv6 && text.filter({ $0 == ":" }).count > 1), let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        if let port, !Self.isPort(port) { return nil }
        if host.lowercased() == "unknown" || Self.isObfuscated(host) {
            self = .hidden
            return
        }
        guard let address = IPAddress(host) else { return nil }
        self = .address(address)
    }

    /// `1*5DIGIT` or an obfuscated port.
    private static func isPort(_ text: Substring) -> Bool {
        if isObfuscated(text) { return true }
        return (1...5).contains(text.utf8.count) && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// `"_" 1*( ALPHA / DIGIT / "." / "_" / "-" )`.
    private static func isObfuscated(_ text: Substring) -> Bool {
        text.utf8.first == UInt8(ascii: "_") && text.utf8.count > 1 && text.utf8.dropFirst().allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
