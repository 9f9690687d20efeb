import FoundationEssentials
import HearthDomain
import HearthStore

/// Habits and habit events (US 01.01 – 01.06, US 02, US 04, US 06.01 – 06.02): a user's habits with
/// their weekly plans, the events that record doing them (a comment, a photo, a place), and the
/// history of those events, searchable by habit and by word.
///
/// - **Ownership.** Habits belong to a user, not a household. Only the owner writes
///   (`+Habits`, `+Events`); anyone else gets `NOT_FOUND` for the owner's ids.
/// - **Reading.** Every read by id goes through ``HabitAudience``: the owner, or an accepted
///   follower for a habit visible to followers. Anything else is `NOT_FOUND`.
/// - **Days.** `occurredOn` is a calendar day in the owner's time zone (`User.timeZone`, UTC when
///   unset); it defaults to today there, and a day after today is refused.
/// - **Photos** (`+Photos`) are checked by content as avatars are (``ImageRules``), kept in
///   `habit_photos` under 65,536 bytes, and go with their event.
/// - **Changes** are recorded in the change log (``HabitChange``) in the transaction that makes
///   them, in the scope that may see them: `followers:<owner>` when the habit is visible to
///   followers before or after the change, `user:<owner>` when it stays private (``scope(of:_:)``).
public final class HabitService: Sendable {
    /// The limits.
    public let configuration: HabitsConfiguration
    /// The grid's limits, which the history's `near` filter shares with `habitEventsNear`.
    public let geo: GeoConfiguration
    /// Accounts, the change log and the store (through the households service, like the chores').
    public let households: HouseholdService

    /// Creates the service.
    public init(configuration: HabitsConfiguration, geo: GeoConfiguration = GeoConfiguration(), households: HouseholdService) {
        self.configuration = configuration
        self.geo = geo
        self.households = households
    }

    var pool: any DatabaseWriter { households.pool }
    var clock: any ServiceClock { households.clock }

    /// What a habit mutation's replay record keeps: the habit it changed.
    struct HabitReference: Codable, Sendable {
        var habitID: String
    }

    /// What a habit event mutation's replay record keeps: the event it changed.
    struct EventReference: Codable, Sendable {
        var eventID: String
    }

    /// Runs `change` as `viewer`'s mutation of their own objects
    /// (``HouseholdService/mutateOwn(_:by:replaying:about:_:)``).
    func mutate<Result: Codable & Sendable>(
        _ mutation: String, by viewer: Viewer, replaying clientMutationID: String?, about target: String? = nil,
        _ change: @escaping @Sendable (OwnerScope, Date) throws -> Result
    ) async throws -> Result {
        try await households.mutateOwn(mutation, by: viewer, replaying: clientMutationID, about: target, change)
    }

    /// Records `kind` in the scope of a habit whose visibility was `visibilities` before and after
    /// the change (``scope(of:_:)``), listing `touching` besides the payload's objects, to publish
    /// after commit.
    func record(
        _ kind: EventKind, _ change: HabitChange, visibilities: Set<HabitVisibility>, touching: [String] = [], in owner: OwnerScope
    ) throws {
        try households.changeLog.record(
            topic: Self.scope(of: change.userID, visibilities), kind: kind, payload: change, touching: touching, in: owner.database)
    }

    /// The change-log topic of a change to `userID`'s habit that was visible as `visibilities`
    /// before and after it: `followers:<owner>` (read by the owner and their accepted followers)
    /// when either is `followers`, so followers learn of a habit made private (and, from then on,
    /// not visible: a tombstone) or made visible; `user:<owner>` (the owner only) otherwise, so
    /// nothing of a private habit reaches anyone else, not even its id.
    static func scope(of userID: String, _ visibilities: Set<HabitVisibility>) -> Topic {
        visibilities.contains(.followers) ? .followers(userID) : .user(userID)
    }

    /// The owner's time zone (`User.timeZone`), UTC when unset or unknown.
    static func timeZone(of owner: OwnerScope) throws -> TimeZoneRules {
        try owner.timeZone()
    }

    /// The error of an id that names nothing the viewer may see (or change).
    static func notFound(_ what: String) -> ServiceError {
        ServiceError(.notFound, "No such \(what).")
    }
}
