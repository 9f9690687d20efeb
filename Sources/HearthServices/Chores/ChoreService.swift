import FoundationEssentials
import HearthDomain
import HearthStore

/// Chore definitions (FR-25 – FR-32, FR-38 definitions, FR-43 – FR-48): chores of a household or
/// personal ones, their assignment, schedule, steps, permission rules, tags and presets, and the
/// household's chore-creation policy. Instances, completion, approval and tokens build on these
/// tables (migration 0012).
///
/// Scoping: every function first obtains a ``ChoreAccess`` inside its transaction (a household
/// membership, or the viewer's own account for personal chores) and reads and writes through its
/// ``ChoreScope``; chores, tags and members of households the caller is not in answer `NOT_FOUND`
/// exactly like unknown ids.
///
/// Permissions (FR-25, FR-26), enforced here: household admins may do everything; others create
/// chores as the household's creation policy allows and edit chores as each chore's editors rule
/// allows (``PermissionRule``); only admins set permission rules, delete chores (FR-34), manage
/// tags (FR-46) and save presets (FR-45). A refusal is `FORBIDDEN` whose `reason` names the rule
/// (``ServiceError/Reason/choreCreationPolicy``, ``ServiceError/Reason/choreEditors``,
/// ``ServiceError/Reason/adminsOnly``) and whose message says who the rule admits.
///
/// Mutations run in one write transaction each, through ``HouseholdService``'s replay protection
/// (`clientMutationId`), and record their change on the change log (``ChoreChange``). The split
/// across files: creating (`+Create`), editing and deleting (`+Update`), reading (`+Reads`, pages
/// in `ChorePage`), the related rows of many chores at once (`+Details`), tags (`+Tags`), presets
/// (`+Presets`), the creation policy (`+Policy`) and `node` lookups (`+Nodes`).
public final class ChoreService: Sendable {
    /// Limits.
    public let configuration: ChoresConfiguration
    /// Households: membership checks, replay protection, the change log, the checklist.
    public let households: HouseholdService

    /// Creates the service over `households`' store and change log.
    public init(configuration: ChoresConfiguration, households: HouseholdService) {
        self.configuration = configuration
        self.households = households
    }

    /// The store.
    var pool: any DatabaseWriter { households.pool }

    /// Runs `change` in one write transaction as `viewer`'s mutation `mutation`, remembered under
    /// `clientMutationID`, about `target` (``HouseholdService/mutate(_:by:replaying:about:at:_:)``).
    func mutate<Result: Codable & Sendable>(
        _ mutation: String, by viewer: Viewer, replaying clientMutationID: String?, about target: String? = nil,
        _ change: @escaping @Sendable (Database, Date) throws -> Result
    ) async throws -> Result {
        let now = households.clock.storedNow
        return try await households.mutate(mutation, by: viewer, replaying: clientMutationID, about: target, at: now) { database in
            try change(database, now)
        }
    }

    /// Records `kind` about the chores `access` grants on their topic, to publish after commit.
    func record(
        _ kind: EventKind, _ access: ChoreAccess, choreID: String? = nil, tagID: String? = nil, presetID: String? = nil, touching: [String] = [],
        in database: Database
    ) throws {
        let change = ChoreChange(
            householdID: access.household?.householdID, userID: access.isPersonal ? access.userID : nil, choreID: choreID, tagID: tagID,
            presetID: presetID)
        try households.changeLog.record(topic: access.topic, kind: kind, payload: change, touching: touching, in: database)
    }

    /// The IANA time zone of the chores of `scope`: the household's, or the owner's (UTC when
    /// they chose none) for personal chores; schedules are read in it.
    func timeZoneName(_ scope: ChoreScope) throws -> String {
        if let household = scope.household {
            return try HouseholdRecord.find(household).timeZone
        }
        let ownerID = scope.access.personalOwner?.userID ?? scope.access.userID
        return try scope.database.scalar(String.self, "SELECT time_zone FROM users WHERE id = ?", [ownerID]) ?? TimeZoneName.utc.name
    }
}

/// The chore a mutation's result names, as ``MutationReplay`` stores it for a replay.
struct ChoreReference: Codable {
    var choreID: String
}
