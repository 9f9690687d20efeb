import FoundationEssentials
import HearthDomain

/// One entry of a member's token ledger, as stored in `token_ledger`.
public struct LedgerEntryRecord: Sendable, Hashable, Decodable {
    /// The entry's id (`led_…`).
    public var id: String
    /// The household.
    public var householdID: String
    /// Whose ledger it is in.
    public var memberID: String
    /// Its number in the member's ledger: 1 for the first entry, then 2, 3, …
    public var position: Int
    /// What it records.
    public var kind: LedgerEntryKind
    /// How many tokens it adds (negative: takes away).
    public var amount: Int
    /// The member's balance after it: the sum of their entries up to this one.
    public var balanceAfter: Int
    /// The admin's note (adjustments and bonuses; optional on payouts).
    public var note: String?
    /// Credits and reversals: the completion.
    public var completionID: String?
    /// Credits and reversals: the completion's chore.
    public var choreID: String?
    /// Holds, debits and releases: the request for a reward.
    public var redemptionID: String?
    /// Payouts: what one token was worth when it was paid.
    public var currencyPerToken: String?
    /// Payouts: the money paid, exactly `-amount × currencyPerToken`.
    public var moneyAmount: String?
    /// Payouts: the ISO 4217 currency.
    public var currencyCode: String?
    /// The member who made the change, if any.
    public var recordedBy: String?
    /// When it was written.
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case householdID = "household_id"
        case memberID = "member_id"
        case position, kind, amount
        case balanceAfter = "balance_after"
        case note
        case completionID = "completion_id"
        case choreID = "chore_id"
        case redemptionID = "redemption_id"
        case currencyPerToken = "currency_per_token"
        case moneyAmount = "money_amount"
        case currencyCode = "currency_code"
        case recordedBy = "recorded_by"
        case createdAt = "created_at"
    }

    /// The columns, in the order ``CodingKeys`` reads them.
    static let columns = """
        id, household_id, member_id, position, kind, amount, balance_after, note, completion_id, chore_id, redemption_id, \
        currency_per_token, money_amount, currency_code, recorded_by, created_at
        """
}
