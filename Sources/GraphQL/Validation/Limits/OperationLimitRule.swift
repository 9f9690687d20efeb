/// A limit on a number measured over each operation's selections (not part of the spec):
/// the depth, alias and selection-set width limits are all this rule with a different measure.
/// Fragments are measured where they are spread, each once per document; a spread that closes
/// a cycle counts as empty (NoFragmentCycles reports the cycle).
final class OperationLimitRule<Measured>: ValidationRuleVisitor {
    /// How a measure folds one selection set.
    struct Measure {
        /// The value of a selection set without selections.
        let empty: Measured
        /// The value of a field, given the value of its selection set (nil for a leaf).
        let field: (Field, Measured?) -> Measured
        /// Combines the values of sibling selections.
        let combine: (Measured, Measured) -> Measured
        /// The number compared with the limit, from an operation's value.
        let total: (Measured) -> Int
        /// What is measured, for the error message: `has depth 16` or `has 31 aliases`.
        let describe: (Int) -> String
    }

    private let limit: Int
    private let measure: Measure
    private var fragmentValues: [String: Measured] = [:]
    private var inProgress: Set<String> = []

    init(limit: Int, measure: Measure) {
        self.limit = limit
        self.measure = measure
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            let value = measure.total(self.value(of: operation.selectionSet, context))
            if value > limit {
                let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
                context.report(
                    "\(name) \(measure.describe(value)), more than the maximum of \(limit).", at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func value(of selectionSet: SelectionSet, _ context: ValidationContext) -> Measured {
        var total = measure.empty
        for selection in selectionSet.selections {
            let value: Measured
            switch selection {
            case .field(let field):
                value = measure.field(field, field.selectionSet.map { self.value(of: $0, context) })
            case .inlineFragment(let fragment):
                value = self.value(of: fragment.selectionSet, context)
            case .fragmentSpread(let spread):
                value = fragmentValue(spread.name.value, context)
            }
            total = measure.combine(total, value)
        }
        return total
    }

    private func fragmentValue(_ name: String, _ context: ValidationContext) -> Measured {
        if let known = fragmentValues[name] { return known }
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return measure.empty }
        let value = value(of: fragment.selectionSet, context)
        inProgress.remove(name)
        fragmentValues[name] = value
        return value
    }
}

extension OperationLimitRule.Measure where Measured == Int {
    /// A measure whose value is the number compared with the limit, 0 for no selections.
    init(field: @escaping (Field, Int?) -> Int, combine: @escaping (Int, Int) -> Int, describe: @escaping (Int) -> String) {
        self.init(empty: 0, field: field, combine: combine, total: { $0 }, describe: describe)
    }
}
