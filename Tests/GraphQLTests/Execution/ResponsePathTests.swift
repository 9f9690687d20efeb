import Testing
@testable import GraphQL

/// The paths the executor gives resolvers and errors, wherever the value lies: in lists,
/// nested lists, after failed siblings, and under async work (where the path is carried over
/// to the values completed once the work is done).
struct ResponsePathTests {
    /// Rows are numbers (`slowRow` resolves its `id` asynchronously): `child` of row n is row n + 10 (for rows below 10), `value` is null
    /// for row 2, `failing` throws for row 12, `where` and `slowWhere` (async) answer the
    /// path their resolver was given.
    static func executor() throws -> Executor {
        try makeExecutor("""
            type Query { rows: [Row] strictRows: [Row!] slowRow(id: Int = 1): Row lists: [[Row!]] fail: String }
            type Row { id: Int! value: Int! child: Row where: String slowWhere: String failing: String }
            """) { r in
            r.resolve("Query", "rows") { _, _, _, _ in [1, 2, 3] }
            r.resolve("Query", "strictRows") { _, _, _, _ in [1, 2, 3] }
            r.resolveAsync("Query", "slowRow") { _, arguments, _, _ in
                await Task.yield()
                return arguments.int("id")
            }
            r.resolve("Query", "lists") { _, _, _, _ in [[1], [2, 3]] }
            r.resolve("Query", "fail") { _, _, _, _ in throw GraphQLError(message: "boom") }
            r.resolve("Row", "id") { source, _, _, _ in source }
            r.resolve("Row", "value") { source, _, _, _ in source as! Int == 2 ? nil : source as! Int * 10 }
            r.resolve("Row", "child") { source, _, _, _ in
                let row = source as! Int
                return row < 10 ? row + 10 : nil
            }
            r.resolve("Row", "where") { _, _, _, info in Self.joined(info.path) }
            r.resolveAsync("Row", "slowWhere") { _, _, _, info in
                await Task.yield()
                return Self.joined(info.path)
            }
            r.resolve("Row", "failing") { source, _, _, _ in
                if source as! Int == 12 { throw GraphQLError(message: "row 12") }
                return "ok"
            }
        }
    }

    static func joined(_ path: [GraphQLError.PathElement]) -> String {
        path.map(\.description).joined(separator: ".")
    }

    @Test func givesEachListItemsResolversTheItemsOwnPath() async throws {
        let result = try await execute(Self.executor(), "{ rows { where child { where } } }")
        #expect(result == #"{"data":{"rows":[{"where":"rows.0.where","child":{"where":"rows.0.child.where"}},{"where":"rows.1.where","child":{"where":"rows.1.child.where"}},{"where":"rows.2.where","child":{"where":"rows.2.child.where"}}]}}"#)
    }

    @Test func reportsErrorsAfterAFailedListItemAtTheirOwnPaths() async throws {
        let result = try await execute(Self.executor(), "{ strictRows { value } rows { value where } fail }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Row.value.","locations":[{"line":1,"column":16}],"path":["strictRows",1,"value"]},{"message":"Cannot return null for non-nullable field Row.value.","locations":[{"line":1,"column":31}],"path":["rows",1,"value"]},{"message":"boom","locations":[{"line":1,"column":45}],"path":["fail"]}],"data":{"strictRows":null,"rows":[{"value":10,"where":"rows.0.where"},null,{"value":30,"where":"rows.2.where"}],"fail":null}}"#)
    }

    @Test func reportsPathsInsideNestedLists() async throws {
        let result = try await execute(Self.executor(), "{ lists { where child { failing } } }")
        #expect(result == #"{"errors":[{"message":"row 12","locations":[{"line":1,"column":25}],"path":["lists",1,0,"child","failing"]}],"data":{"lists":[[{"where":"lists.0.0.where","child":{"failing":"ok"}}],[{"where":"lists.1.0.where","child":{"failing":null}},{"where":"lists.1.1.where","child":{"failing":"ok"}}]]}}"#)
    }

    @Test func carriesThePathOfAsyncWorkToTheValuesCompletedAfterIt() async throws {
        let result = try await execute(Self.executor(), """
            { slowRow(id: 2) { where slowWhere child { where slowWhere failing value } } rows { slowWhere } }
            """)
        #expect(result == #"{"errors":[{"message":"row 12","locations":[{"line":1,"column":60}],"path":["slowRow","child","failing"]}],"data":{"slowRow":{"where":"slowRow.where","slowWhere":"slowRow.slowWhere","child":{"where":"slowRow.child.where","slowWhere":"slowRow.child.slowWhere","failing":null,"value":120}},"rows":[{"slowWhere":"rows.0.slowWhere"},{"slowWhere":"rows.1.slowWhere"},{"slowWhere":"rows.2.slowWhere"}]}}"#)
    }

    @Test func reportsANullInANonNullFieldUnderAsyncWorkAtItsPath() async throws {
        let result = try await execute(Self.executor(), "{ a: slowRow(id: 2) { id value } b: slowRow(id: 3) { child { value } } }")
        #expect(result == #"{"errors":[{"message":"Cannot return null for non-nullable field Row.value.","locations":[{"line":1,"column":26}],"path":["a","value"]}],"data":{"a":null,"b":{"child":{"value":130}}}}"#)
    }
}
