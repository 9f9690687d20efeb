/// Coerces a literal to a value of `type` (spec 3.10 input coercion of literals; graphql-js
/// `valueFromAST`), replacing variables by their coerced values.
///
/// Returns `nil` when the literal is invalid for the type (validation reports why), including
/// a variable missing from `variables` where a value is required. A variable missing inside a
/// list item of nullable type becomes `null`; a missing variable for an input object field
/// makes the field's default apply, or the field absent.
/// - Parameter variables: The request's coerced variable values; `nil` when there are none
///   (for example for default values in a schema).
public func valueFromAST(_ value: Value, type: SchemaType, variables: [String: JSON]? = nil) -> JSON? {
    if case .variable(let name) = value.kind {
        guard let variableValue = variables?[name] else { return nil }
        if variableValue == .null, type.isNonNull { return nil }
        return variableValue
    }
    switch type {
    case .nonNull(let inner):
        if case .null = value.kind { return nil }
        return valueFromAST(value, type: inner, variables: variables)
    case .list(let itemType):
        if case .null = value.kind { return .null }
        guard case .list(let items) = value.kind else {
            return valueFromAST(value, type: itemType, variables: variables).map { .array([$0]) }
        }
        var coerced: [JSON] = []
        coerced.reserveCapacity(items.count)
        for item in items {
            if let itemValue = valueFromAST(item, type: itemType, variables: variables) {
                coerced.append(itemValue)
            } else if isMissingVariable(item, variables), !itemType.isNonNull {
                coerced.append(.null)
            } else {
                return nil
            }
        }
        return .array(coerced)
    case .named(let named):
        if case .null = value.kind { return .null }
        switch named {
        case .inputObject(let inputObject):
            return inputObjectFromAST(value, type: inputObject, variables: variables)
        case .enumType(let enumType):
            return try? enumType.parseLiteral(value)
        case .scalar(let scalar):
            return try? scalar.parseLiteral(value, variables: variables ?? [:])
        case .object, .interface, .union:
            return nil
        }
    }
}

private func inputObjectFromAST(_ value: Value, type: InputObjectType, variables: [String: JSON]?) -> JSON? {
    guard case .object(let fieldNodes) = value.kind else { return nil }
    for fieldNode in fieldNodes where type.fields[fieldNode.name.value] == nil { return nil }
    var coerced = OrderedMap<String, JSON>(minimumCapacity: type.fields.count)
    for field in type.fields.values {
        let fieldNode = fieldNodes.first { $0.name.value == field.name }
        guard let fieldNode, !isMissingVariable(fieldNode.value, variables) else {
            if let defaultValue = field.coercedDefaultValue {
                coerced[field.name] = defaultValue
            } else if field.type.isNonNull {
                return nil
            }
            continue
        }
        guard let fieldValue = valueFromAST(fieldNode.value, type: field.type, variables: variables) else {
            return nil
        }
        coerced[field.name] = fieldValue
    }
    if type.isOneOf {
        guard coerced.count == 1, coerced.values[0] != .null else { return nil }
    }
    return .object(coerced)
}

private func isMissingVariable(_ value: Value, _ variables: [String: JSON]?) -> Bool {
    if case .variable(let name) = value.kind { return variables?[name] == nil }
    return false
}

extension InputValue {
    /// The coerced default value, coercing the SDL literal on the fly while a schema is
    /// still being built and `defaultValue` is not yet set.
    var coercedDefaultValue: JSON? {
        if let defaultValue { return defaultValue }
        return defaultLiteral.flatMap { valueFromAST($0, type: type) }
    }
}
