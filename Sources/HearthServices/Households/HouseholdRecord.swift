import FoundationEssentials
import HearthDomain
import HearthStore

/// A household as stored in `households`.
public struct HouseholdRecord: Sendable, Hashable, FetchableRecord {
    /// The household's id.
    public var id: String
    /// The name, 1–80 characters.
    public var name: String
    /// One emoji, if chosen.
    public var emoji: String?
    /// Where it is, in the members' words.
    public var locationLabel: String?
    /// The IANA time zone.
    public var timeZone: String
    /// What one token is worth, a decimal string such as `0.10`.
    public var currencyPerToken: String
    /// The ISO 4217 currency code.
    public var currencyCode: String
    /// How tokens of shared work are split (`fallback`, `equal`, `completer`).
    public var earningsSplit: String
    /// The day its leaderboard's weeks start on.
    public var firstWeekday: Weekday
    /// The account that created it, while it exists.
    public var createdBy: String?
    /// When it was created.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// The columns, in the order ``init(row:)`` reads them.
    public static let columns = RecordColumns(
        "id", "name", "emoji", "location_label", "time_zone", "currency_per_token", "currency_code", "earnings_split",
        "created_by", "created_at", "updated_at", "first_weekday")

    /// Reads the household from a row of ``columns``.
    public init(row: RecordRow) throws {
        id = try row[0]
        name = try row[1]
        emoji = try row[2]
        locationLabel = try row[3]
        timeZone = try row[4]
        currencyPerToken = try row[5]
        currencyCode = try row[6]
        earningsSplit = try row[7]
        createdBy = try row[8]
        createdAt = try row[9]
        updatedAt = try row[10]
        firstWeekday = Weekday(rawValue: try row[11]) ?? .fallback
    }

    /// The household of `scope`.
    static func find(_ scope: HouseholdScope) throws -> HouseholdRecord {
        guard let household = try scope.decodeOne(HouseholdRecord.self, "SELECT \(columns) FROM households WHERE id = {household}")
        else { throw ServiceError.householdNotFound }
        return household
    }
}

/// A member as stored in `members`.
public struct MemberRecord: Sendable, Hashable, FetchableRecord {
    /// The member's id.
    public var id: String
    /// The household.
    public var householdID: String
    /// The account, for members who have one.
    public var userID: String?
    /// What kind of member.
    public var kind: MemberKind
    /// What they may do.
    public var role: MemberRole
    /// Active, invited or departed.
    public var status: MemberStatus
    /// The name shown in the household.
    public var displayName: String
    /// Children and shadows: the age given, `nil` when unknown.
    public var age: Int?
    /// The parental consent the member was added under, for children under 13.
    public var consentID: String?
    /// When they joined (invited members: when invited).
    public var joinedAt: Date
    /// When the record last changed.
    public var updatedAt: Date
    /// When they left or were removed; `nil` unless ``status`` is ``MemberStatus/departed``.
    public var departedAt: Date?

    /// The columns, in the order ``init(row:)`` reads them.
    public static let columns = RecordColumns(
        "id", "household_id", "user_id", "kind", "role", "status", "display_name", "age", "consent_id", "joined_at", "updated_at",
        "departed_at")

    /// Reads the member from a row of ``columns``.
    public init(row: RecordRow) throws {
        id = try row[0]
        householdID = try row[1]
        userID = try row[2]
        kind = try row[3]
        role = try row[4]
        status = try row[5]
        displayName = try row[6]
        age = try row[7]
        consentID = try row[8]
        joinedAt = try row[9]
        updatedAt = try row[10]
        departedAt = try row[11]
    }

    /// ``columns`` qualified with the table alias `alias` (`m.id, m.household_id, …`), for joins.
    static func columns(of alias: String) -> String {
        columns.qualified(by: alias)
    }

    /// The member `id` of the household of `scope`, departed or not.
    /// - Throws: `NOT_FOUND` when there is no such member in that household.
    static func find(id: String, _ scope: HouseholdScope) throws -> MemberRecord {
        guard let member = try scope.decodeOne(
            MemberRecord.self, "SELECT \(columns) FROM members WHERE id = ? AND household_id = {household}", [id])
        else { throw ServiceError.memberNotFound }
        return member
    }

    /// How many members the household of `scope` has, invited ones included and departed ones
    /// not: what the members-per-household limit counts.
    static func countPresent(_ scope: HouseholdScope) throws -> Int {
        try scope.scalar(Int.self, "SELECT count(*) FROM members WHERE household_id = {household} AND status <> 'departed'") ?? 0
    }

    /// The member `id` of the household of `scope`, when they have not departed: what a change
    /// to a member (role, name, removal) acts on.
    /// - Throws: `NOT_FOUND` when there is no such member; `BAD_USER_INPUT` on `input.memberId`
    ///   (reason `NOT_ALLOWED`) for one who has left.
    static func findPresent(id: String, _ scope: HouseholdScope) throws -> MemberRecord {
        let member = try find(id: id, scope)
        guard member.status != .departed else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.memberId", reason: .notAllowed, message: "This person has left the household.")]))
        }
        return member
    }
}
