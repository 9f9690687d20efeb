/// A model type the default resolver can read fields from, so types whose fields are plain
/// properties need no resolvers.
///
/// ```swift
/// struct User: FieldResolvable {
///     let id: String, name: String
///     func fieldValue(named name: String) -> Any? {
///         switch name { case "id": id; case "name": self.name; default: nil }
///     }
/// }
/// ```
public protocol FieldResolvable {
    /// The value of the field `name`, or `nil` for `null` and unknown fields.
    func fieldValue(named name: String) -> Any?
}

/// A value that knows its GraphQL object type, for interfaces and unions without a type
/// resolver.
public protocol TypeNameResolvable {
    /// The name of the value's object type.
    var graphQLTypeName: String { get }
}

/// An error a resolver can throw to control how it is reported: its message and
/// extensions (such as a stable `code`) are kept.
public protocol GraphQLErrorConvertible: Error {
    /// The error as GraphQL reports it; the executor adds locations and path.
    var graphQLError: GraphQLError { get }
}

/// The default resolver (graphql-js `defaultFieldResolver`): reads `name` from a
/// `[String: Any]` (or `[String: any Sendable]`), an `OrderedMap<String, Any>`, a `JSON`
/// object or a `FieldResolvable`.
func defaultFieldValue(_ source: Any, _ name: String) -> Any? {
    // Checked by exact type first: casting a `[String: any Sendable]` to `[String: Any]`
    // would convert it element by element.
    if type(of: source) == [String: any Sendable].self, let dictionary = source as? [String: any Sendable] {
        return dictionary[name]
    }
    switch source {
    case let dictionary as [String: Any]: return dictionary[name]
    case let resolvable as any FieldResolvable: return resolvable.fieldValue(named: name)
    case let json as JSON: return json[name]
    case let map as OrderedMap<String, Any>: return map[name]
    case let map as OrderedMap<String, JSON>: return map[name]
    case let dictionary as [String: JSON]: return dictionary[name]
    default: return nil
    }
}

/// The default type resolver: `__typename` of a map or `JSON` object, or a
/// `TypeNameResolvable`'s name.
func defaultTypeName(_ value: Any) -> String? {
    switch value {
    case let named as any TypeNameResolvable: return named.graphQLTypeName
    case let dictionary as [String: Any]: return dictionary["__typename"] as? String
    case let json as JSON:
        if case .string(let name) = json["__typename"] { return name }
        return nil
    case let map as OrderedMap<String, Any>: return map["__typename"] as? String
    default: return nil
    }
}

/// Optional values wrapped in `Any`, so that `Optional<T>.none` inside an `Any` reads as
/// `null` however deeply it is nested.
private protocol OptionalValue {
    var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var wrappedValue: Any? {
        switch self {
        case .some(let value): value
        case .none: nil
        }
    }
}

/// The value with optionals unwrapped, or `nil` for GraphQL `null` (`nil`, an empty
/// optional, `JSON.null`).
@inline(__always)
func nonNullValue(_ value: Any?) -> Any? {
    guard var value else { return nil }
    while let optional = value as? any OptionalValue {
        guard let wrapped = optional.wrappedValue else { return nil }
        value = wrapped
    }
    if let json = value as? JSON, json == .null { return nil }
    return value
}
