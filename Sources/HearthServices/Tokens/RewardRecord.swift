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
        return try assemble(rows) { ids in
            try scope.query(
                """
                SELECT reward_id, member_id, token_cost FROM reward_members
                WHERE household_id = {household} AND reward_id IN (\(ChoreReferences.placeholders(ids.count)))
                ORDER BY reward_id, member_id
                """,
                ChoreReferences.arguments(ids))
        }
    }

    /// The rewards among `ids` (deleted ones too) of the households `owner`'s account is an active
    /// member of, with their members: one statement for the rewards and one for their members,
    /// whatever the number of ids or households (`node`/`nodes`).
    static func find(ids: [String], _ owner: OwnerScope) throws -> [RewardRecord] {
        let rows = try owner.query(
            """
            SELECT \(columns) FROM rewards WHERE id IN (\(ChoreReferences.placeholders(ids.count)))
            AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
            """,
            ChoreReferences.arguments(ids))
        return try assemble(rows) { ids in
            try owner.query(
                """
                SELECT reward_id, member_id, token_cost FROM reward_members WHERE reward_id IN (\(ChoreReferences.placeholders(ids.count)))
                AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
                ORDER BY reward_id, member_id
                """,
                ChoreReferences.arguments(ids))
        }
    }

    /// The rewards of `rows` (``columns``), in their order, with the members `members` reads for
    /// the rewards' ids (`reward_id`, `member_id`, `token_cost` of `reward_members`, by reward then
    /// member); `members` is not called without rewards.
    private static func assemble(_ rows: [Row], members: ([String]) throws -> [Row]) throws -> [RewardRecord] {
        guard !rows.isEmpty else { return [] }
        var restricted: [String: [String]] = [:]
        var prices: [String: [String: Int]] = [:]
        for row in try members(try rows.map { row -> String in try row["id"] }) {
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
