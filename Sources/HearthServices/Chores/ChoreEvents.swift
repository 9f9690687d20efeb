extension EventKind {
    /// A chore was created (FR-32): on its household's topic, or its owner's for a personal chore.
    public static let choreCreated: EventKind = "chore.created"
    /// A chore's definition changed (FR-33).
    public static let choreUpdated: EventKind = "chore.updated"
    /// A chore was deleted (FR-34); its history stays.
    public static let choreDeleted: EventKind = "chore.deleted"
    /// A tag was created (FR-46).
    public static let tagCreated: EventKind = "tag.created"
    /// A tag was renamed or recoloured.
    public static let tagUpdated: EventKind = "tag.updated"
    /// A tag was deleted, and with it removed from every chore that carried it.
    public static let tagDeleted: EventKind = "tag.deleted"
    /// A household saved a chore preset (FR-45).
    public static let chorePresetSaved: EventKind = "chore_preset.saved"
    /// A household deleted one of its chore presets.
    public static let chorePresetDeleted: EventKind = "chore_preset.deleted"
}

/// The payload of every chore, tag and preset event: whose (a household, or one user for personal
/// chores and tags) and which object, so a client or the instances scheduler knows what to read again.
public struct ChoreChange: Codable, Sendable, Equatable {
    /// The household, for household chores, tags and presets.
    public var householdID: String?
    /// The owner, for personal chores and tags.
    public var userID: String?
    /// The chore concerned.
    public var choreID: String?
    /// The tag concerned.
    public var tagID: String?
    /// The preset concerned.
    public var presetID: String?

    /// Creates a payload.
    public init(householdID: String? = nil, userID: String? = nil, choreID: String? = nil, tagID: String? = nil, presetID: String? = nil) {
        self.householdID = householdID
        self.userID = userID
        self.choreID = choreID
        self.tagID = tagID
        self.presetID = presetID
    }
}

extension ChoreChange: ChangeSubjects {
    /// The chore, tag or preset concerned.
    public var touchedObjectIDs: [String] { [choreID, tagID, presetID].compactMap(\.self) }
}
