/// The literal that denotes a coerced value of `type` (graphql-js `astFromValue`), used to
/// print default values: enum values become enum literals, `ID`s that look like integers
/// become integer literals, integral numbers become integer literals.
///
/// Returns `nil` when the value cannot be represented: `null` for a non-null type, or a leaf
/// value its type cannot serialize.
public func astFromValue(_ value: JSON, type: SchemaType) -> Value? {
    switch type {
    case .nonNull(let inner):
        guard let literal = astFromValue(value, type: inner) else { return nil }
        if case .null = literal.kind { return nil }
        return literal
    case .list(let itemType):
        if value == .null { return Value(.null, location: .synthesized) }
        guard case .array(let items) = value else { return astFromValue(value, type: itemType) }
        return Value(.list(items.compactMap { astFromValue($0, type: itemType) }), location: .synthesized)
    case .named(let named):
        if value == .null { return Value(.null, location: .synthesized) }
        switch named {
        case .inputObject(let inputObject):
            guard case .object(let object) = value else { return nil }
            var fields: [ObjectField] = []
            for field in inputObject.fields.values {
                guard let fieldValue = object[field.name], let literal = astFromValue(fieldValue, type: field.type) else {
                    continue
                }
                fields.append(ObjectField(
                    name: Name(value: field.name, location: .synthesized), value: literal, location: .synthesized))
            }
            return Value(.object(fields), location: .synthesized)
        case .enumType(let enumType):
            guard case .string(let name) = (try? enumType.serialize(value)) else { return nil }
            return Value(.enumValue(name), location: .synthesized)
        case .scalar(let scalar):
            guard let serialized = try? scalar.serialize(value) else { return nil }
            return literal(serialized, isID: scalar === ScalarType.id)
        case .object, .interface, .union:
            return nil
        }
    }
}

/// A literal for a serialized scalar value, choosing the literal kind from the JSON.
private func literal(_ json: JSON, isID: Bool) -> Value? {
    let kind: Value.Kind
    switch json {
    case .null: kind = .null
    case .bool(let bool): kind = .boolean(bool)
    case .int(let int): kind = .int(String(int))
    case .double(let double):
        guard double.isFinite else { return nil }
        let text = formatNumber(double)
        kind = text.contains(where: { $0 == "." || $0 == "e" }) ? .float(text) : .int(text)
    case .string(let string):
        if isID, isIntegerText(string) { kind = .int(string) } else { kind = .string(string, block: false) }
    case .array(let items):
        var values: [Value] = []
        for item in items {
            guard let value = literal(item, isID: false) else { return nil }
            values.append(value)
        }
        kind = .list(values)
    case .object(let object):
        var fields: [ObjectField] = []
        for (key, item) in object {
            guard let value = literal(item, isID: false) else { return nil }
            fields.append(ObjectField(name: Name(value: key, location: .synthesized), value: value, location: .synthesized))
        }
        kind = .object(fields)
    }
    return Value(kind, location: .synthesized)
}

/// Whether `text` is an integer literal: `-?(0|[1-9][0-9]*)`.
private func isIntegerText(_ text: String) -> Bool {
    var digits = Substring(text)
    if digits.first == "-" { digits = digits.dropFirst() }
    guard let first = digits.first, first.isASCII, first.isNumber else { return false }
    if first == "0" { return digits.count == 1 }
    return digits.allSatisfy { $0.isASCII && $0.isNumber }
}

extension Location {
    /// The location of nodes made by code rather than parsed (line and column 0).
    static let synthesized = Location(start: 0, end: 0, line: 0, column: 0)
}
