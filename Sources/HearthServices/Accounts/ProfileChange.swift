/// The profile fields to change (`updateProfile`, FR-06); `nil` leaves a field as it is.
public struct ProfileChange: Sendable, Hashable {
    /// The name shown to others (trimmed, 1-80 characters, one line).
    public var displayName: String?
    /// The IANA time zone new households default to: `nil` unchanged, `.some(nil)` cleared (UTC).
    public var timeZone: String??
    /// A new profile picture's bytes (checked by content, ``AccountsConfiguration/avatarRules``).
    public var avatar: [UInt8]?
    /// Whether to remove the profile picture (not together with ``avatar``).
    public var removesAvatar: Bool

    /// Creates a change.
    public init(displayName: String? = nil, timeZone: String?? = nil, avatar: [UInt8]? = nil, removesAvatar: Bool = false) {
        self.displayName = displayName
        self.timeZone = timeZone
        self.avatar = avatar
        self.removesAvatar = removesAvatar
    }
}
