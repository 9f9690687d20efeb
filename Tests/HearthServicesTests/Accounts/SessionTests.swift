import Support
import TestFixtures
import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import Synchronization
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
            let second = try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1")
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
            let second = try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1")
            let third = try await harness.service.refresh(refreshToken: second.refreshToken, clientAddress: "192.0.2.1")
            harness.clock.advance(seconds: 31)
            let reuse = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1") }
            #expect(reuse?.reason == .refreshTokenReused)
            let revoked = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: third.refreshToken, clientAddress: "192.0.2.1") }
            #expect(revoked?.reason == .sessionRevoked)
            let access = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: third.accessToken) }
            #expect(access?.reason == .sessionRevoked)
        }
    }

    @Test func theJustReplacedTokenWorksOnceMoreWithinTheGracePeriod() async throws {
        try await AccountsHarness.with { harness in
            let (_, first) = try await harness.register()
            let lost = try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1")
            harness.clock.advance(seconds: 10)
            let retried = try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1")
            #expect(retried.refreshToken != lost.refreshToken)
            // The response that was lost is spent now: presenting it is reuse.
            let reuse = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: lost.refreshToken, clientAddress: "192.0.2.1") }
            #expect(reuse?.reason == .refreshTokenReused)
        }
    }

    @Test func thePreviousTokenAfterTheGracePeriodIsReuse() async throws {
        try await AccountsHarness.with { harness in
            let (_, first) = try await harness.register()
            _ = try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1")
            harness.clock.advance(seconds: 30)
            let reuse = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: first.refreshToken, clientAddress: "192.0.2.1") }
            #expect(reuse?.reason == .refreshTokenReused)
        }
    }

    @Test func accessTokensExpireAndRefreshTokensOutliveThem() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            harness.clock.advance(seconds: 15 * 60)
            let expired = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: issued.accessToken) }
            #expect(expired?.reason == .tokenExpired)
            let refreshed = try await harness.service.refresh(refreshToken: issued.refreshToken, clientAddress: "192.0.2.1")
            _ = try await harness.service.authenticate(accessToken: refreshed.accessToken)
        }
    }

    @Test func unusedRefreshTokensExpireAndSessionsEndAtTheirMaximumLifetime() async throws {
        try await AccountsHarness.with { harness in
            let (_, idle) = try await harness.register()
            harness.clock.advance(seconds: 30 * 24 * 3600)
            let expired = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: idle.refreshToken, clientAddress: "192.0.2.1") }
            #expect(expired?.reason == .sessionExpired)

            // Signed in at day 30: the session ends at day 120 however often it is refreshed.
            var busy = try await harness.login()
            for _ in 0..<3 {
                harness.clock.advance(seconds: 25 * 24 * 3600)
                busy = try await harness.service.refresh(refreshToken: busy.refreshToken, clientAddress: "192.0.2.1")
            }
            #expect(busy.session.refreshExpiresAt <= busy.session.expiresAt)
            harness.clock.advance(seconds: 25 * 24 * 3600)
            let ended = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: busy.refreshToken, clientAddress: "192.0.2.1") }
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
            let refresh = await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: issued.refreshToken, clientAddress: "192.0.2.1") }
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
            _ = try await harness.service.revokeSession(id: tablet.session.id, viewer: viewer, proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: tablet.accessToken) }
            let missing = await #expect(throws: ServiceError.self) {
                try await harness.service.revokeSession(id: tablet.session.id, viewer: viewer, proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
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
            let error = await #expect(throws: ServiceError.self) { try await harness.service.revokeSession(id: ben.session.id, viewer: viewer, proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1") }
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

    /// The invitation page's sign-in: its session ends whatever the work did, even when the
    /// request's task was cancelled meanwhile (the pool refuses a cancelled task the writer).
    @Test func aOneRequestSessionEndsWhenItsWorkFailsAfterItsTaskWasCancelled() async throws {
        struct Failure: Error {}
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let ana = try await harness.service.authenticate(accessToken: issued.accessToken)
            let session = Mutex<String?>(nil)
            // A task of its own, cancelled from inside the work: this test's task goes on uncancelled.
            let request = Task {
                try await harness.service.withOneRequestSession(
                    email: "ana@example.com", password: AccountsHarness.password, deviceLabel: "page", clientAddress: "192.0.2.1"
                ) { _, viewer in
                    session.withLock { $0 = viewer.sessionID }
                    withUnsafeCurrentTask { $0?.cancel() }
                    throw Failure()
                }
            }
            let outcome = await request.result
            #expect(throws: Failure.self) { try outcome.get() }
            let ended = try #require(session.withLock { $0 })
            #expect(harness.service.sessions.entry(ended)?.isRevoked == true)
            #expect(try await harness.service.activeSessions(viewer: ana).map(\.id) == [ana.sessionID])
        }
    }

    @Test func sessionsSurviveARestartOfTheProcessCache() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            // A second service over the same database has an empty session directory.
            let fresh = AccountService(
                configuration: harness.service.configuration, pool: harness.pool, accessTokens: harness.service.accessTokens,
                mail: AccountMail(outbox: harness.mail, baseURL: try PublicBaseURL("https://hearth.example"), links: .forTests), commonPasswords: [],
                logger: Logger(label: "test", level: .critical, sink: DiscardingLogSink()), clock: harness.clock)
            #expect(try await fresh.authenticate(accessToken: issued.accessToken).sessionID == issued.session.id)
        }
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "counts the loans of SQLite's one writer connection"))
    func anUnknownRefreshTokenIsRefusedFromAReadWithoutTakingTheWriter() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let pool = try StoreStatistics.sqlitePool(harness.pool)
            let before = pool.statistics.writer.acquisitions
            let refused = await #expect(throws: ServiceError.self) {
                try await harness.service.refresh(refreshToken: "made-up-token", clientAddress: "198.51.100.7")
            }
            #expect(refused?.reason == .tokenInvalid)
            #expect(pool.statistics.writer.acquisitions == before)
            // A refresh of a session that ended is answered from the read too.
            try await harness.service.logout(viewer: try await harness.service.authenticate(accessToken: issued.accessToken))
            let ended = pool.statistics.writer.acquisitions
            let revoked = await #expect(throws: ServiceError.self) {
                try await harness.service.refresh(refreshToken: issued.refreshToken, clientAddress: "198.51.100.7")
            }
            #expect(revoked?.reason == .sessionRevoked)
            #expect(pool.statistics.writer.acquisitions == ended)
            // A rotation takes it, once.
            let fresh = try await harness.login()
            let signedIn = pool.statistics.writer.acquisitions
            _ = try await harness.service.refresh(refreshToken: fresh.refreshToken, clientAddress: "198.51.100.7")
            #expect(pool.statistics.writer.acquisitions == signedIn + 1)
        }
    }

    @Test func refusedRefreshesAreLimitedPerAddressAtTheConfiguredEdge() async throws {
        try await AccountsHarness.with(configure: {
            $0.failedRefreshesPerAddress = TokenBucket.Rule.perInterval(9, seconds: 3600, burst: 3)
        }) { harness in
            let (_, issued) = try await harness.register()
            for attempt in 0..<3 {
                let refused = await #expect(throws: ServiceError.self, "attempt \(attempt)") {
                    try await harness.service.refresh(refreshToken: "guess \(attempt)", clientAddress: "198.51.100.7")
                }
                #expect(refused?.reason == .tokenInvalid)
            }
            let limited = await #expect(throws: ServiceError.self) {
                try await harness.service.refresh(refreshToken: issued.refreshToken, clientAddress: "198.51.100.7")
            }
            #expect(limited?.code == .rateLimited)
            #expect(limited?.retryAfter == 400)
            // Other addresses are not affected, and successful refreshes do not count.
            var tokens = issued
            for _ in 0..<5 { tokens = try await harness.service.refresh(refreshToken: tokens.refreshToken, clientAddress: "203.0.113.9") }
            harness.clock.advance(seconds: 400)
            _ = try await harness.service.refresh(refreshToken: tokens.refreshToken, clientAddress: "198.51.100.7")
        }
    }

    /// A session missing from the directory is read from the database and cached. A revocation
    /// that commits after that read but before the caching tells a directory that does not
    /// hold the session yet: the read, older than the revocation, must not be cached as live,
    /// or the session's access tokens would go on working until they expire.
    @Test func aSessionReadBeforeItsRevocationIsNotCachedAsLive() async throws {
        try await AccountsHarness.with(configure: { $0.sessionCacheCapacity = 1 }) { harness in
            let (_, ana) = try await harness.register("ana")
            let viewer = try await harness.service.authenticate(accessToken: ana.accessToken)
            let directory = harness.service.sessions
            let readBeforehand = try #require(directory.entry(ana.session.id))
            _ = try await harness.register("ben")  // evicts Ana's entry from a directory of one
            #expect(directory.entry(ana.session.id) == nil)

            let mark = directory.mark()  // taken before the read, as a lookup does
            try await harness.service.logout(viewer: viewer)
            directory.fill(readBeforehand, for: ana.session.id, readAfter: mark)  // the read's result arrives late
            let refused = await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: ana.accessToken) }
            #expect(refused?.reason == .sessionRevoked)

            // A read with no change since its mark is cached.
            let (_, cara) = try await harness.register("cara")
            let caras = try #require(directory.entry(cara.session.id))
            _ = try await harness.register("dan")
            directory.fill(caras, for: cara.session.id, readAfter: directory.mark())
            #expect(directory.entry(cara.session.id) == caras)
        }
    }

    @Test func theSessionStateIsReadBackWhenTheDirectoryNoLongerHoldsIt() async throws {
        try await AccountsHarness.with(configure: { $0.sessionCacheCapacity = 1 }) { harness in
            let (_, ana) = try await harness.register("ana")
            let anaSession = ana.session.id
            #expect(try await harness.service.sessionState(id: anaSession) == .live(remaining: .seconds(30 * 24 * 3600)))
            // Ben's session evicts Ana's from a directory of one; her state is read from the database.
            _ = try await harness.register("ben")
            #expect(harness.service.sessions.entry(anaSession) == nil)
            try await harness.pool.write { try $0.execute("UPDATE sessions SET revoked_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", [anaSession]) }
            #expect(try await harness.service.sessionState(id: anaSession) == .revoked)
            #expect(try await harness.service.sessionState(id: "no-such-session") == .revoked)
            let (_, cara) = try await harness.register("cara")
            harness.clock.advance(seconds: 30 * 24 * 3600)
            #expect(try await harness.service.sessionState(id: cara.session.id) == .expired)
        }
    }
}
