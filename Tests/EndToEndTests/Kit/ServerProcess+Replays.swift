import Foundation
import GraphQL
import HearthStore
import Testing

/// Replays of every mutation through the binary (issue 17, "replay everywhere").
extension ServerProcess {
    /// Tables whose rows change without a mutation (scheduled jobs, mail delivery, sessions a
    /// request refreshes): left out of ``contents()``.
    static let backgroundTables: Set<String> = ["jobs", "mail_outbox", "sessions", "spent_refresh_tokens", "change_log_retention"]

    /// Every row of every other table, by table: what a replay must leave as it found it.
    func contents() throws -> [String: [Row]] {
        let pool = try DatabasePool(path: databasePath)
        defer { pool.close() }
        return try pool.read { database in
            let tables: [String] = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                .map { try $0["name"] }
            var contents: [String: [Row]] = [:]
            for table in tables where !Self.backgroundTables.contains(table) && !table.contains("search") {
                contents[table] = try database.query("SELECT * FROM \"\(table)\"")
            }
            return contents
        }
    }

    /// Sends mutation `name` (input type `inputType`) with `fields` under the `clientMutationId`
    /// `<name>-replay`, then again with `changed` merged into the input: the first must succeed,
    /// the replay must answer the same `clientMutationId` without an error and leave every table as
    /// the first left it (after the jobs it caused have run). Returns the first payload (select
    /// what later steps need with `selection`).
    @discardableResult
    func expectReplay(
        _ name: String, _ inputType: String, _ fields: [String: JSON], changed: [String: JSON] = [:], selecting selection: String = "",
        as person: Person, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> JSON {
        let document = "mutation($input: \(inputType)!) { \(name)(input: $input) { clientMutationId \(selection) } }"
        let clientMutationID: JSON = .string("\(name)-replay")
        let first = try graphQL(document, variables: Self.input(fields.merging(["clientMutationId": clientMutationID]) { _, new in new }), token: person.token)
        #expect(first.json["errors"] == nil, "\(name): \(first.json)", sourceLocation: sourceLocation)
        try waitForDueJobs()
        let before = try contents()
        let replayed = fields.merging(changed) { _, new in new }.merging(["clientMutationId": clientMutationID]) { _, new in new }
        let replay = try graphQL(document, variables: Self.input(replayed), token: person.token)
        #expect(replay.json["errors"] == nil, "\(name) replayed: \(replay.json)", sourceLocation: sourceLocation)
        #expect(replay.data?[name]?["clientMutationId"] == clientMutationID, "\(name)", sourceLocation: sourceLocation)
        try waitForDueJobs()
        let after = try contents()
        let differing = before.keys.filter { before[$0] != after[$0] }.sorted()
        #expect(differing.isEmpty, "\(name)'s replay changed \(differing)", sourceLocation: sourceLocation)
        return first.data?[name] ?? .null
    }
}
