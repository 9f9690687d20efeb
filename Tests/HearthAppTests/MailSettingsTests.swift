import Foundation
@testable import HearthApp
import HearthServices
import SMTP
import Testing

@Suite struct MailSettingsTests {
    private func settings(_ arguments: [String], environment: [String: String] = [:]) throws -> MailSettings {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).mail
    }

    @Test func defaultsToTheLogTransportWithALocalSenderAndBaseURL() throws {
        let defaults = try settings([])
        guard case .log = defaults.transport else {
            Issue.record("expected the log transport by default")
            return
        }
        #expect(defaults.sender == (try MailAddress("hearth@localhost", displayName: "Hearth")))
        #expect(defaults.publicBaseURL.description == "http://localhost:8080")
    }

    @Test func readsTheSMTPServerFromFlagsAndEnvironmentWithThePortFollowingTheTLSMode() throws {
        let passwordFile = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)").path
        try "from-file\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: passwordFile) }
        let configured = try settings(
            ["--mail-transport", "smtp", "--smtp-host", "smtp.example.org", "--smtp-tls", "implicit", "--smtp-username", "hearth"],
            environment: [
                "HEARTH_SMTP_PASSWORD_FILE": passwordFile, "HEARTH_MAIL_FROM": "\"Hearth Home\" <noreply@example.org>",
                "HEARTH_PUBLIC_BASE_URL": "https://hearth.example.org/", "HEARTH_SMTP_CA_FILE": "/etc/hearth/ca.pem",
            ])
        guard case .smtp(let smtp) = configured.transport else {
            Issue.record("expected the SMTP transport")
            return
        }
        #expect(smtp.host == "smtp.example.org" && smtp.port == 465 && smtp.security == .implicitTLS)
        #expect(smtp.username == "hearth" && smtp.password == "from-file" && smtp.certificateAuthorityFile == "/etc/hearth/ca.pem")
        #expect(smtp.sender == (try MailAddress("noreply@example.org", displayName: "Hearth Home")))
        #expect(configured.publicBaseURL.url(for: "/x") == "https://hearth.example.org/x")
        guard case .smtp(let starttls) = try settings(["--mail-transport", "smtp", "--smtp-host", "h"]).transport else { return }
        #expect(starttls.port == 587 && starttls.security == .startTLSRequired && starttls.username == nil)
    }

    @Test func refusesIncompleteOrContradictorySMTPSettings() {
        for arguments in [
            ["--mail-transport", "smtp"],
            ["--mail-transport", "carrier-pigeon"],
            ["--mail-transport", "smtp", "--smtp-host", "h", "--smtp-username", "u"],
            ["--mail-transport", "smtp", "--smtp-host", "h", "--smtp-password", "p", "--smtp-password-file", "/dev/null"],
            ["--mail-transport", "smtp", "--smtp-host", "h", "--smtp-tls", "maybe"],
            ["--mail-from", "not an address"],
            ["--public-base-url", "hearth.example.org"],
        ] {
            #expect(throws: UsageError.self, "\(arguments)") { try settings(arguments) }
        }
    }
}
