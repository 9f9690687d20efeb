import Synchronization
import Testing
@testable import GraphQL

/// `ResolveInfo.selectedArguments(of:)`: a resolver reading ahead sees the arguments its child
/// fields will get.
struct SelectedArgumentsTests {
    /// What `Query.list`'s resolver saw of its `items` fields, as text, one entry per call.
    final class Seen: Sendable {
        let arguments = Mutex<[[String]]>([])
    }

    static func executor(_ seen: Seen) throws -> Executor {
        try makeExecutor("""
            type Query { list: List, plain: Int }
            type List { items(first: Int, after: String): [Int] other(first: Int): Int }
            """) { r in
            r.resolve("Query", "list") { _, _, _, info in
                let arguments = info.selectedArguments(of: "items").map { arguments in
                    arguments.values.map { "\($0.key)=\($0.value.jsonText)" }.joined(separator: ",")
                }
                seen.arguments.withLock { $0.append(arguments) }
                return ["items": [1, 2], "other": 3] as [String: any Sendable]
            }
            r.resolve("Query", "plain") { _, _, _, info in info.selectedArguments(of: "items").count }
        }
    }

    @Test func seesLiteralsVariablesFragmentsAndAliasesOfTheSelectedChildFields() async throws {
        let seen = Seen()
        let executor = try Self.executor(seen)
        _ = try await execute(executor, "{ list { items(first: 2) other(first: 9) } }")
        _ = try await execute(executor, #"query ($n: Int) { list { ...F a: items(first: $n, after: "x") } } fragment F on List { items }"#,
                              variables: ["n": 5])
        _ = try await execute(executor, "{ list { other } }")
        #expect(seen.arguments.withLock { $0 } == [["first=2"], ["", #"first=5,after="x""#], []])
    }

    @Test func appliesSkipAndIncludeWithTheRequestsVariables() async throws {
        let seen = Seen()
        let executor = try Self.executor(seen)
        let query = "query ($skip: Boolean!, $n: Int) { list { items(first: $n) @skip(if: $skip) } }"
        _ = try await execute(executor, query, variables: ["skip": true, "n": 1])
        _ = try await execute(executor, query, variables: ["skip": false, "n": 1])
        #expect(seen.arguments.withLock { $0 } == [[], ["first=1"]])
    }

    @Test func isEmptyForAFieldWhoseTypeIsNotAnObject() async throws {
        let result = try await execute(Self.executor(Seen()), "{ plain }")
        #expect(result == #"{"data":{"plain":0}}"#)
    }
}
