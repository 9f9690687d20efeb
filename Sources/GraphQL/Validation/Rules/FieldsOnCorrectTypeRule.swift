extension ValidationRule {
    /// Field Selections (spec 5.3.1): every selected field is defined on the type it is
    /// selected on.
    public static let fieldsOnCorrectType = ValidationRule(
        name: "FieldsOnCorrectType", visitsLeave: false, nodeKinds: [.field]
    ) { _ in
        FieldsOnCorrectTypeRule()
    }
}

final class FieldsOnCorrectTypeRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .field(let field) = node, let parentType = context.parentType,
              context.fieldDefinition == nil else { return .continue }
        let name = field.name.value
        var suggestion = ""
        if context.options.suggestions {
            suggestion = context.suggestionText(
                suggestedTypeNames(context.schema, parentType, name), subject: "to use an inline fragment on")
            if suggestion.isEmpty, let fields = parentType.fields {
                suggestion = context.suggestionText(for: name, options: fields.keys)
            }
        }
        context.report("Cannot query field \"\(name)\" on type \"\(parentType.name)\"." + suggestion, at: [field.location])
        return .continue
    }

    /// The object and interface types under an abstract type that define the field: the types
    /// used by most possible types first, an interface before its implementations, then by name.
    private func suggestedTypeNames(_ schema: Schema, _ type: NamedType, _ fieldName: String) -> [String] {
        guard type.isAbstractType else { return [] }
        var suggested: [NamedType] = []
        var usageCount: [String: Int] = [:]
        for possibleType in schema.possibleTypes(of: type) where possibleType.fields[fieldName] != nil {
            if usageCount[possibleType.name] == nil { suggested.append(.object(possibleType)) }
            usageCount[possibleType.name] = 1
            for interface in possibleType.interfaces where interface.fields[fieldName] != nil {
                if usageCount[interface.name] == nil { suggested.append(.interface(interface)) }
                usageCount[interface.name, default: 0] += 1
            }
        }
        suggested.sort { a, b in
            let countA = usageCount[a.name] ?? 0, countB = usageCount[b.name] ?? 0
            if countA != countB { return countA > countB }
            if case .interface = a, schema.isSubType(b, of: a) { return true }
            if case .interface = b, schema.isSubType(a, of: b) { return false }
            return naturalOrder(a.name, b.name)
        }
        return suggested.map(\.name)
    }
}
