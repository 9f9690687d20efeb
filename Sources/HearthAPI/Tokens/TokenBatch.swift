import GraphQL
import HearthServices

/// The rows the token objects of one result set (a ledger page, a list of requests, the store's
/// rewards, a node list) refer to, loaded together: the first object whose `member`
/// (`recordedBy`, `reward`, `redemption`, …) the executor resolves dispatches one read for every
/// object of the set that asks, so a page costs one query per kind of row, not one per item.
/// Made per result set, so nothing is cached across operations (a WebSocket connection runs many).
final class TokenBatch: Sendable {
    /// What the objects were read with, and their related rows are read with.
    let access: HouseholdAccess
    let members: DataLoader<String, MemberRecord>
    let rewards: DataLoader<String, RewardRecord>
    let redemptions: DataLoader<String, RedemptionRecord>

    /// A batch for objects of the household `access` grants.
    init(access: HouseholdAccess, tokens: TokenService) {
        self.access = access
        members = DataLoader { try await tokens.instances.members(ids: $0, access: access) }
        rewards = DataLoader { try await tokens.rewards(ids: $0, access) }
        redemptions = DataLoader { try await tokens.redemptions(ids: $0, access) }
    }

    /// The `Member` of `memberID`, resolved through the batch; `nil` for none.
    func member(_ memberID: String?) -> Resolution {
        guard let memberID else { return .value(nil) }
        let load = members.load(memberID)
        let access = access
        return .async { try await load().map { MemberValue(record: $0, access: access) } }
    }
}
