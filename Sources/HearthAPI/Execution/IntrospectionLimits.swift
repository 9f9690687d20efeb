import GraphQL

extension ValidationRule {
    /// Refuses introspection that nests `fields`, `interfaces`, `possibleTypes` or
    /// `inputFields` three times or more under `__schema` or `__type` (graphql-js
    /// `MaxIntrospectionDepthRule`): such queries multiply the schema by itself at every level,
    /// while real tools (the standard introspection query) nest them at most twice.
    ///
    /// With this rule in place the complexity limit is not applied to operations that select
    /// only introspection fields, whose cost the schema's size bounds (list sizes such as
    /// `__Schema.types` are not arguments the complexity rule could price).
    static let maxIntrospectionDepth = ValidationRule(name: "MaxIntrospectionDepth") { _ in IntrospectionDepthVisitor() }
}

/// Whether every root field of `operation` is an introspection field, so that the complexity
/// limit does not apply (see `ValidationRule.maxIntrospectionDepth`).
func selectsOnlyIntrospection(_ operation: OperationDefinition) -> Bool {
    operation.selectionSet.selections.allSatisfy { selection in
        guard case .field(let field) = selection else { return false }
        return field.name.value.utf8.starts(with: "__".utf8)
    }
}

private final class IntrospectionDepthVisitor: ValidationRuleVisitor {
    private static let multiplyingFields: Set<String> = ["fields", "interfaces", "possibleTypes", "inputFields"]
    private static let limit = 3
    private var visitedFragments: Set<String> = []

    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            for selection in operation.selectionSet.selections {
                guard case .field(let field) = selection, field.name.value == "__schema" || field.name.value == "__type",
                      let selectionSet = field.selectionSet else { continue }
                visitedFragments = []
                if tooDeep(selectionSet, depth: 0, context) {
                    context.report(
                        "Maximum introspection depth exceeded: fields, interfaces, possibleTypes and inputFields may be nested at most \(Self.limit - 1) times.",
                        at: [field.location])
                }
            }
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func tooDeep(_ selectionSet: SelectionSet, depth: Int, _ context: ValidationContext) -> Bool {
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                let nested = Self.multiplyingFields.contains(field.name.value) ? depth + 1 : depth
                if nested >= Self.limit { return true }
                if let child = field.selectionSet, tooDeep(child, depth: nested, context) { return true }
            case .inlineFragment(let fragment):
                if tooDeep(fragment.selectionSet, depth: depth, context) { return true }
            case .fragmentSpread(let spread):
                // Each fragment is followed once per root field; a cycle is reported by the spec's rules.
                guard visitedFragments.insert(spread.name.value).inserted,
                      let fragment = context.fragment(named: spread.name.value) else { continue }
                if tooDeep(fragment.selectionSet, depth: depth, context) { return true }
            }
        }
        return false
    }
}
