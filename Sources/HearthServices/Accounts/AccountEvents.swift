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
