extension ValidationRule {
    /// All Variable Usages Are Allowed (spec 5.8.5): a variable's type fits every position it
    /// is used in. A nullable variable may fill a non-null position when it or the position
    /// has a default value; a variable given to a field of a OneOf input object is non-null.
    public static let variablesInAllowedPosition = ValidationRule(
        name: "VariablesInAllowedPosition", visitsLeave: false, nodeKinds: [.operationDefinition]
    ) { _ in
        VariablesInAllowedPositionRule()
    }
}

final class VariablesInAllowedPositionRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        switch node {
        case .document: return .continue
        case .operationDefinition(let operation):
            check(operation, context)
            return .skipChildren
        default: return .skipChildren
        }
    }

    private func check(_ operation: OperationDefinition, _ context: ValidationContext) {
        let usages = context.recursiveVariableUsages(of: operation)
        guard !usages.isEmpty else { return }
        var definitions: [String: VariableDefinition] = [:]
        for definition in operation.variableDefinitions { definitions[definition.variable.name.value] = definition }
        let schema = context.schema
        for usage in usages {
            guard let definition = definitions[usage.name], let type = usage.type,
                  let variableType = schema.schemaType(of: definition.type) else { continue }
            if !isAllowed(variableType, definition.defaultValue, at: type, usage.hasLocationDefaultValue, schema) {
                context.report(
                    "Variable \"$\(usage.name)\" of type \"\(variableType)\" used in position expecting type \"\(type)\".",
                    at: [definition.location, usage.location])
            }
            if case .named(.inputObject(let parent))? = usage.parentType?.nullableType, parent.isOneOf, !variableType.isNonNull {
                context.report(
                    "Variable \"$\(usage.name)\" is of type \"\(variableType)\" but must be non-nullable to be used for OneOf Input Object \"\(parent.name)\".",
                    at: [definition.location, usage.location])
            }
        }
    }

    private func isAllowed(
        _ variableType: SchemaType, _ variableDefault: Value?, at locationType: SchemaType,
        _ locationHasDefault: Bool, _ schema: Schema
    ) -> Bool {
        if case .nonNull(let nullableLocation) = locationType, !variableType.isNonNull {
            var hasNonNullDefault = false
            if let variableDefault { if case .null = variableDefault.kind {} else { hasNonNullDefault = true } }
            guard hasNonNullDefault || locationHasDefault else { return false }
            return schema.isTypeSubType(variableType, of: nullableLocation)
        }
        return schema.isTypeSubType(variableType, of: locationType)
    }
}
