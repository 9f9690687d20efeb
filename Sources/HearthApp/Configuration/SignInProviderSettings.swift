import HearthServices

/// How sign-in with Google and Apple is configured (`hearth serve`): each provider's client
/// IDs, and where its signing keys come from.
struct SignInProviderSettings: Sendable {
    /// Where a provider's key set (JWKS) is read from.
    enum KeySetSource: Sendable, Equatable {
        /// Fetched from this URL (https, or http on a loopback host) and cached as the
        /// response's `Cache-Control` allows.
        case url(KeySetURL)
        /// Read once from this local file, never refetched.
        case file(String)
    }

    /// One provider's settings.
    struct Provider: Sendable {
        /// What its tokens must satisfy; disabled without client IDs.
        var configuration: IdentityProviderConfiguration
        /// Where its keys come from.
        var keySet: KeySetSource
    }

    /// Google.
    var google: Provider
    /// Apple.
    var apple: Provider

    /// Both providers, Google first.
    var all: [Provider] { [google, apple] }

    /// The options that set these values.
    static let options: [OptionSpec] = [
        .value("--google-client-ids", "IDS", environment: "HEARTH_GOOGLE_CLIENT_IDS", default: nil,
               help: "Comma-separated OAuth client IDs (web, iOS, Android) Google ID tokens may be issued to. Unset: Google sign-in is off."),
        .value("--google-jwks-url", "URL", environment: "HEARTH_GOOGLE_JWKS_URL", default: nil,
               help: "Where Google's signing keys are fetched (https; http only on a loopback host). Default: \(IdentityProviderConfiguration.googleKeySetURL)"),
        .value("--google-jwks-file", "PATH", environment: "HEARTH_GOOGLE_JWKS_FILE", default: nil,
               help: "Read Google's signing keys from this JWKS file instead of fetching them (never refreshed)."),
        .value("--apple-client-ids", "IDS", environment: "HEARTH_APPLE_CLIENT_IDS", default: nil,
               help: "Comma-separated app bundle IDs and Services IDs Apple identity tokens may be issued to. Unset: Apple sign-in is off."),
        .value("--apple-jwks-url", "URL", environment: "HEARTH_APPLE_JWKS_URL", default: nil,
               help: "Where Apple's signing keys are fetched (https; http only on a loopback host). Default: \(IdentityProviderConfiguration.appleKeySetURL)"),
        .value("--apple-jwks-file", "PATH", environment: "HEARTH_APPLE_JWKS_FILE", default: nil,
               help: "Read Apple's signing keys from this JWKS file instead of fetching them (never refreshed)."),
    ]

    /// Reads the settings from parsed options.
    /// - Throws: `UsageError` for a key-set URL that is not https (or http on a loopback
    ///   host), or a URL and a file both given for one provider.
    init(_ options: ParsedOptions) throws {
        google = try Self.provider(
            .google(clientIDs: []), prefix: "--google", defaultURL: IdentityProviderConfiguration.googleKeySetURL, options)
        apple = try Self.provider(
            .apple(clientIDs: []), prefix: "--apple", defaultURL: IdentityProviderConfiguration.appleKeySetURL, options)
    }

    private static func provider(
        _ defaults: IdentityProviderConfiguration, prefix: String, defaultURL: String, _ options: ParsedOptions
    ) throws -> Provider {
        var configuration = defaults
        configuration.clientIDs = Set((options.string("\(prefix)-client-ids") ?? "")
            .split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty })
        let urlFlag = "\(prefix)-jwks-url"
        if let file = options.string("\(prefix)-jwks-file") {
            if options.string(urlFlag) != nil {
                throw UsageError(message: "give either \(urlFlag) or \(prefix)-jwks-file, not both")
            }
            return Provider(configuration: configuration, keySet: .file(file))
        }
        let text = options.string(urlFlag) ?? defaultURL
        guard let url = KeySetURL(text) else {
            throw UsageError(message: "invalid value '\(text)' for \(urlFlag): expected an https:// URL (http:// only for 127.0.0.1, ::1 or localhost)")
        }
        return Provider(configuration: configuration, keySet: .url(url))
    }
}

/// A key-set URL as the settings accept it: `https://host[:port]/path`, or `http://` when the
/// host is a loopback address (`127.0.0.0/8`, `::1`, `localhost`), so tests and local
/// development can serve keys without a certificate while production keys always arrive
/// over TLS.
struct KeySetURL: Sendable, Equatable, CustomStringConvertible {
    /// The URL as given.
    let description: String
    /// Whether the scheme is https.
    let isSecure: Bool
    /// The host, without brackets for IPv6.
    let host: String

    /// Parses `text`; nil when it is not an acceptable key-set URL.
    init?(_ text: String) {
        let isSecure: Bool
        let rest: Substring
        if text.lowercased().hasPrefix("https://") {
            isSecure = true
            rest = text.dropFirst("https://".count)
        } else if text.lowercased().hasPrefix("http://") {
            isSecure = false
            rest = text.dropFirst("http://".count)
        } else {
            return nil
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.contains("@") else { return nil }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let end = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<end]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        guard !host.isEmpty, isSecure || Self.isLoopback(host.lowercased()) else { return nil }
        description = text
        self.isSecure = isSecure
        self.host = String(host)
    }

    private static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
