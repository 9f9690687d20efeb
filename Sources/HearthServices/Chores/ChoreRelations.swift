import FoundationEssentials
import HearthDomain
import HearthStore

/// Someone a chore (or a step) is assigned to: the member, and their account's avatar for the
/// picture lists show (FR-55).
public struct ChoreAssignee: Sendable, Hashable {
    /// The member.
    public var member: MemberRecord
    /// The current avatar of the member's account, if they have an account and a picture.
    public var avatarID: String?

    /// Reads the member's columns and `avatar_id` from `row`.
    init(_ row: Row) throws {
        member = try row.decode(MemberRecord.self)
        avatarID = try row["avatar_id"]
    }
}

/// One step of a multi-step chore (FR-38), as stored in `chore_steps`.
public struct ChoreStepRecord: Sendable, Hashable {
    /// `stp_…`: what a completion of this step names.
    public var id: String
    /// The chore.
    public var choreID: String
    /// Its place, from 0: a step is done after the ones before it.
    public var position: Int
    /// 1–80 characters.
    public var title: String
    /// Who does this step, when it is not the chore's assignees.
    public var assignee: ChoreAssignee?
}

/// A tag (FR-46), as stored in `tags`: a household's, or one user's for their personal chores.
public struct TagRecord: Sendable, Hashable, FetchableRecord {
    /// `tag_…`.
    public var id: String
    /// The household, for a household tag.
    public var householdID: String?
    /// The owner, for a personal tag.
    public var ownerID: String?
    /// One line, 1–32 characters; unique in its household (or among the owner's tags) whatever the case.
    public var name: String
    /// `#rrggbb`, if chosen.
    public var color: String?
    /// When it was created.
    public var createdAt: Date
    /// When it was last renamed or recoloured.
    public var updatedAt: Date

    /// The columns, in the order ``init(row:)`` reads them.
    public static let columns = RecordColumns("id", "household_id", "user_id", "name", "color", "created_at", "updated_at")

    /// Reads the tag from a row of ``columns``, by position.
    public init(row: RecordRow) throws {
        id = try row[0]
        householdID = try row[1]
        ownerID = try row[2]
        name = try row[3]
        color = try row[4]
        createdAt = try row[5]
        updatedAt = try row[6]
    }
}

/// The permission rules of one chore: who besides the assignees may complete it, who besides
/// admins may edit it, and the completion rules of steps that override it.
public struct ChoreRuleSet: Sendable, Hashable {
    /// Completing the chore (and its steps without an override).
    public var completers = GrantedRule()
    /// Editing the chore.
    public var editors = GrantedRule()
    /// Steps' own completion rules, by step id.
    public var steps: [String: GrantedRule] = [:]

    /// No rules.
    public init() {}
}
