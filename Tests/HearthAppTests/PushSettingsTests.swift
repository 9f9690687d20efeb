@testable import HearthApp
import Testing

/// Web Push's options: documented defaults, flags and environment, their ranges, the VAPID
/// subject's form, and the loopback allowance that is off unless asked for.
@Suite struct PushSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> ServeSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment))
    }

    @Test func defaultsMatchTheDocumentedValues() throws {
        let push = try settings(["--mail-from", "Hearth <ops@example.org>"]).push
        #expect(push.vapidSubject == "mailto:ops@example.org", "the sender is the contact")
        #expect(push.maximumSubscriptionsPerUser == 20 && push.maximumEndpointBytes == 2048)
        #expect(push.maximumTTLSeconds == 28 * 86400 && push.requestTimeout == .seconds(30))
        #expect(!push.allowsLoopback && push.certificateAuthorityFile == nil)
    }

    @Test func flagsAndEnvironmentReachTheSettingsWithinTheirRanges() throws {
        let flags = try settings([
            "--vapid-subject", "https://hearth.example.org/contact", "--max-push-subscriptions-per-user", "1",
            "--max-push-endpoint-bytes", "8192", "--push-max-ttl", "0", "--push-timeout", "5m", "--outbound-allow-loopback",
            "--outbound-ca-file", "/etc/ca.pem",
        ]).push
        #expect(flags.vapidSubject == "https://hearth.example.org/contact" && flags.maximumSubscriptionsPerUser == 1)
        #expect(flags.maximumEndpointBytes == 8192 && flags.maximumTTLSeconds == 0 && flags.requestTimeout == .seconds(300))
        #expect(flags.allowsLoopback && flags.certificateAuthorityFile == "/etc/ca.pem")
        let environment = try settings([], environment: [
            "HEARTH_VAPID_SUBJECT": "mailto:push@example.org", "HEARTH_MAX_PUSH_SUBSCRIPTIONS_PER_USER": "1000",
            "HEARTH_MAX_PUSH_ENDPOINT_BYTES": "256", "HEARTH_PUSH_MAX_TTL": "28d", "HEARTH_PUSH_TIMEOUT": "1s",
        ]).push
        #expect(environment.vapidSubject == "mailto:push@example.org" && environment.maximumSubscriptionsPerUser == 1000)
        #expect(environment.maximumEndpointBytes == 256 && environment.maximumTTLSeconds == 28 * 86400 && environment.requestTimeout == .seconds(1))
        #expect(!environment.allowsLoopback, "the loopback allowance is a flag only")
    }

    @Test(arguments: [
        ["--vapid-subject", "ops@example.org"], ["--vapid-subject", "http://example.org"], ["--vapid-subject", "mailto:"],
        ["--max-push-subscriptions-per-user", "0"], ["--max-push-subscriptions-per-user", "1001"],
        ["--max-push-endpoint-bytes", "255"], ["--max-push-endpoint-bytes", "8193"],
        ["--push-max-ttl", "29d"], ["--push-timeout", "0"], ["--push-timeout", "301s"],
    ])
    func valuesOutOfRangeAreRefused(arguments: [String]) {
        #expect(throws: UsageError.self) { try settings(arguments) }
    }
}
