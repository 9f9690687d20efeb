import FoundationEssentials
import HearthDomain
import HearthStore

/// A member's request for a reward, as stored in `reward_redemptions`.
public struct RedemptionRecord: Sendable, Hashable, Decodable {
    /// The request's id (`rdm_…`).
    public var id: String
    /// The household.
    public var householdID: String
    /// The reward asked for.
    public var rewardID: String
    /// Whose tokens pay for it.
    public var memberID: String
    /// Who asked: the member, or a parent for a child; `nil` when that member's row is gone.
    public var requestedBy: String?
    /// The price when asked, held from the member's balance while pending.
    public var tokenCost: Int
    /// Pending, approved or rejected.
    public var status: RedemptionStatus
    /// A rejection's reason, if the admin gave one.
    public var reason: String?
    /// The admin who decided.
    public var reviewedBy: String?
    /// When it was asked for.
    public var requestedAt: Date
    /// When an admin decided.
    public var reviewedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id
        case householdID = "household_id"
        case rewardID = "reward_id"
        case memberID = "member_id"
        case requestedBy = "requested_by"
        case tokenCost = "token_cost"
        case status, reason
        case reviewedBy = "reviewed_by"
        case requestedAt = "requested_at"
        case reviewedAt = "reviewed_at"
    }

    /// The columns, in the order ``CodingKeys`` reads them.
    static let columns = "id, household_id, reward_id, member_id, requested_by, token_cost, status, reason, reviewed_by, requested_at, reviewed_at"

    /// The request `id` of the household of `scope`.
    /// - Throws: `NOT_FOUND` when it has none by that id.
    static func find(id: String, _ scope: HouseholdScope) throws -> RedemptionRecord {
        guard let redemption = try scope.decodeOne(
            RedemptionRecord.self, "SELECT \(columns) FROM reward_redemptions WHERE id = ? AND household_id = {household}", [id])
        else { throw ServiceError.redemptionNotFound }
        return redemption
    }
}

extension ServiceError {
    /// A request for a reward that does not exist or is of a household the caller is not in.
    public static let redemptionNotFound = ServiceError(.notFound, "No such request for a reward.")
}
