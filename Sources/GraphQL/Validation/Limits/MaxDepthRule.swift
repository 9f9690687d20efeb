extension ValidationRule {
    /// The default of `maxDepth(_:)`: admits the standard introspection query of graphql-js
    /// and Apollo (depth 13, its `TypeRef` fragment nesting `ofType` seven levels) with room
    /// to spare, and stops the deeply nested queries used to exhaust a server.
    public static let defaultMaxDepth = 15

    /// A limit on the depth of every operation (not part of the spec): the largest number of
    /// nested fields, counting the fields of the fragments it spreads where they are spread;
    /// `{ me { name } }` has depth 2. Introspection fields count like any other.
    public static func maxDepth(_ limit: Int = defaultMaxDepth) -> ValidationRule {
        ValidationRule(name: "MaxDepth") { _ in MaxDepthRule(limit: limit) }
    }
}

final class MaxDepthRule: ValidationRuleVisitor {
    private let limit: Int
    /// The depth of each fragment's selection set, computed once per document.
    private var fragmentDepths: [String: Int] = [:]
    private var inProgress: Set<String> = []

    init(limit: Int) {
        self.limit = limit
    }

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            let depth = depth(of: operation.selectionSet, context)
            if depth > limit {
                let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "The operation"
                context.report(
                    "\(name) has depth \(depth), more than the maximum of \(limit).", at: [operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func depth(of selectionSet: SelectionSet, _ context: ValidationContext) -> Int {
        var deepest = 0
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                deepest = max(deepest, 1 + (field.selectionSet.map { depth(of: $0, context) } ?? 0))
            case .inlineFragment(let fragment):
                deepest = max(deepest, depth(of: fragment.selectionSet, context))
            case .fragmentSpread(let spread):
                deepest = max(deepest, fragmentDepth(spread.name.value, context))
            }
        }
        return deepest
    }

    /// A spread closing a cycle adds nothing; the fragment cycle rule reports it.
    private func fragmentDepth(_ name: String, _ context: ValidationContext) -> Int {
        if let known = fragmentDepths[name] { return known }
        guard let fragment = context.fragment(named: name), inProgress.insert(name).inserted else { return 0 }
        let depth = depth(of: fragment.selectionSet, context)
        inProgress.remove(name)
        fragmentDepths[name] = depth
        return depth
    }
}
