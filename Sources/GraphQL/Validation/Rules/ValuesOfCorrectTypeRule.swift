extension ValidationRule {
    /// Values of Correct Type (spec 5.6.1) with Input Object Required Fields (5.6.4), Input
    /// Object Field Names (5.6.2) and the OneOf input object rules: every literal argument
    /// value and variable default coerces to the type its position expects. Variables are
    /// checked by `variablesInAllowedPosition`.
    public static let valuesOfCorrectType = ValidationRule(
        name: "ValuesOfCorrectType", visitsLeave: false, nodeKinds: [.value]
    ) { _ in
        ValuesOfCorrectTypeRule()
    }
}

/// Checks each outermost value once, recursively against the expected type, then skips the
/// value's subtree.
final class ValuesOfCorrectTypeRule: ValidationRuleVisitor {
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction {
        guard case .value(let value) = node else { return .continue }
        // Entering a list already moved the type information to its items.
        let type = if case .list = value.kind { context.parentInputType } else { context.inputType }
        if let type { check(value, type, context) }
        return .skipChildren
    }

    private func check(_ value: Value, _ type: SchemaType, _ context: ValidationContext) {
        if case .variable = value.kind { return }
        switch type {
        case .nonNull(let inner):
            if case .null = value.kind {
                context.report("Expected value of type \"\(type)\", found null.", at: [value.location])
                return
            }
            check(value, inner, context)
        case .list(let itemType):
            switch value.kind {
            case .null: return
            case .list(let items): for item in items { check(item, itemType, context) }
            default: check(value, itemType, context)
            }
        case .named(let named):
            if case .null = value.kind { return }
            switch named {
            case .inputObject(let inputObject): checkObject(value, inputObject, type, context)
            case .enumType(let enumType): checkEnum(value, enumType, context)
            case .scalar(let scalar): checkScalar(value, scalar, context)
            case .object, .interface, .union: break
            }
        }
    }

    private func checkObject(_ value: Value, _ type: InputObjectType, _ schemaType: SchemaType, _ context: ValidationContext) {
        guard case .object(let fields) = value.kind else {
            context.report("Expected value of type \"\(schemaType)\", found \(Printer.print(value)).", at: [value.location])
            return
        }
        for definition in type.fields.values where definition.isRequired {
            if !fields.contains(where: { $0.name.value == definition.name }) {
                context.report(
                    "Field \"\(type.name).\(definition.name)\" of required type \"\(definition.type)\" was not provided.",
                    at: [value.location])
            }
        }
        var knownFields: [ObjectField] = []
        for field in fields {
            if let definition = type.fields[field.name.value] {
                knownFields.append(field)
                check(field.value, definition.type, context)
            } else {
                context.report(
                    "Field \"\(field.name.value)\" is not defined by type \"\(type.name)\"."
                        + context.suggestionText(for: field.name.value, options: type.fields.keys),
                    at: [field.location])
            }
        }
        guard type.isOneOf else { return }
        guard knownFields.count == 1 else {
            context.report("OneOf Input Object \"\(type.name)\" must specify exactly one key.", at: [value.location])
            return
        }
        if case .null = knownFields[0].value.kind {
            context.report("Field \"\(type.name).\(knownFields[0].name.value)\" must be non-null.", at: [value.location])
        }
    }

    private func checkEnum(_ value: Value, _ type: EnumType, _ context: ValidationContext) {
        let printed = Printer.print(value)
        let problem: String
        if case .enumValue(let name) = value.kind {
            guard type.value(named: name) == nil else { return }
            problem = "Value \"\(name)\" does not exist in \"\(type.name)\" enum."
                + context.suggestionText(for: name, options: type.values.keys, subject: "the enum value")
        } else {
            problem = "Enum \"\(type.name)\" cannot represent non-enum value: \(printed)."
                + context.suggestionText(for: printed, options: type.values.keys, subject: "the enum value")
        }
        context.report("Expected value of type \"\(type.name)\", found \(printed); \(problem)", at: [value.location])
    }

    private func checkScalar(_ value: Value, _ type: ScalarType, _ context: ValidationContext) {
        // A custom scalar can only judge a literal holding variables once their values are known.
        guard value.isConstant || NamedType.scalar(type).isSpecifiedScalar else { return }
        do {
            _ = try type.parseLiteral(value)
        } catch {
            let reason = (error as? GraphQLError)?.message ?? String(describing: error)
            context.report(
                "Expected value of type \"\(type.name)\", found \(Printer.print(value)); \(reason)", at: [value.location])
        }
    }
}
