import FoundationEssentials
import HearthDomain
import HearthStore

/// A household's saved presets (FR-45), in `chore_presets`: one row each, its configuration as
/// the JSON of a ``ChorePreset`` (decoded here, in Swift, as portable SQL wants).
enum HouseholdPresets {
    /// The presets of the household of `scope`, by title.
    static func all(_ scope: HouseholdScope) throws -> [ChorePreset] {
        try scope.query(
            "SELECT id, household_id, configuration, created_at FROM chore_presets WHERE household_id = {household} ORDER BY title_key, id"
        ).map(preset)
    }

    /// Preset `id` of the household of `scope`, if any.
    static func find(id: String, _ scope: HouseholdScope) throws -> ChorePreset? {
        try scope.queryOne(
            "SELECT id, household_id, configuration, created_at FROM chore_presets WHERE id = ? AND household_id = {household}", [id]
        ).map(preset)
    }

    /// The presets among `ids` of the households the account of `owner` is an active member of,
    /// in one statement (`node`/`nodes`): others' answer like unknown ids, by being absent.
    static func find(ids: [String], _ owner: OwnerScope) throws -> [ChorePreset] {
        try owner.query(
            """
            SELECT id, household_id, configuration, created_at FROM chore_presets WHERE id IN (\(ChoreReferences.placeholders(ids.count)))
            AND household_id IN (SELECT household_id FROM members WHERE user_id = {owner} AND status = 'active')
            """,
            ChoreReferences.arguments(ids)
        ).map(preset)
    }

    /// Saves `preset` (its id and household are the row's).
    /// - Throws: `CONFLICT` (reason `TAKEN` on `input.title`) when the household has a preset of that title.
    static func insert(_ preset: ChorePreset, createdBy userID: String, _ scope: HouseholdScope) throws {
        let configuration = String(decoding: try JSONEncoder().encode(preset), as: UTF8.self)
        try scope.execute(
            """
            INSERT INTO chore_presets (id, household_id, title, title_key, configuration, created_by, created_at)
            VALUES (?, {household}, ?, ?, ?, ?, ?) ON CONFLICT (household_id, title_key) DO NOTHING
            """,
            [preset.id, preset.title, DisplayText.sortKey(preset.title), configuration, userID, preset.createdAt])
        guard scope.changedRowCount == 1 else {
            throw ServiceError(.conflict, "The household has a preset of that title.", problems: [
                FieldProblem(field: "input.title", reason: .taken, message: "The household has a preset of that title.")])
        }
    }

    private static func preset(_ row: Row) throws -> ChorePreset {
        var preset = try JSONDecoder().decode(ChorePreset.self, from: Data((try row["configuration"] as String).utf8))
        preset.id = try row["id"]
        preset.householdID = try row["household_id"]
        preset.createdAt = try row["created_at"]
        return preset
    }
}
