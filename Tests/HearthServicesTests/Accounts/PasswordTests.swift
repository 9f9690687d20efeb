import Support
import TestFixtures
import FoundationEssentials
import HearthServices
import HearthStore
import Testing

struct PasswordTests {
    @Test func aResetLinkSetsANewPasswordOnceAndEndsEverySession() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            try await harness.service.requestPasswordReset(email: "ANA@example.com", clientAddress: "192.0.2.1")
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            let user = try await harness.service.resetPassword(token: token, newPassword: "a brand new secret")
            #expect(user.isEmailConfirmed)
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: issued.accessToken) }
            await #expect(throws: ServiceError.self) { try await harness.service.refresh(refreshToken: issued.refreshToken, clientAddress: "192.0.2.1") }
            await #expect(throws: ServiceError.invalidCredentials) { try await harness.login() }
            _ = try await harness.login(password: "a brand new secret")
            await #expect(throws: ServiceError.linkInvalid) {
                try await harness.service.resetPassword(token: token, newPassword: "yet another secret")
            }
            #expect(harness.mail.all.last?.subject.contains("password was changed") == true)
        }
    }

    @Test func resetLinksExpireAfterAnHour() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            try await harness.service.requestPasswordReset(email: "ana@example.com", clientAddress: "192.0.2.1")
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            harness.clock.advance(seconds: 3600)
            await #expect(throws: ServiceError.linkInvalid) {
                try await harness.service.resetPassword(token: token, newPassword: "a brand new secret")
            }
        }
    }

    @Test func anUnknownAddressGetsTheSameAnswerAndANoteInsteadOfALink() async throws {
        try await AccountsHarness.with { harness in
            try await harness.service.requestPasswordReset(email: "nobody@example.com", clientAddress: "192.0.2.1")
            let note = try #require(harness.mail.all.last)
            #expect(note.to == "nobody@example.com")
            #expect(note.text.contains("no account uses it"))
            #expect(harness.mail.latestToken(to: "nobody@example.com") == nil)
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM email_tokens") }
            #expect(count == 0)
        }
    }

    @Test func aNewResetRequestRetiresTheEarlierLink() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            try await harness.service.requestPasswordReset(email: "ana@example.com", clientAddress: "192.0.2.1")
            let first = try #require(harness.mail.latestToken(to: "ana@example.com"))
            try await harness.service.requestPasswordReset(email: "ana@example.com", clientAddress: "192.0.2.1")
            await #expect(throws: ServiceError.linkInvalid) {
                try await harness.service.resetPassword(token: first, newPassword: "a brand new secret")
            }
        }
    }

    @Test func theNewPasswordFollowsThePolicy() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            try await harness.service.requestPasswordReset(email: "ana@example.com", clientAddress: "192.0.2.1")
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            let error = await #expect(throws: ServiceError.self) { try await harness.service.resetPassword(token: token, newPassword: "qwertyuiop") }
            #expect(error?.problems.first?.field == "input.newPassword")
            // The refused attempt did not spend the link.
            _ = try await harness.service.resetPassword(token: token, newPassword: "a brand new secret")
        }
    }

    @Test func changingThePasswordNeedsTheCurrentOneAndEndsTheOtherSessions() async throws {
        try await AccountsHarness.with { harness in
            let (_, phone) = try await harness.register()
            let laptop = try await harness.login()
            let viewer = try await harness.service.authenticate(accessToken: phone.accessToken)
            await #expect(throws: ServiceError.self) {
                try await harness.service.changePassword(
                    viewer: viewer, newPassword: "a brand new secret", proof: ReauthenticationProof(currentPassword: "wrong password"),
                    clientAddress: "192.0.2.1")
            }
            _ = try await harness.service.changePassword(
                viewer: viewer, newPassword: "a brand new secret", proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            _ = try await harness.service.authenticate(accessToken: phone.accessToken)
            await #expect(throws: ServiceError.self) { try await harness.service.authenticate(accessToken: laptop.accessToken) }
            _ = try await harness.login(password: "a brand new secret")
        }
    }

    @Test func aCorruptStoredHashIsAnErrorNotAWrongPassword() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            try await harness.pool.write { try $0.execute("UPDATE users SET password_hash = '$scrypt$ln=10,r=8,p=1$truncated'") }
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            for attempt in [AccountsHarness.password, "a wrong password"] {
                let signIn = await #expect(throws: PasswordHashError.self) { try await harness.login(password: attempt) }
                #expect(signIn?.code == .malformedHash)
            }
            let change = await #expect(throws: PasswordHashError.self) {
                try await harness.service.changePassword(
                    viewer: viewer, newPassword: "a brand new secret", proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            }
            #expect(change?.code == .malformedHash)
        }
    }

    @Test func hashesWithWeakerParametersAreUpgradedAtSignIn() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            try await harness.pool.write { database in
                let weak = try PasswordHasher(parameters: ScryptParameters(logN: 4, r: 8, p: 1)).hash(AccountsHarness.password)
                try database.execute("UPDATE users SET password_hash = ?", [weak])
            }
            _ = try await harness.login()
            let stored = try await harness.pool.read { try $0.scalar(String.self, "SELECT password_hash FROM users") }
            #expect(stored?.hasPrefix("$scrypt$ln=10,") == true)
        }
    }
}

struct LoginThrottleTests {
    @Test func failedSignInsAreLimitedPerAccountAndRefillOverTime() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            for attempt in 0..<10 {
                await #expect(throws: ServiceError.invalidCredentials, "attempt \(attempt)") {
                    try await harness.login(password: "guess number \(attempt)", from: "198.51.100.\(attempt)")
                }
            }
            // From a fresh address, the account's bucket is what stops the 11th guess, even the right password.
            let limited = await #expect(throws: ServiceError.self) { try await harness.login(from: "203.0.113.7") }
            #expect(limited?.code == .rateLimited)
            let retryAfter = try #require(limited?.retryAfter)
            #expect(retryAfter > 0 && retryAfter <= 40)
            harness.clock.advance(seconds: Double(retryAfter))
            _ = try await harness.login(from: "203.0.113.7")
        }
    }

    @Test func atMostAHundredFailuresAnHourPerAccount() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            var failures = 0
            for second in stride(from: 0, to: 3600, by: 10) {
                do {
                    _ = try await harness.login(password: "wrong guess", from: "198.51.100.\(second % 250)")
                } catch let error as ServiceError where error.code == .unauthenticated {
                    failures += 1
                } catch {}
                harness.clock.advance(seconds: 10)
            }
            #expect(failures <= 100)
            #expect(failures >= 90)
        }
    }

    @Test func successfulSignInsDoNotCount() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            for _ in 0..<15 { _ = try await harness.login() }
        }
    }

    @Test func aPasswordResetClearsTheAccountsFailures() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            for attempt in 0..<10 {
                _ = try? await harness.login(password: "guess \(attempt)", from: "198.51.100.\(attempt)")
            }
            try await harness.service.requestPasswordReset(email: "ana@example.com", clientAddress: "192.0.2.1")
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            _ = try await harness.service.resetPassword(token: token, newPassword: "a brand new secret")
            _ = try await harness.login(password: "a brand new secret", from: "203.0.113.7")
        }
    }
}
