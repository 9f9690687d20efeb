extension ValidationRule {
    /// All Variables Used (spec 5.8.4): every variable an operation defines is used by it or
    /// by a fragment it uses.
    public static let noUnusedVariables = ValidationRule(
        name: "NoUnusedVariables", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in NoUnusedVariablesRule() }
}

final class NoUnusedVariablesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            guard !operation.variableDefinitions.isEmpty else { return .skipChildren }
            let used = Set(context.recursiveVariableUsages(of: operation).map(\.name))
            for definition in operation.variableDefinitions where !used.contains(definition.variable.name.value) {
                let name = definition.variable.name.value
                let message = operation.name.map {
                    "Variable \"$\(name)\" is never used in operation \"\($0.value)\"."
                } ?? "Variable \"$\(name)\" is never used."
                context.report(message, at: [definition.location])
            }
            return .skipChildren
        default: return .skipChildren
        }
    }
}
