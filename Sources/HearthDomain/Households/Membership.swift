/// What kind of household member a person is (onboarding.md). Stored as the raw value.
public enum MemberKind: String, Sendable, CaseIterable, Codable {
    /// An adult account holder: the creator, or an adult who joined by invitation.
    case parent
    /// A child; may get their own login later.
    case child
    /// A supervised member managed by the parents, without a login.
    case shadow
    /// An adult invited to run the household together with its creator.
    case coParent = "co_parent"

    /// Whether members of this kind are adults with an account (and may be admins).
    public var isAdult: Bool { self == .parent || self == .coParent }
    /// Whether adding a member of this kind under 13, or of unknown age, needs parental consent.
    public var needsConsentWhenYoung: Bool { !isAdult }
    /// Whether a departed member of this kind is anonymised: children and shadows, whose data
    /// the parents gave on their behalf (COPPA: it goes when they leave). Adults keep their
    /// household name in its history.
    public var isAnonymisedOnDeparture: Bool { !isAdult }
}

/// A member's permissions (FR-16). Stored as the raw value.
public enum MemberRole: String, Sendable, CaseIterable, Codable, Comparable {
    /// Manages the household: settings, members, invitations.
    case admin
    /// Takes part.
    case member

    /// `member < admin`: a role satisfies a requirement when it is at least the required one.
    public static func < (lhs: MemberRole, rhs: MemberRole) -> Bool { lhs == .member && rhs == .admin }
}

/// Whether a member has joined, or has left. Stored as the raw value.
public enum MemberStatus: String, Sendable, CaseIterable, Codable {
    /// Part of the household.
    case active
    /// Invited; joins on accepting.
    case invited
    /// Left or was removed: the record stays so history keeps its name, and rejoining revives it.
    case departed
}

/// What happens to a departing member's incomplete tasks (FR-14, FR-15). Stored as the raw value.
public enum IncompleteTaskHandling: String, Sendable, CaseIterable, Codable {
    /// They become unassigned.
    case unassign
    /// They are shared out among the remaining members.
    case redistribute
}

/// Age rules for children and shadows (COPPA).
public enum ChildAge {
    /// Children younger than this need verifiable parental consent before any of their data is stored.
    public static let consentThreshold = 13
    /// The highest age accepted.
    public static let maximum = 130

    /// Whether a member of `kind` with `age` (`nil`: unknown, treated as under 13) needs a consent record.
    public static func needsConsent(kind: MemberKind, age: Int?) -> Bool {
        guard kind.needsConsentWhenYoung else { return false }
        guard let age else { return true }
        return age < consentThreshold
    }
}
