import FoundationEssentials
import HearthDomain
import HearthStore

/// Ids clients make offline for the objects they create (`input.id` of a create mutation), so a
/// queued change can name an object that has not reached the server yet (record an event of a
/// habit made offline). Every create that takes one asks ``claim(_:_:field:_:at:)`` first, inside
/// its write transaction, and does what the answer says.
///
/// The rules (README, "Offline clients and conflicts"):
/// - The id is the object's global id form, `<prefix>_<lowercase UUID>` (``GlobalID``); anything
///   else is `BAD_USER_INPUT` (`INVALID_FORMAT`). A well-formed id of another type is
///   `BAD_USER_INPUT` with reason `ID_TAKEN`.
/// - The same user creating again with an id they used gets the first object back and nothing
///   changes, whatever the `clientMutationId` (`client_ids` remembers who made it as long as the
///   object lives, after its replay record is pruned).
/// - An id another account used, or that names any stored or deleted object, is
///   `BAD_USER_INPUT` with reason `ID_TAKEN`, worded without saying whose or what.
/// - An id of an object the same user made and then deleted is `NOT_FOUND` with reason
///   `DELETED`: deletes win, it is never made again.
enum ClientIDs {
    /// What a create does with the id it was given.
    enum Claim: Equatable {
        /// Create the object with this id: the client's, or a new one the server made.
        case create(String)
        /// The same user already created the object with this id: answer with it, change nothing.
        case existing(String)
    }

    /// The table of each kind of object a client may create with its own id.
    static let tables: [GlobalID.Kind: String] = [
        .household: "households", .member: "members", .chore: "chores", .tag: "tags", .chorePreset: "chore_presets",
        .reward: "rewards", .habit: "habits", .habitEvent: "habit_events", .follow: "follows", .parentalConsent: "parental_consents",
        .availabilityEvent: "availability_events",
    ]

    /// Decides what a create of a `kind` object by the owner does with `text`, the id the client
    /// sent at `field` (`nil`: the server makes one). A new client id is registered to the owner
    /// in the caller's transaction, so it commits (or rolls back) with the object.
    /// - Throws: `BAD_USER_INPUT` (`INVALID_FORMAT`, `ID_TAKEN`), `NOT_FOUND` (`DELETED`).
    static func claim(_ text: String?, _ kind: GlobalID.Kind, field: String = "input.id", _ owner: OwnerScope, at now: Date) throws -> Claim {
        guard let text else { return .create(GlobalID.make(kind, now: now).rawValue) }
        guard let id = GlobalID(rawValue: text) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: field, reason: .invalidFormat, message: "An id you make is \(kind.rawValue)_ and a UUID in lowercase, e.g. from UUID().")]))
        }
        guard id.kind == kind, let table = tables[kind] else { throw taken(field) }
        if try owner.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM client_ids WHERE id = ? AND user_id = {owner})", [text]) == true {
            if try Tombstones.isDeleted(text, owner.database) { throw Tombstones.deleted }
            return .existing(text)
        }
        if try isTaken(text, table: table, owner.database) { throw taken(field) }
        try owner.execute("INSERT INTO client_ids (id, kind, user_id, created_at) VALUES (?, ?, {owner}, ?)", [text, kind.rawValue, now])
        return .create(text)
    }

    /// Whether `id` is anyone's: made by another account, or the id of a stored or deleted object
    /// of `table` (a server-made one included). Reads existence only, across accounts and
    /// households, since an id is unique everywhere.
    private static func isTaken(_ id: String, table: String, _ database: Database) throws -> Bool {
        try database.scalar(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM client_ids WHERE id = ?) OR EXISTS (SELECT 1 FROM tombstones WHERE id = ?)
                OR EXISTS (SELECT 1 FROM \(table) WHERE id = ?)
            """,
            [id, id, id]) ?? false
    }

    /// The refusal of an id that is not the caller's to use, the same whoever or whatever has it.
    private static func taken(_ field: String) -> ServiceError {
        ServiceError.invalid(InputProblems([FieldProblem(
            field: field, reason: .idTaken, message: "This id is already in use. Make a new one for a new object.")]))
    }
}
