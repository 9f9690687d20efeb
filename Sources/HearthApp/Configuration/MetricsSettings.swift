import FoundationEssentials
import HearthHTTP

/// Who may read `/metrics` (`--metrics-access`, `--metrics-token-file`); see ``MetricsAccess``.
enum MetricsSettings {
    /// The shortest token accepted: 16 bytes, as from `openssl rand -hex 16` (which gives 32).
    static let minimumTokenLength = 16

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--metrics-access", "MODE", environment: "HEARTH_METRICS_ACCESS", default: "loopback",
               help: "Who may read /metrics: loopback (TCP peers on 127.0.0.0/8 or ::1, not requests a trusted proxy forwards), token (Authorization: Bearer with the token of --metrics-token-file) or public."),
        .value("--metrics-token-file", "PATH", environment: "HEARTH_METRICS_TOKEN_FILE", default: nil,
               help: "File holding the bearer token /metrics requires with --metrics-access token (at least 16 characters, no whitespace)."),
    ]

    /// Reads the access rule.
    /// - Parameter trustedProxies: The server's, which `loopback` needs to refuse forwarded requests.
    /// - Throws: `UsageError` for an unknown mode, `token` without a readable, long enough token
    ///   file, or a token file given with another mode (it would protect nothing).
    static func access(_ options: ParsedOptions, trustedProxies: TrustedProxies) throws -> MetricsAccess {
        let modes = Dictionary(uniqueKeysWithValues: MetricsAccess.Mode.allCases.map { ($0.rawValue, $0) })
        let mode = try options.choice("--metrics-access", modes) ?? .loopback
        let path = options.string("--metrics-token-file").flatMap { $0.isEmpty ? nil : $0 }
        switch mode {
        case .loopback, .public:
            guard path == nil else {
                throw UsageError(message: "--metrics-token-file is set but --metrics-access is \(mode.rawValue); use --metrics-access token")
            }
            return mode == .public ? .everyone : .loopback(trustedProxies: trustedProxies)
        case .token:
            guard let path else { throw UsageError(message: "--metrics-access token needs --metrics-token-file") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError(message: "cannot read --metrics-token-file \(path)")
            }
            var token = String(decoding: data, as: UTF8.self)
            while token.hasSuffix("\n") || token.hasSuffix("\r") { token.removeLast() }
            guard token.utf8.count >= minimumTokenLength, token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw UsageError(message: "--metrics-token-file \(path) must hold a token of at least \(minimumTokenLength) printable characters without whitespace")
            }
            return .token(token)
        }
    }
}
