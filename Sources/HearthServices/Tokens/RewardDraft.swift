import HearthDomain

/// What `createReward` is given, and what `updateReward` changes.
public struct RewardDraft: Sendable {
    /// The name, 1–80 characters.
    public var name: String
    /// What it is, up to 80 characters; `nil` for none.
    public var description: String?
    /// The price in whole tokens (0 for a free reward an admin still grants).
    public var tokenCost: Int
    /// How many can be had; `nil` for unlimited.
    public var stock: Int?
    /// The only members who may ask for it; `nil` for everyone.
    public var eligibleMemberIDs: [String]?
    /// Prices of their own for some members (of the eligible ones, when it is restricted).
    public var memberPrices: [String: Int]

    /// Creates the draft.
    public init(
        name: String, description: String? = nil, tokenCost: Int, stock: Int? = nil, eligibleMemberIDs: [String]? = nil,
        memberPrices: [String: Int] = [:]
    ) {
        self.name = name
        self.description = description
        self.tokenCost = tokenCost
        self.stock = stock
        self.eligibleMemberIDs = eligibleMemberIDs
        self.memberPrices = memberPrices
    }

    /// The reward as it is: the draft an edit starts from.
    init(_ reward: RewardRecord) {
        self.init(
            name: reward.name, description: reward.description, tokenCost: reward.tokenCost, stock: reward.stock,
            eligibleMemberIDs: reward.eligibleMemberIDs, memberPrices: reward.memberPrices)
    }
}

/// What `updateReward` changes; `nil` fields stay as they are, and for the optional ones
/// `.some(nil)` clears them (no description, unlimited stock, for everyone).
public struct RewardChanges: Sendable {
    /// A new name.
    public var name: String?
    /// A new description, or none.
    public var description: String??
    /// A new price.
    public var tokenCost: Int?
    /// A new stock, or unlimited.
    public var stock: Int??
    /// New eligible members, or everyone.
    public var eligibleMemberIDs: [String]??
    /// New per-member prices (the whole list). When absent, the prices kept are those of members
    /// who may still ask for the reward.
    public var memberPrices: [String: Int]?

    /// Creates the changes.
    public init(
        name: String? = nil, description: String?? = nil, tokenCost: Int? = nil, stock: Int?? = nil, eligibleMemberIDs: [String]?? = nil,
        memberPrices: [String: Int]? = nil
    ) {
        self.name = name
        self.description = description
        self.tokenCost = tokenCost
        self.stock = stock
        self.eligibleMemberIDs = eligibleMemberIDs
        self.memberPrices = memberPrices
    }

    /// `reward` with the changes applied (not yet checked).
    func applied(to reward: RewardRecord) -> RewardDraft {
        var draft = RewardDraft(reward)
        if let name { draft.name = name }
        if let description { draft.description = description }
        if let tokenCost { draft.tokenCost = tokenCost }
        if let stock { draft.stock = stock }
        if let eligibleMemberIDs { draft.eligibleMemberIDs = eligibleMemberIDs }
        if let memberPrices {
            draft.memberPrices = memberPrices
        } else if let eligible = draft.eligibleMemberIDs {
            draft.memberPrices = draft.memberPrices.filter { eligible.contains($0.key) }
        }
        return draft
    }
}
