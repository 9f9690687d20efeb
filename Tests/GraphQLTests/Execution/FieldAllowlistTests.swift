import Synchronization
import Testing
@testable import GraphQL

/// `FieldAllowlist.covers(_:)`: a field's selection is covered only when every field it reaches,
/// through fragments, inline fragments and at every depth, is listed.
struct FieldAllowlistTests {
    /// What `Query.list`'s resolver answered, one entry per call.
    final class Seen: Sendable {
        let covered = Mutex<[Bool]>([])
    }

    static let allowlist = FieldAllowlist(["List": ["items", "next"], "Item": ["id", "name"]])

    static func executor(_ seen: Seen) throws -> Executor {
        try makeExecutor("""
            type Query { list: List }
            type List { items: [Item] next: List count: Int }
            type Item { id: ID name: String secret: String }
            """) { r in
            r.resolve("Query", "list") { _, _, _, info in
                seen.covered.withLock { $0.append(allowlist.covers(info)) }
                return nil
            }
        }
    }

    private func covered(_ query: String) async throws -> Bool {
        let seen = Seen()
        _ = try await execute(Self.executor(seen), query)
        return try #require(seen.covered.withLock { $0.first })
    }

    @Test func listedFieldsAtEveryDepthAndTypenameAreCovered() async throws {
        #expect(try await covered("{ list { items { id name __typename } next { items { id } } } }"))
        #expect(try await covered("{ list { __typename } }"))
    }

    @Test func anUnlistedFieldAtAnyDepthIsNot() async throws {
        #expect(try await !covered("{ list { count } }"))
        #expect(try await !covered("{ list { items { id secret } } }"))
        #expect(try await !covered("{ list { next { next { items { secret } } } } }"))
    }

    @Test func fragmentsCountWhatTheySelect() async throws {
        #expect(try await covered("{ list { ...L } } fragment L on List { items { ...I } } fragment I on Item { id }"))
        #expect(try await !covered("{ list { ...L } } fragment L on List { items { ...I } } fragment I on Item { secret }"))
        #expect(try await covered("{ list { ... on List { items { id } } ... { next { items { name } } } } }"))
        #expect(try await !covered("{ list { ... { count } } }"))
    }

    @Test func aSkippedFieldStillCounts() async throws {
        #expect(try await !covered("{ list { items { id secret @skip(if: true) } } }"))
    }
}
