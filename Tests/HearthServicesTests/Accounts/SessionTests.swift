import Support
import TestFixtures
import FoundationEssentials
import HearthServices
import HearthStore
import Testing

struct SessionTests {
    @Test func wrongPasswordAndUnknownAddressGetTheSameAnswer() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            let wrongPassword = await #expect(throws: ServiceError.self) { try await harness.login(password: "not the password") }
            let unknown = await #expect(throws: ServiceError.self) { try await harness.login("nobody") }
            #expect(wrongPassword == ServiceError.invalidCredentials)
            #expect(unknown == ServiceError.invalidCredentials)
        }
    }

    @Test func refreshRotatesBothTokens() async throws {
        try await AccountsHarness.with { harness in
            let (_, first) = try await harness.register()
            harness.clock.advance(seconds: 60)
            let second = try await harness.service.refresh(refreshToken: first.refreshToken)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.session.id == first.session.id)
            let superseded = await #expect(throws: ServiceError.self) {
                try await harness.service.authenticate(accessToken: first.accessToken)
            }
            #expect(superseded?.reason == .tokenSuperseded)
            #expect(try await harness.service.authenticate(accessToken: second.accessToken).sessionID == first.session.id)
        }
    }

    @Test func aTamperedTokenWithTheSignatureOfAVerifiedOneIsRefused() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            // Verified once, the token's claims are cached, keyed by a hash of its signature.
            _ = try await harness.service.authenticate(accessToken: issued.accessToken)
            let parts = issued.accessToken.split(separator: ".")
            let tampered = [parts[0], parts[1].dropLast(2) + (parts[1].hasSuffix("AA") ? "BB" : "AA"), parts[2]].joined(separator: ".")
            let refused = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: tampered) }
            #expect(refused?.reason == .tokenInvalid)
            _ = try await harness.service.authenticate(accessToken: issued.accessToken)
        }
    }

    @Test func reusingASpentRefreshTokenRevokesTheSession() async throws {
        try await AccountsHarness.with { harness in
            let (_, first) = try await harness.register()
            let second = try await harness.service.refresh(refreshToken: first.refreshToken)
            let third = try await harness.service.refresh(refreshToken: second.refreshToken)
            harness.clock.advance(seconds: 31)
            let reuse = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: first.refreshToken) }
            #expect(reuse?.reason == .refreshTokenReused)
            let revoked = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: third.refreshToken) }
            #expect(revoked?.reason == .sessionRevoked)
            let access = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: third.accessToken) }
            #expect(access?.reason == .sessionRevoked)
        }
    }

    @Test func theJustReplacedTokenWorksOnceMoreWithinTheGracePeriod() async throws {
        try await AccountsHarness.with { harness in
            let (_, first) = try await harness.register()
            let lost = try await harness.service.refresh(refreshToken: first.refreshToken)
            harness.clock.advance(seconds: 10)
            let retried = try await harness.service.refresh(refreshToken: first.refreshToken)
            #expect(retried.refreshToken != lost.refreshToken)
            // The response that was lost is spent now: presenting it is reuse.
            let reuse = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: lost.refreshToken) }
            #expect(reuse?.reason == .refreshTokenReused)
        }
    }

    @Test func thePreviousTokenAfterTheGracePeriodIsReuse() async throws {
        try await AccountsHarness.with { harness in
            let (_, first) = try await harness.register()
            _ = try await harness.service.refresh(refreshToken: first.refreshToken)
            harness.clock.advance(seconds: 30)
            let reuse = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: first.refreshToken) }
            #expect(reuse?.reason == .refreshTokenReused)
        }
    }

    @Test func accessTokensExpireAndRefreshTokensOutliveThem() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            harness.clock.advance(seconds: 15 * 60)
            let expired = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: issued.accessToken) }
            #expect(expired?.reason == .tokenExpired)
            let refreshed = try await harness.service.refresh(refreshToken: issued.refreshToken)
            _ = try await harness.service.authenticate(accessToken: refreshed.accessToken)
        }
    }

    @Test func unusedRefreshTokensExpireAndSessionsEndAtTheirMaximumLifetime() async throws {
        try await AccountsHarness.with { harness in
            let (_, idle) = try await harness.register()
            harness.clock.advance(seconds: 30 * 24 * 3600)
            let expired = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: idle.refreshToken) }
            #expect(expired?.reason == .sessionExpired)

            // Signed in at day 30: the session ends at day 120 however often it is refreshed.
            var busy = try await harness.login()
            for _ in 0..<3 {
                harness.clock.advance(seconds: 25 * 24 * 3600)
                busy = try await harness.service.refresh(refreshToken: busy.refreshToken)
            }
            #expect(busy.session.refreshExpiresAt <= busy.session.expiresAt)
            harness.clock.advance(seconds: 25 * 24 * 3600)
            let ended = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: busy.refreshToken) }
            #expect(ended?.reason == .sessionExpired)
        }
    }

    @Test func logoutEndsTheSessionAndTellsItsObservers() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            let (ends, continuation) = AsyncStream<SessionDirectory.End>.makeStream()
            _ = harness.service.sessions.observeEnd(of: viewer.sessionID) { continuation.yield($0) }
            try await harness.service.logout(viewer: viewer)
            var iterator = ends.makeAsyncIterator()
            #expect(await iterator.next() == .revoked)
            #expect(harness.service.sessions.observerCount == 0)
            let access = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: issued.accessToken) }
            #expect(access?.reason == .sessionRevoked)
            let refresh = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: issued.refreshToken) }
            #expect(refresh?.reason == .sessionRevoked)
        }
    }

    @Test func logoutEverywhereEndsEverySessionAndRevokeEndsOne() async throws {
        try await AccountsHarness.with { harness in
            let (_, phone) = try await harness.register()
            let laptop = try await harness.login()
            let tablet = try await harness.login()
            let viewer = try await harness.service.authenticate(accessToken: phone.accessToken)
            #expect(try await harness.service.activeSessions(viewer: viewer).count == 3)
            _ = try await harness.service.revokeSession(id: tablet.session.id, viewer: viewer)
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: tablet.accessToken) }
            let missing = await #expect(throws: ServiceError.self) {
                try await harness.service.revokeSession(id: tablet.session.id, viewer: viewer)
            }
            #expect(missing?.code == .notFound)
            #expect(try await harness.service.logoutEverywhere(viewer: viewer) == 2)
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: laptop.accessToken) }
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: phone.accessToken) }
        }
    }

    @Test func anotherAccountsSessionCannotBeRevoked() async throws {
        try await AccountsHarness.with { harness in
            let (_, ana) = try await harness.register("ana")
            let (_, ben) = try await harness.register("ben")
            let viewer = try await harness.service.authenticate(accessToken: ana.accessToken)
            let error = await #expect(throws: ServiceError.self) { try await harness.service.revokeSession(id: ben.session.id, viewer: viewer) }
            #expect(error?.code == .notFound)
            _ = try await harness.service.authenticate(accessToken: ben.accessToken)
        }
    }

    @Test func signingInBeyondTheSessionLimitEndsTheLeastRecentlyUsed() async throws {
        try await AccountsHarness.with(configure: { $0.maximumSessionsPerUser = 2 }) { harness in
            let (_, oldest) = try await harness.register()
            harness.clock.advance(seconds: 1)
            _ = try await harness.login()
            harness.clock.advance(seconds: 1)
            _ = try await harness.login()
            let error = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: oldest.accessToken) }
            #expect(error?.reason == .sessionRevoked)
        }
    }

    @Test func sessionsSurviveARestartOfTheProcessCache() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            // A second service over the same database has an empty session directory.
            let fresh = AccountService(
                configuration: harness.service.configuration, pool: harness.pool, accessTokens: harness.service.accessTokens,
                mail: AccountMail(outbox: harness.mail, baseURL: try PublicBaseURL("https://hearth.example"), links: .forTests), commonPasswords: [],
                logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()), now: { harness.clock.now })
            #expect(try await fresh.authenticate(accessToken: issued.accessToken).sessionID == issued.session.id)
        }
    }
}
