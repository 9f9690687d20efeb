import HearthServices
import Net

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

/// A key-set URL as the settings accept it: `https://`, or `http://` when the host is a
/// loopback address (`127.0.0.0/8`, `::1`, `localhost`), so tests and local development can
/// serve keys without a certificate while production keys always arrive over TLS.
struct KeySetURL: Sendable, Equatable, CustomStringConvertible {
    /// The parsed URL.
    let url: HTTPURL

    /// Parses `text`; nil when it is not an acceptable key-set URL.
    init?(_ text: String) {
        guard let url = try? HTTPURL(text), url.isSecure || Self.isLoopback(url.host.lowercased()) else { return nil }
        self.url = url
    }

    /// The URL as given.
    var description: String { url.description }

    private static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
