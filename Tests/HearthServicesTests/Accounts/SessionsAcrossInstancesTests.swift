import FoundationEssentials
import HearthServices
import HearthStore
import Support
import TestFixtures
import Testing

/// Two server instances on one database, each with its own session directory: a client's
/// requests may reach either.
@Suite struct SessionsAcrossInstancesTests {
    private func otherInstance(_ harness: AccountsHarness) throws -> AccountService {
        AccountService(
            configuration: harness.service.configuration, pool: harness.pool, accessTokens: harness.service.accessTokens,
            mail: AccountMail(outbox: harness.mail, baseURL: try PublicBaseURL("https://hearth.example"), links: .forTests),
            commonPasswords: [], logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()), clock: harness.clock)
    }

    @Test func aTokenRotatedOnAnotherInstanceIsAcceptedAndTheOneItReplacedIsNot() async throws {
        try await AccountsHarness.with { harness in
            let other = try otherInstance(harness)
            let (_, first) = try await harness.register()
            // The other instance caches the session at its first generation.
            #expect(try await other.authenticate(accessToken: first.accessToken).sessionID == first.session.id)
            harness.clock.advance(seconds: 60)
            let second = try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1")
            // Before any notification could reach it, the newer token makes it read the session again.
            #expect(try await other.authenticate(accessToken: second.accessToken).sessionID == first.session.id)
            let superseded = await #expect(throws: ServiceError.self) {
                try await other.authenticate(accessToken: first.accessToken)
            }
            #expect(superseded?.reason == .tokenSuperseded)
        }
    }
}
