import Foundation
import GraphQL
import HearthAPI
import Testing

/// Counters are derived from events and never overwritten (issue 17's conflict policy): no input a
/// mutation takes, however deeply nested, carries a balance, a score, a streak or an adherence that a
/// client could send from a stale copy.
@Suite struct DerivedCountersTests {
    /// Names of derived counters, as fields of the schema's output types spell them.
    static let counters: Set<String> = [
        "balance", "tokenBalance", "score", "points", "rank", "streak", "currentStreak", "bestStreak", "adherence", "completionCount",
    ]

    @Test func noMutationInputCarriesACounter() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let schema = try HearthSchema.build(sdl: try String(contentsOf: root.appendingPathComponent("schema.graphql"), encoding: .utf8))
        var seen: Set<String> = []
        var pending = try #require(schema.mutationType).fields.values.flatMap { $0.arguments.map(\.type.namedType) }
        var offending: [String] = []
        while let type = pending.popLast() {
            guard case .inputObject(let input) = type, seen.insert(input.name).inserted else { continue }
            for field in input.fields.values {
                if Self.counters.contains(field.name) { offending.append("\(input.name).\(field.name)") }
                pending.append(field.type.namedType)
            }
        }
        #expect(seen.contains("CompleteChoreInput") && seen.contains("RecordHabitEventInput"), "the walk reaches the inputs")
        #expect(offending.isEmpty, "inputs that would let a client overwrite a derived counter: \(offending)")
    }
}
