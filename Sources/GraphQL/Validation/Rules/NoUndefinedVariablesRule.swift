extension ValidationRule {
    /// All Variable Uses Defined (spec 5.8.3): every variable an operation uses, also through
    /// its fragments, is defined by that operation.
    public static let noUndefinedVariables = ValidationRule(
        name: "NoUndefinedVariables", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in
        NoUndefinedVariablesRule()
    }
}

final class NoUndefinedVariablesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            let defined = Set(operation.variableDefinitions.map(\.variable.name.value))
            for usage in context.recursiveVariableUsages(of: operation) where !defined.contains(usage.name) {
                let message = operation.name.map {
                    "Variable \"$\(usage.name)\" is not defined by operation \"\($0.value)\"."
                } ?? "Variable \"$\(usage.name)\" is not defined."
                context.report(message, at: [usage.location, operation.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}
