/// Spec CoerceArgumentValues (6.4.1): the field's arguments from the literals and variables
/// of `node`, with defaults for absent ones and `null` kept apart from absent.
/// - Throws: `GraphQLError` located at the argument (or the field, for a missing one) when a
///   required argument is absent or null or a literal does not coerce.
func coerceArgumentValues(
    definition: SchemaField, node: Field, variables: [String: JSON]
) throws(GraphQLError) -> Arguments {
    var coerced = OrderedMap<String, JSON>(minimumCapacity: definition.arguments.count)
    for argument in definition.arguments {
        let name = argument.name
        guard let argumentNode = node.arguments.first(where: { $0.name.value == name }) else {
            if let defaultValue = argument.coercedDefaultValue {
                coerced[name] = defaultValue
            } else if argument.type.isNonNull {
                throw GraphQLError(
                    message: "Argument \"\(name)\" of required type \"\(argument.type)\" was not provided.",
                    locations: [node.location.sourceLocation])
            }
            continue
        }
        let valueNode = argumentNode.value
        var isNull: Bool
        if case .variable(let variableName) = valueNode.kind {
            guard let variableValue = variables[variableName] else {
                if let defaultValue = argument.coercedDefaultValue {
                    coerced[name] = defaultValue
                } else if argument.type.isNonNull {
                    throw GraphQLError(
                        message: "Argument \"\(name)\" of required type \"\(argument.type)\" was provided the variable "
                            + "\"$\(variableName)\" which was not provided a runtime value.",
                        locations: [valueNode.location.sourceLocation])
                }
                continue
            }
            isNull = variableValue == .null
        } else {
            if case .null = valueNode.kind { isNull = true } else { isNull = false }
        }
        if isNull, argument.type.isNonNull {
            throw GraphQLError(
                message: "Argument \"\(name)\" of non-null type \"\(argument.type)\" must not be null.",
                locations: [valueNode.location.sourceLocation])
        }
        guard let value = valueFromAST(valueNode, type: argument.type, variables: variables) else {
            throw GraphQLError(
                message: "Argument \"\(name)\" has invalid value \(Printer.print(valueNode)).",
                locations: [valueNode.location.sourceLocation])
        }
        coerced[name] = value
    }
    return Arguments(coerced)
}

/// Spec CoerceVariableValues (6.1.2): the request's variable values coerced against the
/// operation's variable definitions, defaults applied, every problem reported (up to
/// `maxErrors`). `types` are the definitions' schema types in the same order
/// (``PreparedOperation/variableTypes``).
func coerceVariableValues(
    definitions: [VariableDefinition], types: [SchemaType?], inputs: [String: JSON], maxErrors: Int = 50
) -> Result<[String: JSON], ExecutionErrors> {
    var coerced: [String: JSON] = [:]
    coerced.reserveCapacity(definitions.count)
    var errors: [GraphQLError] = []
    for (definition, type) in zip(definitions, types) {
        guard errors.count < maxErrors else { break }
        let name = definition.variable.name.value
        var location: [SourceLocation] { [definition.location.sourceLocation] }
        guard let type, type.isInputType else {
            errors.append(GraphQLError(
                message: "Variable \"$\(name)\" expected value of type \"\(definition.type)\" which cannot be used as an input type.",
                locations: [definition.type.location.sourceLocation]))
            continue
        }
        guard let input = inputs[name] else {
            if let defaultLiteral = definition.defaultValue {
                if let value = valueFromAST(defaultLiteral, type: type) { coerced[name] = value }
            } else if type.isNonNull {
                errors.append(GraphQLError(
                    message: "Variable \"$\(name)\" of required type \"\(type)\" was not provided.", locations: location))
            }
            continue
        }
        if input == .null {
            if type.isNonNull {
                errors.append(GraphQLError(
                    message: "Variable \"$\(name)\" of non-null type \"\(type)\" must not be null.", locations: location))
            } else {
                coerced[name] = .null
            }
            continue
        }
        let value = coerceInputValue(input, type: type) { error in
            guard errors.count < maxErrors else { return }
            var prefix = "Variable \"$\(name)\" got invalid value \(inspect(error.invalidValue))"
            if !error.path.isEmpty { prefix += " at \"\(name)\(error.printedPath)\"" }
            errors.append(GraphQLError(message: prefix + "; " + error.message, locations: location))
        }
        if let value { coerced[name] = value }
    }
    return errors.isEmpty ? .success(coerced) : .failure(ExecutionErrors(errors: errors))
}

/// Request errors that stop execution before it starts (spec 7.1.2 "request errors").
struct ExecutionErrors: Error {
    let errors: [GraphQLError]
}
