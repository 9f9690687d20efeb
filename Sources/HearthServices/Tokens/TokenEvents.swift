import HearthDomain

extension EventKind {
    /// Tokens moved outside the rewards store: a completion credited or reversed, an admin's
    /// adjustment, bonus or payout.
    public static let tokensChanged: EventKind = "tokens.changed"
    /// A reward was added to the store.
    public static let rewardCreated: EventKind = "reward.created"
    /// A reward's name, price, stock or members changed.
    public static let rewardUpdated: EventKind = "reward.updated"
    /// A reward left the store.
    public static let rewardDeleted: EventKind = "reward.deleted"
    /// A member asked for a reward; its tokens are held.
    public static let redemptionRequested: EventKind = "redemption.requested"
    /// A request for a reward was approved: the held tokens are spent.
    public static let redemptionApproved: EventKind = "redemption.approved"
    /// A request for a reward was rejected: the held tokens came back.
    public static let redemptionRejected: EventKind = "redemption.rejected"
}

/// The payload of every token and reward event, on the household's topic
/// (``Topic/household(_:)``): what changed, by id, so a client can refetch it.
public struct TokenChange: Codable, Sendable, Equatable {
    /// The household.
    public var householdID: String
    /// The members whose balance changed.
    public var memberIDs: [String]
    /// The ledger entries written.
    public var entryIDs: [String]
    /// The reward concerned.
    public var rewardID: String?
    /// The request for a reward concerned.
    public var redemptionID: String?
    /// The completion credited or reversed.
    public var completionID: String?

    /// Creates a payload.
    public init(
        householdID: String, memberIDs: [String] = [], entryIDs: [String] = [], rewardID: String? = nil, redemptionID: String? = nil,
        completionID: String? = nil
    ) {
        self.householdID = householdID
        self.memberIDs = memberIDs
        self.entryIDs = entryIDs
        self.rewardID = rewardID
        self.redemptionID = redemptionID
        self.completionID = completionID
    }

    /// The payload naming `entries` and their members.
    init(householdID: String, entries: [LedgerEntryRecord], rewardID: String? = nil, redemptionID: String? = nil, completionID: String? = nil) {
        var members: [String] = []
        for entry in entries where !members.contains(entry.memberID) { members.append(entry.memberID) }
        self.init(
            householdID: householdID, memberIDs: members, entryIDs: entries.map(\.id), rewardID: rewardID, redemptionID: redemptionID,
            completionID: completionID)
    }
}

extension TokenChange: ChangeSubjects {
    /// The ledger entries, the members whose balance changed, the reward and the request for a reward concerned.
    public var touchedObjectIDs: [String] { entryIDs + memberIDs + [rewardID, redemptionID].compactMap(\.self) }
}
