import TestFixtures
import FoundationEssentials
import HearthServices
import HearthStore
import Testing

struct ProfileTests {
    @Test func displayNamesAreTrimmedAndBounded() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            #expect(try await harness.service.updateProfile(viewer: viewer, ProfileChange(displayName: "  Ana López ")).displayName == "Ana López")
            let long = await #expect(throws: ServiceError.self) {
                try await harness.service.updateProfile(viewer: viewer, ProfileChange(displayName: String(repeating: "a", count: 81)))
            }
            #expect(long?.problems.first?.reason == .tooLong)
            _ = try await harness.service.updateProfile(viewer: viewer, ProfileChange(displayName: String(repeating: "a", count: 80)))
        }
    }

    @Test func displayNamesAreOneLineAtRegistrationAndLater() async throws {
        try await AccountsHarness.with { harness in
            // A line break would end up in the subject of the emails that name the person (invitations).
            let refused = await #expect(throws: ServiceError.self) {
                try await harness.service.register(
                    RegistrationRequest(username: "ana", email: "ana@example.com", password: AccountsHarness.password, displayName: "Ana\nBcc: x"),
                    clientAddress: "192.0.2.1")
            }
            #expect(refused?.problems.map(\.field) == ["input.displayName"])
            #expect(refused?.problems.first?.reason == .invalidFormat)
            let (_, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            let later = await #expect(throws: ServiceError.self) {
                try await harness.service.updateProfile(viewer: viewer, ProfileChange(displayName: "Ana\r\nLópez"))
            }
            #expect(later?.problems.first?.reason == .invalidFormat)
        }
    }

    @Test func anEmailChangeTakesEffectOnlyWhenTheNewAddressConfirmsAndTheOldOneIsTold() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            _ = try await harness.service.requestEmailChange(
                viewer: viewer, newEmail: "ana.new@example.org", proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            #expect(try await harness.service.user(id: viewer.userID)?.email == "ana@example.com")
            #expect(try await harness.service.pendingEmail(userID: viewer.userID) == "ana.new@example.org")
            let token = try #require(harness.mail.latestToken(to: "ana.new@example.org"))
            let user = try await harness.service.confirmEmail(token: token)
            #expect(user.email == "ana.new@example.org" && user.isEmailConfirmed)
            #expect(try await harness.service.pendingEmail(userID: viewer.userID) == nil)
            let notice = try #require(harness.mail.all.last)
            #expect(notice.to == "ana@example.com" && notice.text.contains("ana.new@example.org"))
            _ = try await harness.service.login(
                email: "ana.new@example.org", password: AccountsHarness.password, deviceLabel: nil, clientAddress: "192.0.2.1")
        }
    }

    @Test func anEmailChangeNeedsThePasswordAndAFreeAddress() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            try await harness.register("ben")
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            let wrong = await #expect(throws: ServiceError.self) {
                try await harness.service.requestEmailChange(
                    viewer: viewer, newEmail: "ana.new@example.org", proof: ReauthenticationProof(currentPassword: "nope"), clientAddress: "192.0.2.1")
            }
            #expect(wrong?.code == .unauthenticated)
            let taken = await #expect(throws: ServiceError.self) {
                try await harness.service.requestEmailChange(
                    viewer: viewer, newEmail: "BEN@example.com", proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            }
            #expect(taken?.code == .conflict)
            #expect(taken?.problems.first?.field == "input.newEmail")
        }
    }

    @Test func aBadFieldChangesNothingAndEveryProblemIsReportedAtOnce() async throws {
        try await AccountsHarness.with { harness in
            let (before, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            let html = Array("<html><script>alert(1)</script></html>".utf8)
            let refused = await #expect(throws: ServiceError.self) {
                try await harness.service.updateProfile(viewer: viewer, ProfileChange(displayName: "Ana López", timeZone: "Europe/Lisbon", avatar: html))
            }
            #expect(refused?.problems.map(\.field) == ["input.avatar"])
            #expect(try await harness.service.user(id: viewer.userID) == before)
            let avatars = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM avatars") }
            #expect(avatars == 0)

            let several = await #expect(throws: ServiceError.self) {
                try await harness.service.updateProfile(
                    viewer: viewer, ProfileChange(displayName: "", timeZone: "Mars/Olympus", avatar: html, removesAvatar: true))
            }
            #expect(several?.problems.map(\.field) == ["input.displayName", "input.timeZone", "input.removeAvatar", "input.avatar"])
            #expect(try await harness.service.user(id: viewer.userID) == before)
        }
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "counts the loans of SQLite's one writer connection"))
    func oneUpdateChangesEveryFieldTogether() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            let pool = try StoreStatistics.sqlitePool(harness.pool)
            let writes = pool.statistics.writer.acquisitions
            let user = try await harness.service.updateProfile(
                viewer: viewer, ProfileChange(displayName: "Ana López", timeZone: "Europe/Lisbon", avatar: AvatarTests.png))
            #expect(pool.statistics.writer.acquisitions == writes + 1)
            #expect(user.displayName == "Ana López" && user.timeZone == "Europe/Lisbon" && user.avatarId != nil)
            let cleared = try await harness.service.updateProfile(viewer: viewer, ProfileChange(timeZone: .some(nil), removesAvatar: true))
            #expect(cleared.displayName == "Ana López" && cleared.timeZone == nil && cleared.avatarId == nil)
        }
    }
}
