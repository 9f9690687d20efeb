import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreInstanceService {
    /// An instance with its chore and the access they were read with.
    public typealias AccessibleInstance = (instance: ChoreInstanceRecord, chore: ChoreRecord, access: ChoreAccess)

    /// The instance `id` when `viewer` may see it: a stored one (of a chore shared with them too,
    /// read-only), or one a chore of theirs produces beyond what is stored (computed, not written).
    /// - Throws: `NOT_FOUND` otherwise (unknown, malformed, of a deleted chore, another household's
    ///   or user's, alike).
    public func instance(id: String, viewer: Viewer) async throws -> AccessibleInstance {
        guard GlobalID.mayName(.choreInstance, id) else { throw ServiceError.instanceNotFound }
        return try await pool.readPreferringCallingThread { [self] database in try resolve(id: id, viewer: viewer, readingShared: true, in: database) }
    }

    /// ``instance(id:viewer:)`` inside the caller's transaction. Writes resolve without
    /// `readingShared`: an instance of a chore shared with the viewer is then `FORBIDDEN` (reason
    /// `SHARED_READ_ONLY`).
    func resolve(id: String, viewer: Viewer, readingShared: Bool = false, in database: Database) throws -> AccessibleInstance {
        guard GlobalID.mayName(.choreInstance, id) else { throw ServiceError.instanceNotFound }
        let owner = OwnerScope(Owner(viewer), database)
        // Only the viewer's own instances and those of their households are found at all.
        let stored = try owner.scalar(
            String.self,
            """
            SELECT chore_id FROM chore_instances WHERE id = ? AND (user_id = {owner} OR household_id IN (
                SELECT m.household_id FROM members m WHERE m.user_id = {owner} AND m.status = 'active') OR chore_id IN (\(ChoreShares.sharedChoreIDs)))
            """,
            [id])
        if let choreID = stored {
            let (chore, access) = try Self.chore(choreID, viewer: viewer, readingShared: readingShared, in: database)
            guard let instance = try ChoreInstanceRecord.find(id: id, access.scope(database)) else { throw ServiceError.instanceNotFound }
            return (instance, chore, access)
        }
        var accesses = HouseholdAccesses(viewer: viewer, database)
        guard let computed = try computed(id: id, owner, &accesses) else { throw ServiceError.instanceNotFound }
        return computed
    }

    /// Chore `choreID` and the viewer's access to it (a shared one only when `readingShared`).
    /// - Throws: ``ServiceError/instanceNotFound`` when they may not see it (or it was deleted);
    ///   ``ServiceError/sharedReadOnly`` for a chore shared with them when not `readingShared`.
    static func chore(_ choreID: String, viewer: Viewer, readingShared: Bool = false, in database: Database) throws -> (ChoreRecord, ChoreAccess) {
        do {
            let access = try ChoreAccess.check(viewer: viewer, owning: .chores, id: choreID, readingShared: readingShared, in: database)
            return (try ChoreRecord.find(id: choreID, access.scope(database)), access)
        } catch let error as ServiceError where error.code == .notFound {
            throw ServiceError.instanceNotFound
        }
    }

    /// The instance `id` names among the chores of `owner`'s account, when none is stored: the
    /// chores due at the occurrence the id carries (``ChoreInstanceID/occurrence(of:)``) beyond what
    /// their plan wrote, read in one statement, each member they are for, until one gives the id.
    /// The access to each chore's household comes from `accesses` (checked once per household).
    func computed(id: String, _ owner: OwnerScope, _ accesses: inout HouseholdAccesses) throws -> AccessibleInstance? {
        guard let occurrence = ChoreInstanceID.occurrence(of: id) else { return nil }
        let candidates = try owner.decode(
            ChoreRecord.self,
            """
            SELECT \(ChoreRecord.columns.qualified(by: "c")) FROM chores c LEFT JOIN chore_plans p ON p.chore_id = c.id
            WHERE c.deleted_at IS NULL AND (c.user_id = {owner} OR c.household_id IN (
                SELECT m.household_id FROM members m WHERE m.user_id = {owner} AND m.status = 'active'))
            AND (c.schedule_kind <> 'once' OR c.due_at = ?) AND (p.planned_through IS NULL OR p.planned_through < ?)
            ORDER BY c.id
            """,
            [occurrence, occurrence])
        let milliseconds = ChoreInstanceID.unixMilliseconds(occurrence)
        for chore in candidates {
            let access = try accesses.chores(chore.householdID)
            for instance in try planner.unplanned(chore, access.scope(owner.database), dueAt: occurrence) where instance.id == id {
                guard ChoreInstanceID.unixMilliseconds(instance.occurrenceAt) == milliseconds else { continue }
                return (instance, chore, access)
            }
        }
        return nil
    }
}

extension ChoreInstanceService {
    /// The stored instances `ids` granted by `access`, by id (what completions show as their instance).
    public func storedInstances(ids: [String], access: ChoreAccess) async throws -> [String: ChoreInstanceRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            let rows = try access.scope(database).query(
                "SELECT \(ChoreInstanceRecord.columns) FROM chore_instances WHERE {scope} AND id IN (\(ChoreReferences.placeholders(ids.count)))",
                ChoreReferences.arguments(ids))
            return Dictionary(uniqueKeysWithValues: try rows.map { row in let instance = try ChoreInstanceRecord(row: row); return (instance.id, instance) })
        }
    }

    /// The members `ids` of the household `access` grants, departed ones included (history keeps
    /// their names), by id.
    public func members(ids: [String], access: HouseholdAccess) async throws -> [String: MemberRecord] {
        guard !ids.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { try Self.members(ids: ids, access: access, in: SharedRead(database: $0)) }
    }

    /// ``members(ids:access:)`` in a shared read.
    public static func members(ids: [String], access: HouseholdAccess, in read: SharedRead) throws -> [String: MemberRecord] {
        guard !ids.isEmpty else { return [:] }
        let members = try HouseholdScope(access, read.database).decode(
            MemberRecord.self,
            "SELECT \(MemberRecord.columns) FROM members WHERE household_id = {household} AND id IN (\(ChoreReferences.placeholders(ids.count)))",
            ChoreReferences.arguments(ids))
        return Dictionary(uniqueKeysWithValues: members.map { ($0.id, $0) })
    }
}
