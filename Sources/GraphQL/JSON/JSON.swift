/// A JSON value (RFC 8259) whose objects keep their key order.
///
/// Integers that fit in `Int` are kept apart from doubles, so `1` and `1.0` are different
/// values; the serializer prints an integral double without a fraction, as `JSON.stringify`
/// does. Parse with `JSON.init(parsing:)`, write with `serialized(pretty:)` or `JSONWriter`.
public enum JSON: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without fraction or exponent that fits in `Int`.
    case int(Int)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSON])
    /// An object, keys in order.
    case object(OrderedMap<String, JSON>)

    /// The member `key` of an object; `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `position` of an array; `nil` when out of range or not an array.
    public subscript(position: Int) -> JSON? {
        if case .array(let array) = self, array.indices.contains(position) { return array[position] }
        return nil
    }
}

extension JSON: ExpressibleByNilLiteral {
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSON: ExpressibleByBooleanLiteral {
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSON: ExpressibleByIntegerLiteral {
    /// An integer.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension JSON: ExpressibleByFloatLiteral {
    /// A double.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSON: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSON: ExpressibleByArrayLiteral {
    /// An array.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
}

extension JSON: ExpressibleByDictionaryLiteral {
    /// An object with the literal's key order.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        var object = OrderedMap<String, JSON>(minimumCapacity: elements.count)
        for (key, value) in elements { object[key] = value }
        self = .object(object)
    }
}
