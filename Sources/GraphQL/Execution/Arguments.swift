/// The coerced argument values of a field (spec CoerceArgumentValues), in the order the
/// field defines its arguments, with typed getters.
///
/// An argument that was neither given nor has a default is absent, which differs from one
/// given as `null`: `contains(_:)` tells them apart. Getters return `nil` for absent and
/// `null` arguments and for values of another shape; enum values are strings, input objects
/// are `JSON` objects.
public struct Arguments: Sendable {
    /// The values by argument name.
    public let values: OrderedMap<String, JSON>

    /// Creates arguments from coerced values.
    public init(_ values: OrderedMap<String, JSON> = [:]) {
        self.values = values
    }

    static let empty = Arguments()

    /// The value of `name`; `nil` when absent, `.null` when given as `null`.
    public subscript(name: String) -> JSON? { values[name] }

    /// Whether `name` was given (possibly as `null`) or has a default.
    public func contains(_ name: String) -> Bool { values[name] != nil }

    /// Whether there are no argument values.
    public var isEmpty: Bool { values.isEmpty }

    /// A `String`, `ID` or enum argument.
    public func string(_ name: String) -> String? {
        if case .string(let value) = values[name] { return value }
        return nil
    }

    /// An `Int` argument.
    public func int(_ name: String) -> Int? {
        if case .int(let value) = values[name] { return value }
        return nil
    }

    /// A `Float` argument (an integral `Int` value reads as a double too).
    public func double(_ name: String) -> Double? {
        switch values[name] {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }

    /// A `Boolean` argument.
    public func bool(_ name: String) -> Bool? {
        if case .bool(let value) = values[name] { return value }
        return nil
    }

    /// A list argument.
    public func array(_ name: String) -> [JSON]? {
        if case .array(let value) = values[name] { return value }
        return nil
    }

    /// An input object argument.
    public func object(_ name: String) -> OrderedMap<String, JSON>? {
        if case .object(let value) = values[name] { return value }
        return nil
    }

    /// A `String` or enum argument read as a Swift enum with `String` raw values.
    public func value<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) -> T? where T.RawValue == String {
        string(name).flatMap(T.init(rawValue:))
    }
}
