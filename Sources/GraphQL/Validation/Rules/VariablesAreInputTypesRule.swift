extension ValidationRule {
    /// Variables Are Input Types (spec 5.8.2): variables are scalars, enums or input objects.
    public static let variablesAreInputTypes = ValidationRule(
        name: "VariablesAreInputTypes", visitsLeave: false, nodeKinds: [.variableDefinition]
    ) { _ in
        VariablesAreInputTypesRule()
    }
}

final class VariablesAreInputTypesRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .variableDefinition(let definition):
            if let type = context.schema.schemaType(of: definition.type), !type.isInputType {
                context.report(
                    "Variable \"$\(definition.variable.name.value)\" cannot be non-input type \"\(definition.type)\".",
                    at: [definition.type.location])
            }
            return .skipChildren
        case .selectionSet, .fragmentDefinition: return .skipChildren
        default: return .continue
        }
    }
}
