import FoundationEssentials
import HearthDomain

extension EventKind {
    /// A household was created (published on its own topic, for the creator's other devices).
    public static let householdCreated: EventKind = "household.created"
    /// A household's name, emoji, location, time zone or economy changed.
    public static let householdUpdated: EventKind = "household.updated"
    /// A household was deleted.
    public static let householdDeleted: EventKind = "household.deleted"
    /// A member joined: an invitation accepted, a child or shadow added.
    public static let memberJoined: EventKind = "member.joined"
    /// Someone was invited, or their invitation was sent again (a new link and expiry).
    public static let memberInvited: EventKind = "member.invited"
    /// A member left (FR-15); the payload carries the choice for their incomplete tasks.
    public static let memberLeft: EventKind = "member.left"
    /// A member was removed (FR-14), or an invitation revoked or declined; the payload carries
    /// the choice for their incomplete tasks when they had joined.
    public static let memberRemoved: EventKind = "member.removed"
    /// A member's role changed.
    public static let memberRoleChanged: EventKind = "member.role_changed"
    /// A member's name or age changed.
    public static let memberUpdated: EventKind = "member.updated"
    /// The user switched their active household (FR-11), published on their user topic
    /// (``Topic/user(_:)``) for their other devices, with an ``ActiveHouseholdChange``.
    /// Departures that move the active household elsewhere are reported by their own events
    /// (`member.left`, `member.removed`, `household.deleted`).
    public static let activeHouseholdChanged: EventKind = "user.active_household_changed"
}

/// The payload of every household event (topic ``Topic/household(_:)``): which household,
/// which member, and for departures what happens to their incomplete tasks, which the
/// chores feature consumes.
public struct HouseholdChange: Codable, Sendable, Equatable {
    /// The household.
    public var householdID: String
    /// The member concerned, for member events.
    public var memberID: String?
    /// The member's account, when they have one (lets a subscription end for the user who left).
    public var userID: String?
    /// For departures of joined members: unassign or redistribute their incomplete tasks.
    public var incompleteTasks: IncompleteTaskHandling?
    /// For `household.updated`: the household's new time zone, when it changed (the chores
    /// feature replans the chores read in it).
    public var timeZone: String?

    /// Creates a payload.
    public init(
        householdID: String, memberID: String? = nil, userID: String? = nil, incompleteTasks: IncompleteTaskHandling? = nil,
        timeZone: String? = nil
    ) {
        self.householdID = householdID
        self.memberID = memberID
        self.userID = userID
        self.incompleteTasks = incompleteTasks
        self.timeZone = timeZone
    }
}

/// The payload of ``EventKind/activeHouseholdChanged``.
public struct ActiveHouseholdChange: Codable, Sendable, Equatable {
    /// The user.
    public var userID: String
    /// Their active household now.
    public var householdID: String
    /// The one active before, if any.
    public var previousHouseholdID: String?

    /// Creates a payload.
    public init(userID: String, householdID: String, previousHouseholdID: String?) {
        self.userID = userID
        self.householdID = householdID
        self.previousHouseholdID = previousHouseholdID
    }
}

extension HouseholdChange: ChangeSubjects {
    /// The member, for member events; the household otherwise.
    public var touchedObjectIDs: [String] { [memberID ?? householdID] }
}

extension ActiveHouseholdChange: ChangeSubjects {
    /// The user, whose account shows their active household.
    public var touchedObjectIDs: [String] { [userID] }
}
