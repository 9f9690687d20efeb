import TestFixtures
import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import Support
import Testing

struct RegistrationTests {
    @Test func registrationStoresAHashNeverThePasswordAndEmailsAConfirmationLink() async throws {
        try await AccountsHarness.with { harness in
            let (user, issued) = try await harness.register()
            #expect(user.username == "ana" && user.email == "ana@example.com" && user.displayName == "ana")
            #expect(!user.isEmailConfirmed)
            let stored = try await harness.pool.read { try $0.scalar(String.self, "SELECT password_hash FROM users") }
            #expect(stored?.hasPrefix("$scrypt$ln=10,r=8,p=1$") == true)
            #expect(stored?.contains(AccountsHarness.password) == false)
            #expect(harness.mail.all.map(\.to) == ["ana@example.com"])
            #expect(harness.mail.latestToken(to: "ana@example.com") != nil)
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            #expect(viewer.userID == user.id)
        }
    }

    @Test func aConfirmationLinkNeedsTheLinkKeyWhatTheDatabaseHoldsIsNotEnough() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            let stored = try #require(try await harness.pool.read { try $0.scalar([UInt8].self, "SELECT token_id FROM email_tokens") })
            #expect(stored == Array(try #require(Base64URL.decode(token)).prefix(16)), "the database keeps the token's id only")
            // A copy of the database gives the id: a token made from it under any other key is refused.
            let forged = LinkTokens(key: SecureRandom.bytes(LinkTokens.keyLength)).token(.emailToken, id: stored)
            let refused = await #expect(throws: ServiceError.self) { try await harness.service.confirmEmail(token: forged.value) }
            #expect(refused?.reason == .linkInvalid)
            #expect(try await harness.service.confirmEmail(token: token).isEmailConfirmed)
        }
    }

    @Test func reportsEveryFieldProblemAtOnce() async throws {
        try await AccountsHarness.with { harness in
            let error = await #expect(throws: ServiceError.self) {
                try await harness.service.register(
                    RegistrationRequest(username: "a b", email: "not-an-address", password: "short"), clientAddress: "192.0.2.1")
            }
            #expect(error?.code == .badUserInput)
            #expect(error?.problems.map(\.field) == ["input.username", "input.email", "input.password"])
            #expect(error?.problems.map(\.reason) == [.invalidFormat, .invalidFormat, .tooShort])
            let count = try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM users") }
            #expect(count == 0)
        }
    }

    @Test func refusesCommonPasswordsAndTheAccountsOwnDetails() async throws {
        try await AccountsHarness.with { harness in
            for password in ["Password1234", "ana@example.com"] {
                let error = await #expect(throws: ServiceError.self) {
                    try await harness.service.register(
                        RegistrationRequest(username: "ana", email: "ana@example.com", password: password), clientAddress: "192.0.2.1")
                }
                #expect(error?.problems.first?.reason == .tooCommon)
            }
        }
    }

    @Test func refusesATakenUsernameOrAddressRegardlessOfCase() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            let error = await #expect(throws: ServiceError.self) {
                try await harness.service.register(
                    RegistrationRequest(username: "ANA", email: "Ana@Example.com", password: AccountsHarness.password),
                    clientAddress: "192.0.2.9")
            }
            #expect(error?.code == .conflict)
            #expect(error?.problems.map(\.field) == ["input.username", "input.email"])
            #expect(error?.problems.allSatisfy { $0.reason == .taken } == true)
        }
    }

    @Test func theEmailedLinkConfirmsTheAddressOnce() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            let confirmed = try await harness.service.confirmEmail(token: token)
            #expect(confirmed.isEmailConfirmed)
            let error = await #expect(throws: ServiceError.self) { try await harness.service.confirmEmail(token: token) }
            #expect(error?.reason == .linkInvalid)
        }
    }

    @Test func confirmationLinksExpire() async throws {
        try await AccountsHarness.with { harness in
            try await harness.register()
            let token = try #require(harness.mail.latestToken(to: "ana@example.com"))
            harness.clock.advance(seconds: 48 * 3600 + 1)
            let error = await #expect(throws: ServiceError.self) { try await harness.service.confirmEmail(token: token) }
            #expect(error?.reason == .linkInvalid)
        }
    }

    @Test func resendingReplacesTheEarlierLink() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let first = try #require(harness.mail.latestToken(to: "ana@example.com"))
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            try await harness.service.resendConfirmation(viewer: viewer, clientAddress: "192.0.2.1")
            let second = try #require(harness.mail.latestToken(to: "ana@example.com"))
            #expect(first != second)
            await #expect(throws: ServiceError.linkInvalid) { try await harness.service.confirmEmail(token: first) }
            #expect(try await harness.service.confirmEmail(token: second).isEmailConfirmed)
            let again = await #expect(throws: ServiceError.self) {
                try await harness.service.resendConfirmation(viewer: viewer, clientAddress: "192.0.2.1")
            }
            #expect(again?.code == .conflict)
        }
    }

    @Test func limitsHowManyEmailsOneAddressReceives() async throws {
        try await AccountsHarness.with { harness in
            let (_, issued) = try await harness.register()
            let viewer = try await harness.service.authenticate(accessToken: issued.accessToken)
            // Registration took one of the recipient's three; two resends take the rest.
            for _ in 0..<2 { try await harness.service.resendConfirmation(viewer: viewer, clientAddress: "192.0.2.1") }
            let error = await #expect(throws: ServiceError.self) {
                try await harness.service.resendConfirmation(viewer: viewer, clientAddress: "192.0.2.1")
            }
            #expect(error?.code == .rateLimited)
            #expect((error?.retryAfter ?? 0) > 0)
        }
    }
}
