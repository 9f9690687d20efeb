/// A limit on a number measured over each operation's selections (not part of the spec):
/// the depth and alias limits are both this rule with a different measure. Fragments are
/// measured where they are spread, each once per document; a spread that closes a cycle
/// counts as zero (NoFragmentCycles reports the cycle).
final class OperationLimitRule: ValidationRuleVisitor {
    /// How a measure folds one selection set.
    struct Measure {
        /// The value of a field, given the value of its selection set (nil for a leaf).
        let field: (Field, Int?) -> Int
        /// Combines the values of sibling selections.
        let combine: (Int, Int) -> Int
        /// What is measured, for the error message: `has depth 16` or `has 31 aliases`.
        let describe: (Int) -> String
    }

    private let limit: Int
    private let measure: Measure
    private var fragmentValues: [String: Int] = [:]
    private var inProgress: Set<String> = []

    init(limit: Int, measure: Measure) {
        self.limit = limit
        self.measure = measure
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            let value = self.value(of: operation.selectionSet, context)
            if value > limit {
                let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
                context.report(
                    "\(name) \(measure.describe(value)), more than the maximum of \(limit).", at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func value(of selectionSet: SelectionSet, _ context: ValidationContext) -> Int {
        var total = 0
        for selection in selectionSet.selections {
            let value: Int
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

    private func fragmentValue(_ name: String, _ context: ValidationContext) -> Int {
        if let known = fragmentValues[name] { return known }
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return 0 }
        let value = value(of: fragment.selectionSet, context)
        inProgress.remove(name)
        fragmentValues[name] = value
        return value
    }
}
