/// A problem found while coercing a variable value (spec 3.10 input coercion), located by its
/// path inside the value.
public struct InputCoercionError: Error, Sendable, CustomStringConvertible {
    /// Where in the value the problem lies: input object field names and list indices.
    public let path: [GraphQLError.PathElement]
    /// The offending (sub-)value.
    public let invalidValue: JSON
    /// What is wrong, e.g. `Int cannot represent non-integer value: 1.5`.
    public let message: String

    /// Creates an input coercion error.
    public init(path: [GraphQLError.PathElement], invalidValue: JSON, message: String) {
        self.path = path
        self.invalidValue = invalidValue
        self.message = message
    }

    /// The path as graphql-js prints it after a root name: `.field[0].other`, or `""`.
    public var printedPath: String {
        path.map {
            switch $0 {
            case .key(let key): "." + key
            case .index(let index): "[\(index)]"
            }
        }.joined()
    }

    /// `Invalid value 1.5 at "value.field": Int cannot represent non-integer value: 1.5`.
    public var description: String {
        var prefix = "Invalid value " + inspect(invalidValue)
        if !path.isEmpty { prefix += " at \"value\(printedPath)\"" }
        return prefix + ": " + message
    }
}

/// Coerces a variable value (decoded JSON) to `type` (spec 3.10 input coercion, graphql-js
/// `coerceInputValue`): a single value becomes a list of one, input object defaults apply,
/// unknown input object fields and OneOf violations are errors, scalars and enums use their
/// `parseValue`.
///
/// Every problem is passed to `onError`, so all of them can be reported.
/// - Returns: The coerced value, or `nil` if any problem was found.
public func coerceInputValue(
    _ value: JSON, type: SchemaType, onError: (InputCoercionError) -> Void
) -> JSON? {
    var path: [GraphQLError.PathElement] = []
    var failed = false
    let result = coerce(value, type, &path) { error in
        failed = true
        onError(error)
    }
    return failed ? nil : result
}

/// Coerces a variable value to `type`, throwing the first problem; see
/// `coerceInputValue(_:type:onError:)`.
public func coerceInputValue(_ value: JSON, type: SchemaType) throws(InputCoercionError) -> JSON {
    var firstError: InputCoercionError?
    let result = coerceInputValue(value, type: type) { error in
        if firstError == nil { firstError = error }
    }
    if let firstError { throw firstError }
    return result!
}

private func coerce(
    _ value: JSON, _ type: SchemaType, _ path: inout [GraphQLError.PathElement],
    _ onError: (InputCoercionError) -> Void
) -> JSON? {
    func fail(_ message: String, _ invalidValue: JSON = value, at errorPath: [GraphQLError.PathElement]? = nil) -> JSON? {
        onError(InputCoercionError(path: errorPath ?? path, invalidValue: invalidValue, message: message))
        return nil
    }
    switch type {
    case .nonNull(let inner):
        if value == .null { return fail("Expected non-nullable type \"\(type)\" not to be null.") }
        return coerce(value, inner, &path, onError)
    case .list(let itemType):
        if value == .null { return .null }
        guard case .array(let items) = value else {
            return coerce(value, itemType, &path, onError).map { .array([$0]) }
        }
        var coerced: [JSON] = []
        coerced.reserveCapacity(items.count)
        var valid = true
        for (index, item) in items.enumerated() {
            path.append(.index(index))
            if let itemValue = coerce(item, itemType, &path, onError) { coerced.append(itemValue) } else { valid = false }
            path.removeLast()
        }
        return valid ? .array(coerced) : nil
    case .named(let named):
        if value == .null { return .null }
        switch named {
        case .inputObject(let inputObject):
            return coerceInputObject(value, inputObject, &path, onError)
        case .enumType(let enumType):
            do { return try enumType.parseValue(value) } catch { return fail(leafMessage(error, named)) }
        case .scalar(let scalar):
            do { return try scalar.parseValue(value) } catch { return fail(leafMessage(error, named)) }
        case .object, .interface, .union:
            return fail("Expected type \"\(named.name)\" to be an input type.")
        }
    }
}

private func leafMessage(_ error: any Error, _ type: NamedType) -> String {
    if let error = error as? GraphQLError { return error.message }
    return "Expected type \"\(type.name)\". \(error)"
}

private func coerceInputObject(
    _ value: JSON, _ type: InputObjectType, _ path: inout [GraphQLError.PathElement],
    _ onError: (InputCoercionError) -> Void
) -> JSON? {
    guard case .object(let fields) = value else {
        onError(InputCoercionError(path: path, invalidValue: value, message: "Expected type \"\(type.name)\" to be an object."))
        return nil
    }
    var valid = true
    func fail(_ message: String, at errorPath: [GraphQLError.PathElement], _ invalidValue: JSON) {
        valid = false
        onError(InputCoercionError(path: errorPath, invalidValue: invalidValue, message: message))
    }
    var coerced = OrderedMap<String, JSON>(minimumCapacity: type.fields.count)
    for field in type.fields.values {
        guard let fieldValue = fields[field.name] else {
            if let defaultValue = field.coercedDefaultValue {
                coerced[field.name] = defaultValue
            } else if field.type.isNonNull {
                fail("Field \"\(field.name)\" of required type \"\(field.type)\" was not provided.", at: path, value)
            }
            continue
        }
        path.append(.key(field.name))
        if let fieldCoerced = coerce(fieldValue, field.type, &path, onError) {
            coerced[field.name] = fieldCoerced
        } else {
            valid = false
        }
        path.removeLast()
    }
    for name in fields.keys where type.fields[name] == nil {
        let suggestions = suggestionList(input: name, options: type.fields.keys)
        fail("Field \"\(name)\" is not defined by type \"\(type.name)\"." + didYouMean(suggestions), at: path, value)
    }
    if type.isOneOf, valid {
        if coerced.count != 1 {
            fail("Exactly one key must be specified for OneOf type \"\(type.name)\".", at: path, value)
        } else if coerced.values[0] == .null {
            let key = coerced.keys[0]
            fail("Field \"\(key)\" must be non-null.", at: path + [.key(key)], .null)
        }
    }
    return valid ? .object(coerced) : nil
}
