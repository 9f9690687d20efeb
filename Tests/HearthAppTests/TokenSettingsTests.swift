@testable import HearthApp
import HearthServices
import Testing

/// The limits of the token economy and the rewards store (`--max-token-amount`, …).
@Suite struct TokenSettingsTests {
    private func tokens(_ arguments: [String], environment: [String: String] = [:]) throws -> TokensConfiguration {
        try ServeSettings(OptionParser(specs: ServeSettings.options).parse(arguments, environment: environment)).tokens
    }

    @Test func theDefaultsAreTheDocumentedOnes() throws {
        let defaults = try tokens([])
        #expect(defaults.maximumTokenAmount == 100_000 && defaults.maximumRewardsPerHousehold == 100)
        #expect(defaults.maximumRewardStock == 10_000 && defaults.maximumPendingRedemptionsPerMember == 20)
    }

    @Test func flagsAndEnvironmentSetTheLimitsUpToTheirEdges() throws {
        let flags = try tokens([
            "--max-token-amount", "1000000000", "--max-rewards-per-household", "10000", "--max-reward-stock", "1",
            "--max-pending-redemptions", "1000",
        ])
        #expect(flags.maximumTokenAmount == 1_000_000_000 && flags.maximumRewardsPerHousehold == 10_000)
        #expect(flags.maximumRewardStock == 1 && flags.maximumPendingRedemptionsPerMember == 1_000)
        #expect(try tokens([], environment: ["HEARTH_MAX_PENDING_REDEMPTIONS": "3"]).maximumPendingRedemptionsPerMember == 3)
    }

    @Test(arguments: [
        ["--max-token-amount", "0"], ["--max-token-amount", "1000000001"], ["--max-rewards-per-household", "10001"],
        ["--max-reward-stock", "0"], ["--max-pending-redemptions", "1001"], ["--max-pending-redemptions", "many"],
    ])
    func refusesValuesOnePastTheirRange(arguments: [String]) {
        #expect(throws: UsageError.self) { try tokens(arguments) }
    }
}
