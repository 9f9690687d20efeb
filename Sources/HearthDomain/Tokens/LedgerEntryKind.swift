/// What a token ledger entry records (stored as the raw value). Every entry changes the member's
/// balance by its amount, and the balance is the sum of the entries.
public enum LedgerEntryKind: String, Sendable, CaseIterable, Codable {
    /// Tokens earned by a completion (approved, or needing no approval): positive.
    case credit
    /// A completion undone: the negative of its credit.
    case reversal
    /// An admin's correction with a note: positive or negative, never zero.
    case adjustment
    /// Tokens an admin gave for good behaviour that is not a chore, with a note: positive.
    case bonus
    /// Tokens exchanged for money: negative, with the rate in force and the money paid.
    case payout
    /// Tokens set aside for a reward asked for: negative (or zero for a free reward); they leave
    /// the balance at once, so two requests cannot spend the same tokens.
    case redemptionHold = "redemption_hold"
    /// The request approved: zero, since the tokens left the balance with the hold.
    case redemptionDebit = "redemption_debit"
    /// The request rejected: the held tokens come back (positive, or zero).
    case redemptionRelease = "redemption_release"
}

/// Where a reward request stands (stored as the raw value).
public enum RedemptionStatus: String, Sendable, CaseIterable, Codable {
    /// Asked for; the tokens are held until an admin decides.
    case pending
    /// Granted: the held tokens are spent.
    case approved
    /// Refused: the held tokens came back.
    case rejected
}
