extension ValidationRule {
    /// Variable Uniqueness (spec 5.8.1): no two variables of an operation share a name.
    public static let uniqueVariableNames = ValidationRule(
        name: "UniqueVariableNames", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in
        UniqueVariableNamesRule()
    }
}

final class UniqueVariableNamesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            let definitions = operation.variableDefinitions
            guard definitions.count > 1 else { return .skipChildren }
            var order: [String] = []
            var groups: [String: [Location]] = [:]
            for definition in definitions {
                let name = definition.variable.name
                if groups[name.value] == nil { order.append(name.value) }
                groups[name.value, default: []].append(name.location)
            }
            for name in order where groups[name]!.count > 1 {
                context.report("There can be only one variable named \"$\(name)\".", at: groups[name]!)
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}
