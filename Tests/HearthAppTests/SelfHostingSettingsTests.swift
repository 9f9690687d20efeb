import Foundation
@testable import HearthApp
import HearthServices
import Testing

/// The settings of the self-hosting kit: `--registration`, whether the public base URL was
/// given, the environment variables' names, and where `hearth healthcheck` connects.
@Suite struct SelfHostingSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func registrationIsOpenByDefaultAndTakesEachModeFromFlagOrEnvironment() throws {
        #expect(try settings([]).accounts.accounts.registration == .open)
        #expect(try settings(["--registration", "invite-only"]).accounts.accounts.registration == .inviteOnly)
        #expect(try settings(["--registration", "CLOSED"]).accounts.accounts.registration == .closed)
        #expect(try settings([], environment: ["HEARTH_REGISTRATION": "closed"]).accounts.accounts.registration == .closed)
        #expect(try settings(["--registration=open"], environment: ["HEARTH_REGISTRATION": "closed"]).accounts.accounts.registration == .open)
        for refused in ["", "invite_only", "invite", "none"] {
            #expect(throws: UsageError.self) { try settings(["--registration", refused]) }
        }
    }

    @Test func thePublicBaseURLCountsAsConfiguredOnlyWhenGiven() throws {
        #expect(try !settings([]).isPublicBaseURLConfigured)
        #expect(try settings(["--public-base-url", "http://localhost:8080"]).isPublicBaseURLConfigured)
        #expect(try settings([], environment: ["HEARTH_PUBLIC_BASE_URL": "https://hearth.example.org"]).isPublicBaseURLConfigured)
    }

    @Test func everyServeOptionWithAVariableIsNamedAfterItsFlagAndOnlyTestSwitchesHaveNone() {
        var withoutVariable: [String] = []
        for spec in ServeSettings.options {
            guard let variable = spec.environment else {
                withoutVariable.append(spec.flag)
                continue
            }
            #expect(variable == "HEARTH_" + spec.flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_"), "\(spec.flag)")
        }
        #expect(withoutVariable.sorted() == ["--outbound-allow-loopback", "--test-endpoints", "--ws-echo"])
    }

    @Test func theHealthCheckAsksWildcardAddressesOnTheirLoopback() {
        #expect(HealthcheckCommand.loopbackAuthority(host: "0.0.0.0", port: 8080) == "127.0.0.1:8080")
        #expect(HealthcheckCommand.loopbackAuthority(host: "::", port: 80) == "[::1]:80")
        #expect(HealthcheckCommand.loopbackAuthority(host: "192.0.2.4", port: 9000) == "192.0.2.4:9000")
        #expect(HealthcheckCommand.loopbackAuthority(host: "::1", port: 8080) == "[::1]:8080")
    }
}
