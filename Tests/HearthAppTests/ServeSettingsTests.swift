@testable import HearthApp
import HearthStore
import Support
import HearthAPI
import HearthHTTP
import Testing

@Suite struct ServeSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func theKeyDirectoryIsBesideTheDatabaseUnlessChosen() throws {
        #expect(try settings(["--database", "/var/lib/hearth/db.sqlite"]).keys.directory == "/var/lib/hearth/keys")
        #expect(try settings(["--database", "hearth.sqlite"]).keys.directory == "keys")
        #expect(try settings(["--database", "/hearth.sqlite"]).keys.directory == "/keys")
        #expect(try settings(["--key-directory", "/run/hearth-keys"]).keys.directory == "/run/hearth-keys")
        #expect(try settings([], environment: ["HEARTH_KEY_DIRECTORY": "/etc/hearth/keys"]).keys.directory == "/etc/hearth/keys")
        #expect(throws: UsageError.self) { try settings(["--key-directory", ""]) }
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let defaults = try settings([])
        #expect(defaults.http.host == "127.0.0.1")
        #expect(defaults.http.port == 8080)
        #expect(defaults.http.parser.maxRequestLineLength == 8 * 1024)
        #expect(defaults.http.parser.maxHeaderBytes == 16 * 1024)
        #expect(defaults.http.parser.maxBodyBytes == 1 << 20)
        #expect(defaults.http.parser.headerReadTimeout == .seconds(10))
        #expect(defaults.http.idleTimeout == .seconds(60))
        #expect(defaults.http.maxConnections == 20_000)
        #expect(defaults.database.path == "./data/hearth.sqlite")
        #expect(defaults.keys.directory == "./data/keys")
        #expect(defaults.database.pool.synchronous == .full)
        #expect(defaults.logLevel == .info)
        #expect(defaults.accessLog)
        #expect(defaults.autoMigrate)
        #expect(!defaults.testEndpoints)
        #expect(defaults.shutdownGracePeriod == .seconds(10))
    }

    @Test func everyLimitFlagReachesTheServerConfiguration() throws {
        let configured = try settings([
            "--max-request-line", "1KiB", "--max-header-bytes", "2KiB", "--max-body-bytes", "3MiB",
            "--header-timeout", "250ms", "--body-timeout", "2s", "--idle-timeout", "5m", "--max-connections", "99",
            "--gzip-min-bytes", "0", "--loops", "3", "--shutdown-grace", "1s", "--db-readers", "2",
            "--db-synchronous", "normal", "--db-busy-timeout", "100ms", "--log-level", "warn", "--access-log", "off",
        ])
        #expect(configured.http.parser.maxRequestLineLength == 1024)
        #expect(configured.http.parser.maxHeaderBytes == 2048)
        #expect(configured.http.parser.maxBodyBytes == 3 << 20)
        #expect(configured.http.parser.headerReadTimeout == .milliseconds(250))
        #expect(configured.http.parser.bodyReadTimeout == .seconds(2))
        #expect(configured.http.idleTimeout == .seconds(300))
        #expect(configured.http.maxConnections == 99)
        #expect(configured.http.compression.minimumBodySize == 0)
        #expect(configured.http.eventLoopCount == 3)
        #expect(configured.shutdownGracePeriod == .seconds(1))
        #expect(configured.database.pool.readerCount == 2)
        #expect(configured.database.pool.synchronous == .normal)
        #expect(configured.database.pool.busyTimeout == .milliseconds(100))
        #expect(configured.logLevel == .warning)
        #expect(!configured.accessLog)
    }

    @Test func graphQLAndRealtimeFlagsReachTheirConfigurations() throws {
        let configured = try settings([
            "--graphql-introspection", "off", "--graphql-max-depth", "7", "--graphql-max-aliases", "3",
            "--graphql-max-complexity", "500", "--graphql-max-tokens", "2000", "--graphql-max-document-bytes", "4KiB",
            "--graphql-document-cache", "10", "--graphql-persisted-queries", "20", "--heartbeat-interval", "250ms",
            "--graphql-max-selection-set-fields", "40", "--graphql-max-field-comparisons", "5000",
            "--graphql-inline-document-bytes", "2KiB", "--graphql-validation-threads", "3",
            "--graphql-document-cache-bytes", "8MiB", "--graphql-persisted-queries-bytes", "2MiB",
            "--ws-max-message-bytes", "64KiB", "--ws-max-subscriptions", "5", "--ws-ping-interval", "0",
            "--ws-init-timeout", "2s", "--ws-compression", "off", "--ws-allowed-origins", "https://a.example, https://b.example",
        ])
        #expect(!configured.graphQL.introspection)
        #expect(configured.graphQL.maxDepth == 7)
        #expect(configured.graphQL.maxAliases == 3)
        #expect(configured.graphQL.complexity.maximum == 500)
        #expect(configured.graphQL.maxTokens == 2000)
        #expect(configured.graphQL.maxDocumentBytes == 4096)
        #expect(configured.graphQL.documentCacheEntries == 10)
        #expect(configured.graphQL.persistedQueryEntries == 20)
        #expect(configured.graphQL.maxSelectionSetFields == 40)
        #expect(configured.graphQL.maxFieldComparisons == 5000)
        #expect(configured.graphQL.inlineDocumentBytes == 2048)
        #expect(configured.graphQL.validationThreads == 3)
        #expect(configured.graphQL.documentCacheBytes == 8 << 20)
        #expect(configured.graphQL.persistedQueryBytes == 2 << 20)
        #expect(configured.heartbeatInterval == .milliseconds(250))
        #expect(configured.realtime.webSocket.maxMessageSize == 64 * 1024)
        #expect(configured.realtime.webSocket.maxFrameSize == 64 * 1024)
        #expect(configured.realtime.transport.maxOperations == 5)
        #expect(configured.realtime.webSocket.pingInterval == nil)
        #expect(configured.realtime.transport.connectionInitTimeout == .seconds(2))
        #expect(configured.realtime.webSocket.compression == nil)
        #expect(configured.realtime.webSocket.allowedOrigins == ["https://a.example", "https://b.example"])
    }

    @Test func realtimeDefaultsMatchTheDocumentedValues() throws {
        let defaults = try settings([])
        #expect(defaults.graphQL.introspection)
        #expect(defaults.heartbeatInterval == .seconds(30))
        #expect(defaults.realtime.webSocket.pingInterval == .seconds(30))
        #expect(defaults.realtime.webSocket.compression != nil)
        #expect(defaults.realtime.webSocket.allowedOrigins == nil)
        #expect(defaults.realtime.transport.maxOperations == 100)
    }

    @Test func graphQLResourceDefaultsMatchTheDocumentedValues() throws {
        let defaults = try settings([]).graphQL
        #expect(defaults.maxSelectionSetFields == 200)
        #expect(defaults.maxFieldComparisons == 100_000)
        #expect(defaults.inlineDocumentBytes == 1024)
        #expect(defaults.validationThreads == max(1, HTTPServerConfiguration.onlineProcessorCount / 2))
        #expect(defaults.documentCacheEntries == 1_000)
        #expect(defaults.documentCacheBytes == 32 << 20)
        #expect(defaults.persistedQueryEntries == 10_000)
        #expect(defaults.persistedQueryBytes == 16 << 20)
    }

    @Test func rejectsValuesOutsideTheirRange() {
        #expect(throws: UsageError.self) { try settings(["--port", "70000"]) }
        #expect(throws: UsageError.self) { try settings(["--loops", "0"]) }
        #expect(throws: UsageError.self) { try settings(["--db-synchronous", "sometimes"]) }
        #expect(throws: UsageError.self) { try settings(["--log-level", "chatty"]) }
        #expect(throws: UsageError.self) { try settings(["--access-log", "maybe"]) }
        #expect(throws: UsageError.self) { try settings(["--header-timeout", "0ms"]) }
        #expect(throws: UsageError.self) { try settings(["--database", ""]) }
    }
}

@Suite struct SignInProviderSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> SignInProviderSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).signInProviders
    }

    @Test func providersAreOffUntilClientIDsAreGivenAndFetchFromTheProvidersByDefault() throws {
        let defaults = try settings([])
        #expect(!defaults.google.configuration.isEnabled && !defaults.apple.configuration.isEnabled)
        #expect(defaults.google.keySet == .url(KeySetURL("https://www.googleapis.com/oauth2/v3/certs")!))
        #expect(defaults.apple.keySet == .url(KeySetURL("https://appleid.apple.com/auth/keys")!))
    }

    @Test func clientIDsAndKeySetsComeFromFlagsAndEnvironment() throws {
        let configured = try settings(
            ["--google-client-ids", "web.apps, ios.apps ,", "--google-jwks-url", "http://127.0.0.1:9999/certs"],
            environment: ["HEARTH_APPLE_CLIENT_IDS": "com.example.hearth", "HEARTH_APPLE_JWKS_FILE": "/etc/hearth/apple.json"])
        #expect(configured.google.configuration.clientIDs == ["web.apps", "ios.apps"])
        #expect(configured.google.keySet == .url(KeySetURL("http://127.0.0.1:9999/certs")!))
        #expect(configured.apple.configuration.clientIDs == ["com.example.hearth"])
        #expect(configured.apple.configuration.requiresNonce)
        #expect(configured.apple.keySet == .file("/etc/hearth/apple.json"))
    }

    @Test(arguments: ["http://keys.example.com/certs", "ftp://127.0.0.1/keys", "https://", "http://127.0.0.1.example.com/k", "https://user@host/k"])
    func refusesKeySetURLsThatAreNotHTTPSOrLoopback(url: String) {
        #expect(throws: UsageError.self) { try settings(["--google-jwks-url", url]) }
    }

    @Test(arguments: ["http://127.0.0.1:8080/certs", "http://[::1]:8080/certs", "http://localhost/certs", "https://keys.example.com/certs"])
    func acceptsHTTPSAndLoopbackHTTP(url: String) throws {
        #expect(try settings(["--apple-jwks-url", url]).apple.keySet == .url(KeySetURL(url)!))
    }

    @Test func refusesAURLAndAFileForOneProvider() {
        #expect(throws: UsageError.self) {
            try settings(["--google-jwks-url", "https://keys.example.com/certs", "--google-jwks-file", "keys.json"])
        }
    }
}

@Suite struct UploadSettingsTests {
    private func settings(_ arguments: [String]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: [:]))
    }

    @Test func uploadsGetTwoMebibytesWhileOtherBodiesKeepOne() throws {
        let defaults = try settings([])
        #expect(defaults.http.parser.maxBodyBytes == 1 << 20)
        #expect(defaults.http.parser.bodyLimitRules == [
            BodyLimitRule(method: .post, path: "/graphql", mediaType: "multipart/form-data", maxBodyBytes: 2 << 20),
            BodyLimitRule(method: .put, path: "/avatar", maxBodyBytes: 2 << 20),
            BodyLimitRule(method: .post, path: "/import/loop", maxBodyBytes: 2 << 20),
        ])
        #expect(defaults.uploadLimits.maxPartBytes == 2 << 20)
        #expect(defaults.accounts.accounts.avatarRules.maximumBytes == 1 << 20)
        #expect(defaults.accounts.accounts.avatarRules.maximumWidth == 4096)
    }

    @Test func theUploadAndAvatarFlagsReachTheirLimits() throws {
        let configured = try settings(["--max-upload-bytes", "5MiB", "--avatar-max-bytes", "3MiB", "--avatar-max-dimension", "512"])
        #expect(configured.http.parser.bodyLimitRules.filter { $0.path != "/import/loop" }.allSatisfy { $0.maxBodyBytes == 5 << 20 })
        #expect(configured.uploadLimits.maxPartBytes == 5 << 20)
        let rules = configured.accounts.accounts.avatarRules
        #expect(rules.maximumBytes == 3 << 20 && rules.maximumWidth == 512 && rules.maximumHeight == 512)
    }
}

@Suite struct AccountSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func refreshLimitsAndTheReauthenticationWindowDefaultToTheDocumentedValues() throws {
        let accounts = try settings([]).accounts.accounts
        #expect(accounts.reauthenticationWindow == .seconds(300))
        #expect(accounts.failedRefreshesPerAddress == AccountSettings.hourlyRule(total: 330))
    }

    @Test func refreshLimitsAndTheReauthenticationWindowReachTheConfiguration() throws {
        let flags = try settings(["--refresh-failures-per-address", "20", "--reauthentication-window", "90s"]).accounts.accounts
        #expect(flags.failedRefreshesPerAddress.capacity == 2 && flags.failedRefreshesPerAddress.refillPerSecond == 18.0 / 3600)
        #expect(flags.reauthenticationWindow == .seconds(90))
        let environment = try settings([], environment: ["HEARTH_REAUTHENTICATION_WINDOW": "0", "HEARTH_REFRESH_FAILURES_PER_ADDRESS": "10"])
        #expect(environment.accounts.accounts.reauthenticationWindow == .zero)
        #expect(environment.accounts.accounts.failedRefreshesPerAddress.capacity == 1)
        #expect(throws: (any Error).self) { try settings(["--reauthentication-window", "2d"]) }
        #expect(throws: (any Error).self) { try settings(["--refresh-failures-per-address", "0"]) }
    }

    @Test func theMailLimitPerAddressIsABurstOfTenThenSixtyAnHourUnlessConfiguredWithinItsRange() throws {
        #expect(try settings([]).accounts.accounts.mailRequestsPerAddress == .perInterval(60, seconds: 3600, burst: 10))
        let flag = try settings(["--mail-requests-per-address", "20"]).accounts.accounts.mailRequestsPerAddress
        #expect(flag.capacity == 2 && flag.refillPerSecond == 18.0 / 3600)
        let environment = try settings([], environment: ["HEARTH_MAIL_REQUESTS_PER_ADDRESS": "1000000"]).accounts.accounts
        #expect(environment.mailRequestsPerAddress == AccountSettings.hourlyRule(total: 1_000_000))
        #expect(throws: (any Error).self) { try settings(["--mail-requests-per-address", "0"]) }
        #expect(throws: (any Error).self) { try settings(["--mail-requests-per-address", "1000001"]) }
    }

    @Test func theSessionLimitPerUserIsFiftyUnlessConfiguredWithinItsRange() throws {
        #expect(try settings([]).accounts.accounts.maximumSessionsPerUser == 50)
        #expect(try settings(["--max-sessions-per-user", "1"]).accounts.accounts.maximumSessionsPerUser == 1)
        #expect(try settings([], environment: ["HEARTH_MAX_SESSIONS_PER_USER": "10000"]).accounts.accounts.maximumSessionsPerUser == 10_000)
        #expect(throws: (any Error).self) { try settings(["--max-sessions-per-user", "0"]) }
        #expect(throws: (any Error).self) { try settings(["--max-sessions-per-user", "10001"]) }
    }
}

@Suite struct WidgetSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func widgetLimitsDefaultToTheDocumentedValuesAndAreTakenWithinTheirRanges() throws {
        let defaults = try settings([]).widgets
        #expect(defaults.maximumEntries == 50 && defaults.maximumTokens == 10 && defaults.lastUseInterval == .seconds(300))
        let edges = try settings(["--widget-feed-max-entries", "1", "--widget-max-tokens", "100", "--widget-token-touch-interval", "1d"]).widgets
        #expect(edges.maximumEntries == 1 && edges.maximumTokens == 100 && edges.lastUseInterval == .seconds(86_400))
        #expect(try settings(["--widget-token-touch-interval", "0s"]).widgets.lastUseInterval == .zero)
        let environment = ["HEARTH_WIDGET_FEED_MAX_ENTRIES": "500", "HEARTH_WIDGET_MAX_TOKENS": "1"]
        let fromEnvironment = try settings([], environment: environment).widgets
        #expect(fromEnvironment.maximumEntries == 500 && fromEnvironment.maximumTokens == 1)
        for outside in [
            ["--widget-feed-max-entries", "0"], ["--widget-feed-max-entries", "501"], ["--widget-max-tokens", "0"], ["--widget-max-tokens", "101"],
            ["--widget-token-touch-interval", "86401s"], ["--widget-token-touch-interval", "soon"],
        ] {
            #expect(throws: UsageError.self, "\(outside)") { try settings(outside) }
        }
    }
}
