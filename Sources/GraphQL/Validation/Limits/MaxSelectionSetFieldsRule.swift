extension ValidationRule {
    /// The default of `maxSelectionSetFields(_:)`: twenty times the widest selection set of the
    /// standard introspection query (its `FullType` fragment selects 10 fields), room for a
    /// client that merges many fragments into one object, and far below the thousands of
    /// repeated fields used to make validation slow.
    public static let defaultMaxSelectionSetFields = 200

    /// A limit on the width of every selection set of an operation (not part of the spec): the
    /// fields it selects at one level, those of its inline fragments and of the fragments it
    /// spreads included (a fragment counted each time it is spread), so `{ a ... on Query { b }
    /// ...F }` with `fragment F on Query { c d }` selects 4. Repeated fields count each time:
    /// they are what a hostile document repeats to make validation and execution slow.
    public static func maxSelectionSetFields(_ limit: Int = defaultMaxSelectionSetFields) -> ValidationRule {
        ValidationRule(name: "MaxSelectionSetFields") { _ in
            OperationLimitRule(limit: limit, measure: OperationLimitRule<SelectionWidth>.Measure(
                empty: SelectionWidth(fields: 0, widestNested: 0),
                field: { _, nested in
                    SelectionWidth(fields: 1, widestNested: nested.map { max($0.fields, $0.widestNested) } ?? 0)
                },
                combine: { SelectionWidth(fields: $0.fields.addingClamped($1.fields), widestNested: max($0.widestNested, $1.widestNested)) },
                total: { max($0.fields, $0.widestNested) },
                describe: { "has a selection set of \($0) fields (fragments counted where spread)" }))
        }
    }
}

/// What `maxSelectionSetFields` measures of a selection set: the fields at its own level, and
/// the most fields of any selection set nested below it.
struct SelectionWidth {
    let fields: Int
    let widestNested: Int
}
