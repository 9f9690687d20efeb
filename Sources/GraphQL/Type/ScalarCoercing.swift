/// The input and result coercion of a scalar type (spec 3.5): how a scalar reads variable
/// values and literals, and how it writes resolver results.
///
/// Built-in scalars implement the spec's rules; custom scalars (a `DateTime`, a `Decimal`)
/// provide their own conformance and are registered by name when building a schema from SDL
/// (`BuildSchemaOptions.scalars`). Throw a `GraphQLError` whose message explains the problem,
/// e.g. `DateTime cannot represent value: "yesterday"`; other errors are reported with their
/// `String(describing:)`.
public protocol ScalarCoercing: Sendable {
    /// Result coercion: turns a resolver's value into the JSON the response carries.
    func serialize(_ value: Any) throws -> JSON

    /// Input coercion of a variable value (already decoded JSON).
    func parseValue(_ value: JSON) throws -> JSON

    /// Input coercion of a literal. `variables` holds the coerced variable values of the
    /// request, for literals nested in lists or objects that contain variables.
    func parseLiteral(_ value: Value, variables: [String: JSON]) throws -> JSON
}

extension ScalarCoercing {
    /// Reads the literal as plain JSON (variables replaced by their values) and passes it to
    /// `parseValue(_:)`, so most custom scalars implement only `serialize` and `parseValue`.
    public func parseLiteral(_ value: Value, variables: [String: JSON]) throws -> JSON {
        guard let json = value.untypedJSON(variables: variables) else {
            throw GraphQLError(message: "Unknown variable in literal.")
        }
        return try parseValue(json)
    }
}

/// Coercion that accepts any input unchanged and serializes JSON values and Swift scalars,
/// the default for custom scalars declared in SDL without a registered implementation.
public struct PassThroughScalarCoercing: ScalarCoercing {
    /// The scalar's name, for error messages.
    public let name: String

    /// Creates the pass-through coercion of the scalar `name`.
    public init(name: String) { self.name = name }

    /// Returns JSON values as they are and converts Swift strings, numbers and booleans;
    /// throws for anything else.
    public func serialize(_ value: Any) throws -> JSON {
        if let json = JSON(swiftValue: value) { return json }
        throw GraphQLError(message: "\(name) cannot represent value: \(value)")
    }

    /// Returns the value unchanged.
    public func parseValue(_ value: JSON) throws -> JSON { value }
}

extension JSON {
    /// Converts a Swift value that has an obvious JSON form: `JSON` itself, strings, the
    /// integer and floating-point types, booleans, arrays and string-keyed dictionaries of
    /// such values; `nil` for anything else.
    public init?(swiftValue value: Any) {
        switch value {
        case let json as JSON: self = json
        case let string as String: self = .string(string)
        case let int as Int: self = .int(int)
        case let bool as Bool: self = .bool(bool)
        case let double as Double: self = .double(double)
        case let int as Int32: self = .int(Int(int))
        case let int as Int64: self = .int(Int(int))
        case let int as Int16: self = .int(Int(int))
        case let int as Int8: self = .int(Int(int))
        case let int as UInt32: self = .int(Int(int))
        case let int as UInt16: self = .int(Int(int))
        case let int as UInt8: self = .int(Int(int))
        case let int as UInt:
            guard let fitting = Int(exactly: int) else { self = .double(Double(int)); return }
            self = .int(fitting)
        case let int as UInt64:
            guard let fitting = Int(exactly: int) else { self = .double(Double(int)); return }
            self = .int(fitting)
        case let float as Float: self = .double(Double(float))
        case let substring as Substring: self = .string(String(substring))
        case let array as [Any]:
            var items: [JSON] = []
            items.reserveCapacity(array.count)
            for item in array {
                guard let json = JSON(swiftValue: item) else { return nil }
                items.append(json)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var object = OrderedMap<String, JSON>(minimumCapacity: dictionary.count)
            for key in dictionary.keys.sorted() {
                guard let json = JSON(swiftValue: dictionary[key]!) else { return nil }
                object[key] = json
            }
            self = .object(object)
        default: return nil
        }
    }
}

extension Value {
    /// The literal as plain JSON without a type to guide it (graphql-js
    /// `valueFromASTUntyped`): numbers by their syntax, enum values as strings, variables
    /// looked up in `variables`. `nil` when a variable is missing.
    public func untypedJSON(variables: [String: JSON]) -> JSON? {
        switch kind {
        case .null: return .null
        case .boolean(let value): return .bool(value)
        case .string(let value, _): return .string(value)
        case .enumValue(let name): return .string(name)
        case .int(let text):
            if let int = Int(text) { return .int(int) }
            return .double(Double(text) ?? .nan)
        case .float(let text): return .double(Double(text) ?? .nan)
        case .variable(let name): return variables[name]
        case .list(let items):
            var values: [JSON] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = item.untypedJSON(variables: variables) else { return nil }
                values.append(value)
            }
            return .array(values)
        case .object(let fields):
            var object = OrderedMap<String, JSON>(minimumCapacity: fields.count)
            for field in fields {
                guard let value = field.value.untypedJSON(variables: variables) else { return nil }
                object[field.name.value] = value
            }
            return .object(object)
        }
    }
}
