import HearthServices

/// What the instances and completions of one result set load together, per access (a household,
/// or the viewer's personal chores): their chores' related rows (through one ``ChoreBatch``),
/// completions per instance, members, chores and instances by id. One query per kind of row
/// whatever the length of the list (no query per item), completions and members in the chore
/// batch's ``LoaderGroup`` (one read transaction with the chores' rows); made per result set, so
/// nothing is cached across operations.
final class InstanceBatch: Sendable {
    /// What everything is read with.
    let access: ChoreAccess
    /// The chores' own related rows (assignees, steps, tags, rules, household).
    let choreBatch: ChoreBatch
    let completions: DataLoader<String, [ChoreCompletionRecord]>
    let members: DataLoader<String, MemberRecord>
    let chores: DataLoader<String, ChoreRecord>
    let instances: DataLoader<String, ChoreInstanceRecord>
    let services: InstanceServices

    /// A batch for objects granted by `access`.
    init(access: ChoreAccess, services: InstanceServices) {
        self.access = access
        self.services = services
        let instances = services.instances
        choreBatch = ChoreBatch(access: access, chores: services.chores)
        completions = DataLoader(group: choreBatch.group) { try ChoreInstanceService.completions(of: $0, access: access, in: $1) }
        members = DataLoader(group: choreBatch.group) { ids, read in
            guard let household = access.household else { return [:] }
            return try ChoreInstanceService.members(ids: ids, access: household, in: read)
        }
        chores = DataLoader { try await instances.choreRecords(ids: $0, access: access) }
        self.instances = DataLoader { try await instances.storedInstances(ids: $0, access: access) }
    }

    /// The `Chore` value of `record`, sharing this batch's chore rows.
    func chore(_ record: ChoreRecord) -> ChoreValue {
        ChoreValue(record: record, batch: choreBatch)
    }

    /// The `Member` value of member `id`, loaded with the batch.
    func member(_ id: String?) -> (@Sendable () async throws -> MemberValue?) {
        guard let id, let household = access.household else { return { nil } }
        let load = members.load(id)
        return { try await load().map { MemberValue(record: $0, access: household) } }
    }
}

/// The services the instance values read through.
struct InstanceServices: Sendable {
    let chores: ChoreService
    let instances: ChoreInstanceService
}
