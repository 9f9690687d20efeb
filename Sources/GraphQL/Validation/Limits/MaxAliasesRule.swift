extension ValidationRule {
    /// The default of `maxAliases(_:)`.
    public static let defaultMaxAliases = 30

    /// A limit on the aliases of every operation (not part of the spec), counting the aliases
    /// of a fragment each time it is spread, so that aliases multiplied through fragments
    /// cannot make one small document resolve a field thousands of times.
    public static func maxAliases(_ limit: Int = defaultMaxAliases) -> ValidationRule {
        ValidationRule(name: "MaxAliases") { _ in MaxAliasesRule(limit: limit) }
    }
}

final class MaxAliasesRule: ValidationRuleVisitor {
    private let limit: Int
    private var fragmentAliases: [String: Int] = [:]
    private var inProgress: Set<String> = []

    init(limit: Int) {
        self.limit = limit
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            let count = aliases(in: operation.selectionSet, context)
            if count > limit {
                let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
                context.report("\(name) has \(count) aliases, more than the maximum of \(limit).", at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func aliases(in selectionSet: SelectionSet, _ context: ValidationContext) -> Int {
        var count = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                if field.alias != nil { count += 1 }
                if let nested = field.selectionSet { count = count.addingClamped(aliases(in: nested, context)) }
            case .inlineFragment(let fragment):
                count = count.addingClamped(aliases(in: fragment.selectionSet, context))
            case .fragmentSpread(let spread):
                count = count.addingClamped(fragmentAliasCount(spread.name.value, context))
            }
        }
        return count
    }

    private func fragmentAliasCount(_ name: String, _ context: ValidationContext) -> Int {
        if let known = fragmentAliases[name] { return known }
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return 0 }
        let count = aliases(in: fragment.selectionSet, context)
        inProgress.remove(name)
        fragmentAliases[name] = count
        return count
    }
}

extension Int {
    /// The sum, or `Int.max` where it would overflow: costs multiplied through fragments and
    /// list sizes can be made astronomically large by a hostile document.
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// The product, or `Int.max` where it would overflow.
    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
