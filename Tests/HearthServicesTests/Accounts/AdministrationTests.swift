import FoundationEssentials
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// `hearth admin` in the service: a disabled account is refused by every way of signing in and
/// by refresh, its sessions end in the database at once and in the server's memory when the
/// queued job runs; a password reset the administrator asks for is mailed by the job.
struct AdministrationTests {
    let google = FakeIdentityProvider.google()

    /// The administration of `harness`'s database, and the job it queued last, run as the server would.
    func administration(_ harness: AccountsHarness) -> AccountAdministration {
        AccountAdministration(jobs: JobQueue(pool: harness.pool, clock: harness.clock))
    }

    func runQueuedJobs(_ harness: AccountsHarness) throws {
        let jobs = try harness.pool.read { try JobQueue.jobs(state: .pending, kind: .accountAdministration, limit: 10, in: $0) }
        #expect(!jobs.isEmpty)
        for job in jobs { try harness.service.administrationJob.run(job) }
    }

    @Test func aDisabledAccountIsRefusedByEveryWayOfSigningInAndItsSessionsEnd() async throws {
        try await AccountsHarness.with(identityProviders: [google.identityProvider()]) { harness in
            let claims = google.claims(email: "ana@example.com", at: harness.clock.now)
            let created = try await harness.service.signIn(
                provider: .google, idToken: try google.token(claims), nonce: FakeIdentityProvider.rawNonce,
                deviceLabel: "phone", displayName: nil, clientAddress: "192.0.2.1")
            let session = try #require(created.session)
            #expect(try await harness.service.authenticate(accessToken: session.accessToken).userID == created.user?.id)

            let (account, ended) = try await harness.pool.write { [self] in try administration(harness).disable(email: " ANA@example.com", at: harness.clock.now, in: $0) }
            #expect(ended == 1 && account.disabledAt != nil)
            // Until the job runs, the server's memory still holds the session; the database does not.
            await #expect(throws: ServiceError.accountDisabled) {
                try await harness.service.refresh(refreshToken: session.refreshToken, clientAddress: "192.0.2.1")
            }
            try runQueuedJobs(harness)
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: session.accessToken) }
            await #expect(throws: ServiceError.accountDisabled) {
                try await harness.service.signIn(
                    provider: .google, idToken: try google.token(claims), nonce: FakeIdentityProvider.rawNonce,
                    deviceLabel: "phone", displayName: nil, clientAddress: "192.0.2.1")
            }

            _ = try await harness.pool.write { [self] in try administration(harness).enable(email: "ana@example.com", at: harness.clock.now, in: $0) }
            let again = try await harness.service.signIn(
                provider: .google, idToken: try google.token(claims), nonce: FakeIdentityProvider.rawNonce,
                deviceLabel: "phone", displayName: nil, clientAddress: "192.0.2.1")
            #expect(again.session != nil)
        }
    }

    @Test func aPasswordResetAskedByTheAdministratorIsMailedWhenTheJobRuns() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register("ana")
            let before = harness.mail.all.count
            _ = try await harness.pool.write { [self] in try administration(harness).requestPasswordReset(email: "ana@example.com", in: $0) }
            #expect(harness.mail.all.count == before, "the server sends it, not the command")
            try runQueuedJobs(harness)
            #expect(harness.mail.all.count == before + 1)
            #expect(harness.mail.all.last?.subject == "Reset your Hearth password")
            #expect(throws: AdministrationError.self) {
                try harness.pool.write { try administration(harness).requestPasswordReset(email: "bo@example.com", in: $0) }
            }
        }
    }
}
