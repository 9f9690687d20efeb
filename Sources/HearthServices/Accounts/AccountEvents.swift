extension EventKind {
    /// A user changed their time zone (FR-06), on their topic (``Topic/user(_:)``) with a
    /// ``TimeZoneChange``: their personal chores are read in it, so the chores feature replans them.
    public static let userTimeZoneChanged: EventKind = "user.time_zone_changed"
}

/// The payload of ``EventKind/userTimeZoneChanged``.
public struct TimeZoneChange: Codable, Sendable, Equatable {
    /// The user.
    public var userID: String
    /// Their zone now (IANA name); nil when they cleared it (UTC then).
    public var timeZone: String?

    /// Creates a payload.
    public init(userID: String, timeZone: String?) {
        self.userID = userID
        self.timeZone = timeZone
    }
}

extension TimeZoneChange: ChangeSubjects {
    /// The user, whose time zone their account shows.
    public var touchedObjectIDs: [String] { [userID] }
}

extension EventKind {
    /// A user changed what others see of them (their name or picture, FR-06) with a
    /// ``ProfileUpdate``: on their own topic touching their account, and on the topic of the other
    /// user of each of their follows (requested or accepted) touching that follow, which shows
    /// both users. Offline sync reads it as "these objects changed"; nothing reacts to it.
    public static let userProfileUpdated: EventKind = "user.profile_updated"
}

/// The payload of ``EventKind/userProfileUpdated``: whose profile changed. The objects to refresh
/// are the row's (`touching`), not the payload's: each reader's row names only what that reader sees.
public struct ProfileUpdate: Codable, Sendable, Equatable {
    /// The user whose name or picture changed.
    public var userID: String

    /// Creates a payload.
    public init(userID: String) {
        self.userID = userID
    }
}
