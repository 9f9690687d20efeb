import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreService {
    /// The tags of `householdID`, or `viewer`'s personal tags when it is `nil` (FR-46), by name
    /// (case-insensitively), with the access they were read with.
    /// - Throws: `NOT_FOUND` for a household the viewer is not in.
    public func tags(householdID: String?, viewer: Viewer) async throws -> (tags: [TagRecord], access: ChoreAccess) {
        if let householdID, !GlobalID.mayName(.household, householdID) { throw ServiceError.householdNotFound }
        return try await pool.readPreferringCallingThread { database in
            let access = try ChoreAccess.check(viewer: viewer, householdID: householdID, in: database)
            return (try Self.tags(access.scope(database)), access)
        }
    }

    /// Tag `id` when `viewer` may see it.
    /// - Throws: `NOT_FOUND` otherwise.
    public func tag(id: String, viewer: Viewer) async throws -> (tag: TagRecord, access: ChoreAccess) {
        try await pool.readPreferringCallingThread { database in
            let access = try ChoreAccess.check(viewer: viewer, owning: .tags, id: id, in: database)
            return (try Self.tag(id: id, access.scope(database)), access)
        }
    }

    /// Creates a tag (FR-46) in `householdID` (admins only), or a personal tag of `viewer` when it is `nil`.
    /// - Throws: `BAD_USER_INPUT` (`input.name`: empty, over 32 characters, not one line;
    ///   `input.color`); `NOT_FOUND`; `FORBIDDEN` (reason `ADMINS_ONLY`); `CONFLICT` for a name in
    ///   use (reason `TAKEN` on `input.name`, whatever its case), at the tags limit, or for a reused
    ///   `clientMutationID`; for `id` (made offline, `tag_<uuid>`), as ``ClientIDs/claim(_:_:field:_:at:)``.
    public func createTag(
        householdID: String?, name: String, color: String? = nil, id: String? = nil, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> (tag: TagRecord, access: ChoreAccess) {
        let (name, color) = try Self.checkedTag(name: name, color: color.map { .some($0) })
        let created = try await mutate("createTag", by: viewer, replaying: clientMutationID) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, householdID: householdID, in: database)
            let scope = access.scope(database)
            try ensureManager(scope, "manage the household's tags")
            switch try ClientIDs.claim(id, .tag, OwnerScope(Owner(viewer), database), at: now) {
            case .existing(let made): return TagReference(tagID: made)
            case .create(let new): return TagReference(tagID: try insertTag(id: new, name: name!, color: color ?? nil, scope, at: now))
            }
        }
        return try await tag(id: created.tagID, viewer: viewer)
    }

    /// Renames or recolours tag `id` (`color` `.some(nil)` removes the colour). Admins of its
    /// household, or its owner.
    /// - Throws: as ``createTag(householdID:name:color:viewer:clientMutationID:)``.
    public func updateTag(
        id: String, name: String? = nil, color: String?? = nil, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> (tag: TagRecord, access: ChoreAccess) {
        let (name, color) = try Self.checkedTag(name: name, color: color)
        let updated = try await mutate("updateTag", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, owning: .tags, id: id, in: database)
            let scope = access.scope(database)
            try ensureManager(scope, "manage the household's tags")
            let current = try Self.tag(id: id, scope)
            let newName = name ?? current.name
            let newColor = color ?? current.color
            guard newName != current.name || newColor != current.color else { return TagReference(tagID: id) }
            try ensureNameFree(newName, except: id, scope)
            try scope.execute(
                "UPDATE tags SET name = ?, name_key = ?, color = ?, updated_at = ? WHERE id = ? AND {scope}",
                [newName, DisplayText.sortKey(newName), newColor, now, id])
            try record(.tagUpdated, access, tagID: id, in: database)
            return TagReference(tagID: id)
        }
        return try await tag(id: updated.tagID, viewer: viewer)
    }

    /// Deletes tag `id`: it is removed from every chore carrying it; the chores stay (FR-46).
    /// Admins of its household, or its owner.
    /// - Returns: The tag's id (also on a replay).
    /// It leaves a tombstone (``Tombstones``).
    /// - Throws: `NOT_FOUND` (reason `DELETED` for a tag deleted already), `FORBIDDEN` (reason
    ///   `ADMINS_ONLY`), `CONFLICT` for a reused `clientMutationID`.
    public func deleteTag(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        try await mutate("deleteTag", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, owning: .tags, id: id, in: database)
            let scope = access.scope(database)
            try ensureManager(scope, "manage the household's tags")
            try Tombstones.record([id], .tag, scope: access.topic, at: now, in: database)
            // The tag's shares go with it: ended first, while they list their objects.
            try Self.recordEnd(ofSharesWhere: "tag_id = ?", id, households.changeLog, at: now, in: database)
            // `chore_tags` cascades: the chores lose the tag, nothing else.
            try scope.execute("DELETE FROM tags WHERE id = ? AND {scope}", [id])
            try record(.tagDeleted, access, tagID: id, in: database)
            return TagReference(tagID: id)
        }.tagID
    }

    /// The ids of the tags of `scope` named `names` (case-insensitively), in order: what a chore
    /// made from a preset gets. Missing ones are created when `creatingMissing` (the caller manages
    /// tags) and the tags limit leaves room; otherwise left out.
    func tagIDs(named names: [String], creatingMissing: Bool, _ scope: ChoreScope, at now: Date) throws -> [String] {
        let existing = Dictionary(try Self.tags(scope).map { ($0.name.lowercased(), $0.id) }) { first, _ in first }
        var count = existing.count
        return try names.compactMap { name in
            if let id = existing[name.lowercased()] { return id }
            guard creatingMissing, count < configuration.maximumTagsPerOwner else { return nil }
            count += 1
            return try insertTag(id: GlobalID.make(.tag, now: now).rawValue, name: name, color: nil, scope, at: now)
        }
    }

    /// Inserts a tag with `id` into `scope` and records it; returns its id.
    /// - Throws: `CONFLICT` for a name in use (`TAKEN`) or at the limit (`LIMIT_REACHED`).
    private func insertTag(id: String, name: String, color: String?, _ scope: ChoreScope, at now: Date) throws -> String {
        let count = try scope.scalar(Int.self, "SELECT count(*) FROM tags WHERE {scope}") ?? 0
        guard count < configuration.maximumTagsPerOwner else {
            throw ServiceError(.conflict, reason: .limitReached, "There are \(count) tags here, the most allowed. Delete one first.")
        }
        try ensureNameFree(name, except: nil, scope)
        try scope.execute(
            "INSERT INTO tags (id, household_id, user_id, name, name_key, color, created_at, updated_at) VALUES (?, {scope_ids}, ?, ?, ?, ?, ?)",
            [id, name, DisplayText.sortKey(name), color, now, now])
        try record(.tagCreated, scope.access, tagID: id, in: scope.database)
        return id
    }

    /// Refuses a name another tag of `scope` has, whatever its case.
    /// - Throws: `CONFLICT` with reason `TAKEN` on `input.name`.
    private func ensureNameFree(_ name: String, except id: String?, _ scope: ChoreScope) throws {
        let taken = try scope.scalar(
            Bool.self, "SELECT EXISTS (SELECT 1 FROM tags WHERE {scope} AND name_key = ? AND id IS DISTINCT FROM ?)",
            [DisplayText.sortKey(name), id]) ?? false
        if taken {
            throw ServiceError(.conflict, "There is a tag of that name already.", problems: [
                FieldProblem(field: "input.name", reason: .taken, message: "There is a tag of that name already.")])
        }
    }

    /// `name` and `color` checked (each `nil` when not given; `color` `.some(nil)` to remove it).
    /// - Throws: `BAD_USER_INPUT` listing every problem.
    private static func checkedTag(name: String?, color: String??) throws -> (String?, String??) {
        var problems = ProblemCollector()
        let checkedName = name.flatMap { text in
            problems.check { () throws(FieldProblem) in try DisplayText.name(text, field: "input.name", maximumLength: ChoreRules.maximumTagNameLength) }
        }
        let checkedColor: String?? = color.map { text in
            text.flatMap { value in problems.check { () throws(FieldProblem) in try TagColor(value, field: "input.color").hex } }
        }
        try problems.throwIfAny()
        return (checkedName, checkedColor)
    }

    /// The tags of `scope`, by name.
    static func tags(_ scope: ChoreScope) throws -> [TagRecord] {
        try scope.decode(TagRecord.self, "SELECT \(TagRecord.columns) FROM tags WHERE {scope} ORDER BY name_key, id")
    }

    /// Tag `id` of `scope`.
    static func tag(id: String, _ scope: ChoreScope) throws -> TagRecord {
        guard let tag = try scope.decodeOne(TagRecord.self, "SELECT \(TagRecord.columns) FROM tags WHERE id = ? AND {scope}", [id]) else {
            throw ServiceError.tagNotFound
        }
        return tag
    }
}

/// The tag a mutation's result names, as ``MutationReplay`` stores it.
struct TagReference: Codable {
    var tagID: String
}
