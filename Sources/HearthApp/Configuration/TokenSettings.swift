import HearthServices

/// The options of the token economy and the rewards store: its limits.
enum TokenSettings {
    /// The options that set ``TokensConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-token-amount", "N", environment: "HEARTH_MAX_TOKEN_AMOUNT", default: "100000",
               help: "The most tokens one bonus, adjustment, payout, reward price or member's price may be."),
        .value("--max-rewards-per-household", "N", environment: "HEARTH_MAX_REWARDS_PER_HOUSEHOLD", default: "100",
               help: "The most rewards a household's store may offer."),
        .value("--max-reward-stock", "N", environment: "HEARTH_MAX_REWARD_STOCK", default: "10000",
               help: "The largest stock a reward may have."),
        .value("--max-pending-redemptions", "N", environment: "HEARTH_MAX_PENDING_REDEMPTIONS", default: "20",
               help: "The most requests for rewards one member may have waiting for a decision."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> TokensConfiguration {
        var configuration = TokensConfiguration()
        configuration.maximumTokenAmount = try options.integer("--max-token-amount", in: 1...1_000_000_000) ?? configuration.maximumTokenAmount
        configuration.maximumRewardsPerHousehold =
            try options.integer("--max-rewards-per-household", in: 1...10_000) ?? configuration.maximumRewardsPerHousehold
        configuration.maximumRewardStock = try options.integer("--max-reward-stock", in: 1...1_000_000_000) ?? configuration.maximumRewardStock
        configuration.maximumPendingRedemptionsPerMember =
            try options.integer("--max-pending-redemptions", in: 1...1_000) ?? configuration.maximumPendingRedemptionsPerMember
        return configuration
    }
}
