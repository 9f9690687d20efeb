import FoundationEssentials
import HearthDomain
import HearthStore

/// What one ledger entry is about to record (``TokenLedger/append(_:_:at:)``).
struct NewLedgerEntry {
    var memberID: String
    var kind: LedgerEntryKind
    var amount: Int
    var note: String? = nil
    var completionID: String? = nil
    var choreID: String? = nil
    var redemptionID: String? = nil
    /// Payouts: the rate, the money and the currency.
    var payout: (currencyPerToken: DecimalAmount, money: DecimalAmount, currencyCode: String)? = nil
    /// The member who makes the change.
    var recordedBy: String?
}

/// Appends to the members' token ledgers and keeps their balances, inside the caller's write
/// transaction and through the household's scope.
///
/// The balance is the sum of the member's entries and is also kept in `token_balances`, moved in
/// the same transaction by one conditional statement (`SET balance = balance + amount … WHERE
/// balance + amount >= 0`). That statement is both the check and the change, so two requests
/// spending the same tokens cannot both pass a check made before either writes (Donetick's
/// issue #489): under SQLite's single writer the transactions run one after the other, and
/// under PostgreSQL the update locks the balance row, so the second sees the first's result.
/// The table's `CHECK (balance >= 0)` backs it. The same update numbers the entry
/// (`entry_count`), so a member's entries have gapless positions in the order they were written.
enum TokenLedger {
    /// Appends `entry` to its member's ledger.
    /// - Throws: `CONFLICT` with reason `INSUFFICIENT_TOKENS` when it would take the balance below
    ///   zero (nothing is written); `StoreError` on a constraint (a completion credited twice).
    @discardableResult
    static func append(_ entry: NewLedgerEntry, _ scope: HouseholdScope, at now: Date) throws -> LedgerEntryRecord {
        try scope.execute(
            """
            INSERT INTO token_balances (member_id, household_id, balance, entry_count, updated_at) VALUES (?, {household}, 0, 0, ?)
            ON CONFLICT (member_id) DO NOTHING
            """,
            [entry.memberID, now])
        guard let moved = try scope.queryOne(
            """
            UPDATE token_balances SET balance = balance + ?, entry_count = entry_count + 1, updated_at = ?
            WHERE member_id = ? AND household_id = {household} AND balance + ? >= 0
            RETURNING balance, entry_count
            """,
            [entry.amount, now, entry.memberID, entry.amount])
        else { throw ServiceError.insufficientTokens }
        let record = LedgerEntryRecord(
            id: GlobalID.make(.ledgerEntry, now: now).rawValue, householdID: scope.access.householdID, memberID: entry.memberID,
            position: try moved["entry_count"], kind: entry.kind, amount: entry.amount, balanceAfter: try moved["balance"], note: entry.note,
            completionID: entry.completionID, choreID: entry.choreID, redemptionID: entry.redemptionID,
            currencyPerToken: entry.payout?.currencyPerToken.description, moneyAmount: entry.payout?.money.description,
            currencyCode: entry.payout?.currencyCode, recordedBy: entry.recordedBy, createdAt: now)
        try scope.execute(
            """
            INSERT INTO token_ledger (\(LedgerEntryRecord.columns))
            VALUES (?, {household}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                record.id, record.memberID, record.position, record.kind.rawValue, record.amount, record.balanceAfter, record.note,
                record.completionID, record.choreID, record.redemptionID, record.currencyPerToken, record.moneyAmount,
                record.currencyCode, record.recordedBy, record.createdAt,
            ])
        return record
    }

    /// The balance of `memberID` in the household of `scope`: 0 before their first entry.
    static func balance(of memberID: String, _ scope: HouseholdScope) throws -> Int {
        try scope.scalar(Int.self, "SELECT balance FROM token_balances WHERE member_id = ? AND household_id = {household}", [memberID]) ?? 0
    }
}

extension ServiceError {
    /// Spending or taking away more tokens than the member has.
    public static let insufficientTokens = ServiceError(
        .conflict, reason: .insufficientTokens, "Not enough tokens: the balance cannot go below zero.")
}
