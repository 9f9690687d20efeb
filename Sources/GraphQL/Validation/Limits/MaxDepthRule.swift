extension ValidationRule {
    /// The default of `maxDepth(_:)`: admits the standard introspection query of graphql-js
    /// and Apollo (depth 13, its `TypeRef` fragment nesting `ofType` seven levels) with room
    /// to spare, and stops the deeply nested queries used to exhaust a server.
    public static let defaultMaxDepth = 15

    /// A limit on the depth of every operation (not part of the spec): the largest number of
    /// nested fields, counting the fields of the fragments it spreads where they are spread;
    /// `{ me { name } }` has depth 2. Introspection fields count like any other.
    public static func maxDepth(_ limit: Int = defaultMaxDepth) -> ValidationRule {
        ValidationRule(name: "MaxDepth") { _ in
            OperationLimitRule(limit: limit, measure: OperationLimitRule<Int>.Measure(
                field: { _, nested in 1 + (nested ?? 0) },
                combine: max,
                describe: { "has depth \($0)" }))
        }
    }
}
