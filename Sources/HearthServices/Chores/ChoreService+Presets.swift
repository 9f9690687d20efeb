import FoundationEssentials
import HearthDomain
import HearthStore

extension ChoreService {
    /// The preset library (FR-43): `householdID`'s saved presets (when given: a household of
    /// `viewer`'s) and the built-in ones, whose words all start words of `search` (title,
    /// description, steps, tags) and which carry the tag named `tag`; the first `first` (at most
    /// 100) after the preset `after`.
    /// - Throws: `NOT_FOUND` for a household the viewer is not in; `BAD_USER_INPUT` for `first`
    ///   outside 0–100 or an `after` that is not a preset of the list.
    public func presets(
        householdID: String?, search: String? = nil, tag: String? = nil, first: Int? = nil, after: String? = nil, viewer: Viewer
    ) async throws -> PresetPage {
        if let first, !(0...PresetPage.maximumSize).contains(first) {
            throw ServiceError.invalid(InputProblems([
                FieldProblem(field: "first", reason: .outOfRange, message: "Ask for 0 to \(PresetPage.maximumSize) presets at a time.")]))
        }
        if let householdID, !GlobalID.mayName(.household, householdID) { throw ServiceError.householdNotFound }
        let saved = try await pool.readPreferringCallingThread { database -> [ChorePreset] in
            guard let householdID else { return [] }
            return try HouseholdPresets.all(HouseholdScope.check(viewer: viewer, householdID: householdID, in: database))
        }
        let builtIn = BuiltInPresets.all.sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }
        let matching = (saved + builtIn).filter { preset in
            (search.map(preset.matches(search:)) ?? true) && (tag.map(preset.hasTag(named:)) ?? true)
        }
        guard let page = PresetPage(matching, first: first ?? PresetPage.maximumSize, after: after) else {
            throw ServiceError.invalid(InputProblems([
                FieldProblem(field: "after", reason: .invalidFormat, message: "This cursor is not one this list gave out.")]))
        }
        return page
    }

    /// The onboarding wizard's quick-start templates (D-ONBOARD-2): one built-in preset per
    /// ``QuickStartAudience``, in its order.
    public var quickStartPresets: [ChorePreset] {
        QuickStartAudience.allCases.compactMap { audience in BuiltInPresets.all.first { $0.quickStart == audience } }
    }

    /// Preset `id` when `viewer` may see it: built in, or saved by one of their households.
    /// - Throws: `NOT_FOUND` otherwise.
    public func preset(id: String, viewer: Viewer) async throws -> ChorePreset {
        if let preset = BuiltInPresets.preset(id: id) { return preset }
        guard Self.isTyped(.chorePreset, id) else { throw ServiceError.presetNotFound }
        return try await pool.readPreferringCallingThread { database in try Self.householdPreset(id: id, viewer: viewer, in: database).preset }
    }

    /// The household preset `id` and the access to its household, for `viewer`, inside the caller's transaction.
    /// - Throws: `NOT_FOUND` for a preset that is unknown or of a household the viewer is not in, alike.
    static func householdPreset(id: String, viewer: Viewer, in database: Database) throws -> (preset: ChorePreset, access: ChoreAccess) {
        guard let householdID = try database.scalar(String.self, "SELECT household_id FROM chore_presets WHERE id = ?", [id]) else {
            throw ServiceError.presetNotFound
        }
        do {
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            guard let preset = try HouseholdPresets.find(id: id, scope) else { throw ServiceError.presetNotFound }
            return (preset, ChoreAccess(scope.access))
        } catch let error as ServiceError where error.code == .notFound {
            throw ServiceError.presetNotFound
        }
    }

    /// Preset `id` for a chore of `scope`: built in, or one of the household's.
    /// - Throws: `NOT_FOUND` naming `input.presetId` otherwise.
    func preset(id: String, _ scope: ChoreScope) throws -> ChorePreset {
        if let preset = BuiltInPresets.preset(id: id) { return preset }
        if Self.isTyped(.chorePreset, id), let household = scope.household, let preset = try HouseholdPresets.find(id: id, household) {
            return preset
        }
        throw ServiceError(.notFound, "No such chore preset.", problems: [
            FieldProblem(field: "input.presetId", reason: .unknownValue, message: "No such chore preset.")])
    }

    /// Saves household chore `choreID`'s configuration as a preset of its household (FR-45), named
    /// `title` (the chore's title when `nil`): its title, description, schedule (a recurrence keeps
    /// its rule and time of day; a one-off chore's date is not kept), steps, tags, tokens and mode.
    /// Admins only.
    /// - Throws: `NOT_FOUND`; `FORBIDDEN` (reason `ADMINS_ONLY`); `BAD_USER_INPUT` for a title, or
    ///   for a personal chore (`input.choreId`, `NOT_ALLOWED`: presets are a household's);
    ///   `CONFLICT` for a title in use (`TAKEN`), at the presets limit (`LIMIT_REACHED`), or a reused
    ///   `clientMutationID`; for `id` (made offline, `prs_<uuid>`), as ``ClientIDs/claim(_:_:field:_:at:)``.
    public func saveChorePreset(
        choreID: String, title: String? = nil, id: String? = nil, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> ChorePreset {
        var problems = ProblemCollector()
        let title = title.flatMap { text in problems.check { () throws(FieldProblem) in try DisplayText.name(text, field: "input.title") } }
        try problems.throwIfAny()
        let saved = try await mutate("saveChorePreset", by: viewer, replaying: clientMutationID) { [self] database, now in
            let access = try ChoreAccess.check(viewer: viewer, owning: .chores, id: choreID, in: database)
            let scope = access.scope(database)
            guard let household = scope.household else {
                throw ServiceError.invalid(InputProblems([
                    FieldProblem(field: "input.choreId", reason: .notAllowed, message: "Presets belong to a household: save one of its chores.")]))
            }
            try ensureManager(scope, "save chore presets")
            let presetID: String
            switch try ClientIDs.claim(id, .chorePreset, OwnerScope(Owner(viewer), database), at: now) {
            case .existing(let made): return PresetReference(presetID: made)
            case .create(let new): presetID = new
            }
            let count = try household.scalar(Int.self, "SELECT count(*) FROM chore_presets WHERE household_id = {household}") ?? 0
            guard count < configuration.maximumPresetsPerHousehold else {
                throw ServiceError(.conflict, reason: .limitReached, "The household has \(count) presets, the most allowed. Delete one first.")
            }
            let chore = try ChoreRecord.find(id: choreID, scope)
            let preset = ChorePreset(
                id: presetID, householdID: household.access.householdID, title: title ?? chore.title,
                description: chore.description, schedule: PresetSchedule(chore.schedule),
                steps: try (ChoreDetails.steps(of: [choreID], scope)[choreID] ?? []).map(\.title),
                tagNames: try (ChoreDetails.tags(of: [choreID], scope)[choreID] ?? []).map(\.name), tokens: chore.tokens,
                assignmentMode: chore.assignmentMode == .individual || chore.assignmentMode == .group ? .singleAction : chore.assignmentMode,
                ageBand: .adults, createdAt: now)
            try HouseholdPresets.insert(preset, createdBy: viewer.userID, household)
            try record(.chorePresetSaved, access, presetID: preset.id, in: database)
            return PresetReference(presetID: preset.id)
        }
        return try await preset(id: saved.presetID, viewer: viewer)
    }

    /// Deletes the household preset `id`; chores made from it stay. Admins only.
    /// - Returns: The preset's id (also on a replay).
    /// It leaves a tombstone (``Tombstones``).
    /// - Throws: `NOT_FOUND` (also for a built-in preset; reason `DELETED` for one deleted already),
    ///   `FORBIDDEN` (reason `ADMINS_ONLY`), `CONFLICT` for a reused `clientMutationID`.
    public func deleteChorePreset(id: String, viewer: Viewer, clientMutationID: String? = nil) async throws -> String {
        guard Self.isTyped(.chorePreset, id), BuiltInPresets.preset(id: id) == nil else { throw ServiceError.presetNotFound }
        return try await mutate("deleteChorePreset", by: viewer, replaying: clientMutationID, about: id) { [self] database, now in
            let access = try Self.householdPreset(id: id, viewer: viewer, in: database).access
            let scope = access.scope(database)
            try ensureManager(scope, "delete chore presets")
            try Tombstones.record([id], .chorePreset, scope: access.topic, at: now, in: database)
            try scope.household!.execute("DELETE FROM chore_presets WHERE id = ? AND household_id = {household}", [id])
            try record(.chorePresetDeleted, access, presetID: id, in: database)
            return PresetReference(presetID: id)
        }.presetID
    }
}

/// The preset a mutation's result names, as ``MutationReplay`` stores it.
struct PresetReference: Codable {
    var presetID: String
}
