/// Limits of the token economy and the rewards store. Read once at start from flags and
/// environment (HearthApp's `ServeSettings`) and passed down. Each is answered one past the limit:
/// `BAD_USER_INPUT` (`OUT_OF_RANGE`) for an amount, `CONFLICT` for a count.
public struct TokensConfiguration: Sendable {
    /// The most tokens one operation moves or one price asks: a bonus, an adjustment (either
    /// way), a payout, a reward's cost or a member's price.
    public var maximumTokenAmount = 100_000
    /// The most rewards (deleted ones not counted) a household may offer.
    public var maximumRewardsPerHousehold = 100
    /// The largest stock a reward may have.
    public var maximumRewardStock = 10_000
    /// The most requests for rewards one member may have waiting for a decision.
    public var maximumPendingRedemptionsPerMember = 20

    /// The defaults.
    public init() {}
}
