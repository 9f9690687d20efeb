import FoundationEssentials
import HearthDomain
import HearthStore

/// One member's vacation from one household, as stored in `member_vacations` (migration 0020).
public struct VacationRecord: Sendable, Hashable {
    /// `vac_…`.
    public var id: String
    /// The household they are away from (the origin).
    public var householdID: String
    /// The member.
    public var memberID: String
    /// What happens to the instances they hold.
    public var handling: VacationHandling
    /// Where an account holder's active household moves while away.
    public var destinationHouseholdID: String?
    /// When it starts (or started).
    public var startsAt: Date
    /// When it ends by itself; `nil` until someone ends it.
    public var endsAt: Date?
    /// Where it stands.
    public var status: VacationStatus
    /// When it began.
    public var startedAt: Date?
    /// When it ended.
    public var endedAt: Date?
    /// Whether its start moved the member's active household to the destination.
    public var switchedActiveHousehold: Bool

    /// The columns ``init(row:)`` reads.
    static let columns = RecordColumns(
        "id", "household_id", "member_id", "handling", "destination_household_id", "starts_at", "ends_at", "status", "started_at",
        "ended_at", "switched_active_household")

    /// Reads a vacation from `row` (``columns``).
    init(row: Row) throws {
        id = try row["id"]
        householdID = try row["household_id"]
        memberID = try row["member_id"]
        handling = VacationHandling(rawValue: try row["handling"]) ?? .pause
        destinationHouseholdID = try row["destination_household_id"]
        startsAt = try row["starts_at"]
        endsAt = try row["ends_at"]
        status = VacationStatus(rawValue: try row["status"]) ?? .ended
        startedAt = try row["started_at"]
        endedAt = try row["ended_at"]
        switchedActiveHousehold = try row["switched_active_household"]
    }

    /// The period it covers.
    var period: VacationPeriod {
        VacationPeriod(start: startsAt.timeIntervalSince1970, end: endsAt?.timeIntervalSince1970)
    }

    /// The SQL condition of the member whose id is the SQL expression `memberID` being away now.
    static func isAwaySQL(_ memberID: String) -> String {
        "EXISTS (SELECT 1 FROM member_vacations v WHERE v.member_id = \(memberID) AND v.status = 'active')"
    }

    /// The vacations of the household of `scope` not ended, of `memberIDs`, by start.
    static func current(of memberIDs: [String], _ scope: HouseholdScope) throws -> [VacationRecord] {
        guard !memberIDs.isEmpty else { return [] }
        return try scope.query(
            """
            SELECT \(columns) FROM member_vacations WHERE household_id = {household} AND status <> 'ended'
            AND member_id IN (\(ChoreReferences.placeholders(memberIDs.count))) ORDER BY starts_at, id
            """,
            ChoreReferences.arguments(memberIDs)
        ).map(VacationRecord.init(row:))
    }

    /// The vacation `id` of the household of `scope`, or `nil`.
    static func find(id: String, _ scope: HouseholdScope) throws -> VacationRecord? {
        try scope.queryOne("SELECT \(columns) FROM member_vacations WHERE id = ? AND household_id = {household}", [id]).map(VacationRecord.init(row:))
    }

    /// Ends the vacations of `memberID`, who left or was removed, in the household of `scope`: a
    /// member who is gone is no longer away (their active household already moved with the departure).
    static func endOnDeparture(of memberID: String, _ scope: ChoreScope, at now: Date) throws {
        try scope.household?.execute(
            "UPDATE member_vacations SET status = 'ended', ended_at = ?, updated_at = ? WHERE household_id = {household} AND member_id = ? AND status <> 'ended'",
            [now, now, memberID])
    }
}
