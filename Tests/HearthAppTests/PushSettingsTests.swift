import Foundation
@testable import HearthApp
import JOSE
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
        #expect(push.maximumRetryAfter == .seconds(3600) && push.defaultNoticeTTLSeconds == 86400 && push.fcm == nil)
    }

    @Test func retryAfterCapAndNoticeTTLAreReadAtTheirEdges() throws {
        let lowest = try settings(["--push-max-retry-after", "1s", "--push-notice-ttl", "1m"]).push
        #expect(lowest.maximumRetryAfter == .seconds(1) && lowest.defaultNoticeTTLSeconds == 60)
        let highest = try settings([], environment: ["HEARTH_PUSH_MAX_RETRY_AFTER": "1d", "HEARTH_PUSH_NOTICE_TTL": "28d"]).push
        #expect(highest.maximumRetryAfter == .seconds(86400) && highest.defaultNoticeTTLSeconds == 28 * 86400)
        #expect(try settings(["--push-notice-ttl", "2d", "--push-max-ttl", "1d"]).push.defaultNoticeTTLSeconds == 86400, "within --push-max-ttl")
    }

    /// A service account key file in a temporary directory, with `fields` over a valid one's.
    private func serviceAccountFile(_ fields: [String: String] = [:]) throws -> String {
        var json = [
            "type": "service_account", "project_id": "hearth-prod", "private_key_id": "k1",
            "private_key": SigningKey.generate(.RS256).privateKeyPEM ?? "", "client_email": "hearth@hearth-prod.iam.gserviceaccount.com",
        ]
        json.merge(fields) { $1 }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sa-\(UUID().uuidString).json").path
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func fcmIsReadFromTheServiceAccountFileWithGooglesEndpointsByDefault() throws {
        let file = try serviceAccountFile()
        let fcm = try #require(try settings(["--fcm-service-account", file]).push.fcm)
        #expect(fcm.serviceAccount.projectID == "hearth-prod" && fcm.serviceAccount.privateKeyID == "k1")
        #expect(fcm.serviceAccount.clientEmail == "hearth@hearth-prod.iam.gserviceaccount.com")
        #expect(fcm.tokenEndpoint.description == "https://oauth2.googleapis.com/token")
        #expect(fcm.sendEndpoint.description == "https://fcm.googleapis.com/v1/projects/hearth-prod/messages:send")
        let configured = try #require(try settings([], environment: [
            "HEARTH_FCM_SERVICE_ACCOUNT": file, "HEARTH_FCM_TOKEN_ENDPOINT": "https://token.example.org/t",
            "HEARTH_FCM_SEND_ENDPOINT": "https://fcm.example.org/send",
        ]).push.fcm)
        #expect(configured.tokenEndpoint.description == "https://token.example.org/t" && configured.sendEndpoint.description == "https://fcm.example.org/send")
    }

    @Test func aServiceAccountFileThatIsNoneOrAnEndpointThatIsNotHTTPSIsRefused() throws {
        let refused = [
            ["--fcm-service-account", "/nonexistent/sa.json"],
            ["--fcm-service-account", try serviceAccountFile(["type": "authorized_user"])],
            ["--fcm-service-account", try serviceAccountFile(["project_id": ""])],
            ["--fcm-service-account", try serviceAccountFile(["private_key": "not a key"])],
            ["--fcm-service-account", try serviceAccountFile(["private_key": SigningKey.generate(.ES256).privateKeyPEM ?? ""])],
            ["--fcm-service-account", try serviceAccountFile(), "--fcm-send-endpoint", "http://fcm.example.org/send"],
            ["--fcm-service-account", try serviceAccountFile(), "--fcm-token-endpoint", "token"],
        ]
        for arguments in refused {
            #expect(throws: UsageError.self, "\(arguments)") { try settings(arguments) }
        }
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
        ["--push-max-retry-after", "0"], ["--push-max-retry-after", "86401s"], ["--push-notice-ttl", "59s"], ["--push-notice-ttl", "29d"],
    ])
    func valuesOutOfRangeAreRefused(arguments: [String]) {
        #expect(throws: UsageError.self) { try settings(arguments) }
    }
}
