import HearthHTTP

/// Which reverse proxies `hearth serve` trusts to name the client (`--trusted-proxies`,
/// `--forwarded-header`); the result goes into the HTTP server's configuration.
enum TrustedProxySettings {
    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--trusted-proxies", "CIDRS", environment: "HEARTH_TRUSTED_PROXIES", default: nil,
               help: "Comma-separated IPv4/IPv6 addresses or CIDR blocks of reverse proxies whose forwarding header names the client, for rate limits and logs. Default: none (every client is its TCP peer)."),
        .value("--forwarded-header", "HEADER", environment: "HEARTH_FORWARDED_HEADER", default: "x-forwarded-for",
               help: "The header trusted proxies append the client to: x-forwarded-for or forwarded (RFC 7239). Only that one is read."),
    ]

    /// Reads the trusted proxies from parsed options.
    /// - Throws: `UsageError` naming an element that is not an address or block, or an unknown header.
    static func trustedProxies(_ options: ParsedOptions) throws -> TrustedProxies {
        let networks = try options.list("--trusted-proxies", expected: "IP addresses or CIDR blocks") { element in
            try IPNetwork(element)
        } ?? []
        let headers = Dictionary(uniqueKeysWithValues: ForwardingHeader.allCases.map { ($0.rawValue, $0) })
        return TrustedProxies(networks: networks, header: try options.choice("--forwarded-header", headers) ?? .xForwardedFor)
    }
}
