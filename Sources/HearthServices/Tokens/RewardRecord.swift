import FoundationEssentials
import HearthDomain
import HearthStore

/// A reward of a household's store, as stored in `rewards` with its rows of `reward_members`.
public struct RewardRecord: Sendable, Hashable {
    /// The reward's id (`rwd_…`).
    public var id: String
    /// The household.
    public var householdID: String
    /// The name, 1–80 characters.
    public var name: String
    /// What it is, if the admins said.
    public var description: String?
    /// Its price in whole tokens, for members without a price of their own.
    public var tokenCost: Int
    /// How many are left; `nil` for unlimited.
    public var stock: Int?
    /// The members it is restricted to, in member-id order; `nil` when it is for everyone.
    public var eligibleMemberIDs: [String]?
    /// Prices of their own for some members, by member id.
    public var memberPrices: [String: Int]
    /// When it was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date
    /// When it left the store; `nil` while offered.
    public var deletedAt: Date?

    /// What `memberID` pays for it; `nil` when it is not for them.
    public func price(for memberID: String) -> Int? {
        if let eligible = eligibleMemberIDs, !eligible.contains(memberID) { return nil }
        return memberPrices[memberID] ?? tokenCost
    }

    /// The `rewards` columns read.
    static let columns = "id, household_id, name, description, token_cost, stock, is_restricted, created_at, updated_at, deleted_at"

    /// The rewards of the household of `scope` selected by `condition` (SQL over `rewards`, with
    /// `arguments`), with their members, in name order.
    static func find(_ scope: HouseholdScope, where condition: String, _ arguments: [(any DatabaseValueConvertible)?] = []) throws -> [RewardRecord] {
        let rows = try scope.query(
            "SELECT \(columns) FROM rewards WHERE household_id = {household} AND \(condition) ORDER BY name_key, id",
            StatementArguments(arguments))
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { row -> String in try row["id"] }
        var restricted: [String: [String]] = [:]
        var prices: [String: [String: Int]] = [:]
        try scope.forEachRow(
            """
            SELECT reward_id, member_id, token_cost FROM reward_members
            WHERE household_id = {household} AND reward_id IN (\(ChoreReferences.placeholders(ids.count)))
            ORDER BY reward_id, member_id
            """,
            ChoreReferences.arguments(ids)
        ) { row in
            let rewardID: String = try row["reward_id"]
            let memberID: String = try row["member_id"]
            restricted[rewardID, default: []].append(memberID)
            let cost: Int? = try row["token_cost"]
            if let cost { prices[rewardID, default: [:]][memberID] = cost }
        }
        return try rows.map { row in
            let id: String = try row["id"]
            let isRestricted: Bool = try row["is_restricted"]
            return RewardRecord(
                id: id, householdID: try row["household_id"], name: try row["name"], description: try row["description"],
                tokenCost: try row["token_cost"], stock: try row["stock"], eligibleMemberIDs: isRestricted ? restricted[id] ?? [] : nil,
                memberPrices: prices[id] ?? [:], createdAt: try row["created_at"], updatedAt: try row["updated_at"],
                deletedAt: try row["deleted_at"])
        }
    }

    /// The reward `id` of the household of `scope`, deleted or not.
    /// - Throws: `NOT_FOUND` when it has none by that id.
    static func find(id: String, _ scope: HouseholdScope) throws -> RewardRecord {
        guard let reward = try find(scope, where: "id = ?", [id]).first else { throw ServiceError.rewardNotFound }
        return reward
    }

    /// The reward `id` of the household of `scope`, while it is offered.
    /// - Throws: `NOT_FOUND` when it has none by that id, or it was deleted.
    static func findOffered(id: String, _ scope: HouseholdScope) throws -> RewardRecord {
        let reward = try find(id: id, scope)
        guard reward.deletedAt == nil else { throw ServiceError.rewardNotFound }
        return reward
    }
}

extension ServiceError {
    /// A reward that does not exist, was deleted, or is of a household the caller is not in.
    public static let rewardNotFound = ServiceError(.notFound, "No such reward.")
}
