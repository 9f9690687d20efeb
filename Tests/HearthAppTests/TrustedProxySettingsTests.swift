@testable import HearthApp
import HearthHTTP
import Testing

@Suite struct TrustedProxySettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func trustsNoProxyByDefault() throws {
        let defaults = try settings([])
        #expect(defaults.http.trustedProxies.networks.isEmpty)
        #expect(defaults.http.trustedProxies.header == .xForwardedFor)
        #expect(defaults.http.lingerTimeout == .seconds(2))
        #expect(defaults.http.maxLingeringConnections == 1024)
    }

    @Test func readsBlocksOfBothFamiliesFromTheFlagOrTheEnvironment() throws {
        let flagged = try settings(["--trusted-proxies", "10.0.0.0/8, 2001:db8::/32,192.0.2.7", "--forwarded-header", "Forwarded"])
        #expect(flagged.http.trustedProxies.networks.map(\.description) == ["10.0.0.0/8", "2001:db8::/32", "192.0.2.7/32"])
        #expect(flagged.http.trustedProxies.header == .forwarded)
        let fromEnvironment = try settings([], environment: ["HEARTH_TRUSTED_PROXIES": "::1"])
        #expect(fromEnvironment.http.trustedProxies.networks.map(\.description) == ["::1/128"])
    }

    @Test func namesTheElementThatIsNotABlock() {
        #expect {
            try settings(["--trusted-proxies", "10.0.0.0/8,10.0.0.1/8"])
        } throws: { error in
            let message = (error as? UsageError)?.message ?? ""
            return message.contains("'10.0.0.1/8'") && message.contains("--trusted-proxies") && message.contains("10.0.0.0")
        }
        #expect(throws: UsageError.self) { try settings(["--trusted-proxies", "proxy.internal"]) }
        #expect(throws: UsageError.self) { try settings(["--forwarded-header", "x-real-ip"]) }
    }

    @Test func lingeringLimitsReachTheServerConfiguration() throws {
        let configured = try settings(["--linger-timeout", "500ms", "--max-lingering-connections", "0"])
        #expect(configured.http.lingerTimeout == .milliseconds(500))
        #expect(configured.http.maxLingeringConnections == 0)
        #expect(throws: UsageError.self) { try settings(["--linger-timeout", "61s"]) }
    }
}
