extension ValidationRule {
    /// The default of `maxAliases(_:)`.
    public static let defaultMaxAliases = 30

    /// A limit on the aliases of every operation (not part of the spec), counting the aliases
    /// of a fragment each time it is spread, so that aliases multiplied through fragments
    /// cannot make one small document resolve a field thousands of times.
    public static func maxAliases(_ limit: Int = defaultMaxAliases) -> ValidationRule {
        ValidationRule(name: "MaxAliases") { _ in
            OperationLimitRule(limit: limit, measure: OperationLimitRule<Int>.Measure(
                field: { field, nested in (field.alias == nil ? 0 : 1).addingClamped(nested ?? 0) },
                combine: { $0.addingClamped($1) },
                describe: { "has \($0) aliases" }))
        }
    }
}
