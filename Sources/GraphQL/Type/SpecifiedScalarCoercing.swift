/// The coercion rules of the five built-in scalars (spec 3.5.1–3.5.5), with graphql-js's
/// error messages.
public enum SpecifiedScalarCoercing: ScalarCoercing {
    /// `Int`.
    case int
    /// `Float`.
    case float
    /// `String`.
    case string
    /// `Boolean`.
    case boolean
    /// `ID`.
    case id

    static let int32Range = Int(Int32.min)...Int(Int32.max)

    private var name: String {
        switch self {
        case .int: "Int"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .id: "ID"
        }
    }

    /// Result coercion as graphql-js performs it: `Int` and `Float` accept numeric strings
    /// and booleans, `String` accepts numbers and booleans, `Boolean` accepts numbers, `ID`
    /// accepts integers; everything else, and numbers out of range, throws.
    public func serialize(_ value: Any) throws -> JSON {
        switch self {
        case .int: try serializeInt(value)
        case .float: try serializeFloat(value)
        case .string: try serializeString(value)
        case .boolean: try serializeBoolean(value)
        case .id: try serializeID(value)
        }
    }

    /// Input coercion of a variable value, strictly per spec: no strings for numbers, no
    /// numbers for strings (except integers for `ID`).
    public func parseValue(_ value: JSON) throws -> JSON {
        switch self {
        case .int:
            guard let int = integral(value) else {
                throw GraphQLError(message: "Int cannot represent non-integer value: \(inspect(value))")
            }
            guard Self.int32Range.contains(int) else {
                throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(inspect(value))")
            }
            return .int(int)
        case .float:
            switch value {
            case .int(let int): return .double(Double(int))
            case .double(let double) where double.isFinite: return value
            default: throw GraphQLError(message: "Float cannot represent non numeric value: \(inspect(value))")
            }
        case .string:
            guard case .string = value else {
                throw GraphQLError(message: "String cannot represent a non string value: \(inspect(value))")
            }
            return value
        case .boolean:
            guard case .bool = value else {
                throw GraphQLError(message: "Boolean cannot represent a non boolean value: \(inspect(value))")
            }
            return value
        case .id:
            if case .string = value { return value }
            if let int = integral(value) { return .string(String(int)) }
            throw GraphQLError(message: "ID cannot represent value: \(inspect(value))")
        }
    }

    /// Input coercion of a literal: `Int` takes integer literals in 32-bit range, `Float`
    /// integer and float literals, `String` strings, `Boolean` booleans, `ID` strings and
    /// integer literals.
    public func parseLiteral(_ value: Value, variables: [String: JSON]) throws -> JSON {
        switch (self, value.kind) {
        case (.int, .int(let text)):
            guard let int = Int(text), Self.int32Range.contains(int) else {
                throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(text)")
            }
            return .int(int)
        case (.int, _):
            throw GraphQLError(message: "Int cannot represent non-integer value: \(Printer.print(value))")
        case (.float, .int(let text)), (.float, .float(let text)):
            guard let double = Double(text), double.isFinite else {
                throw GraphQLError(message: "Float cannot represent non numeric value: \(Printer.print(value))")
            }
            return .double(double)
        case (.float, _):
            throw GraphQLError(message: "Float cannot represent non numeric value: \(Printer.print(value))")
        case (.string, .string(let string, _)):
            return .string(string)
        case (.string, _):
            throw GraphQLError(message: "String cannot represent a non string value: \(Printer.print(value))")
        case (.boolean, .boolean(let bool)):
            return .bool(bool)
        case (.boolean, _):
            throw GraphQLError(message: "Boolean cannot represent a non boolean value: \(Printer.print(value))")
        case (.id, .string(let string, _)), (.id, .int(let string)):
            return .string(string)
        case (.id, _):
            throw GraphQLError(message: "ID cannot represent a non-string and non-integer value: \(Printer.print(value))")
        }
    }

    private func serializeInt(_ value: Any) throws -> JSON {
        if let int = value as? Int {
            guard Self.int32Range.contains(int) else {
                throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(int)")
            }
            return .int(int)
        }
        let json = JSON(swiftValue: value)
        let number: JSON?
        switch json {
        case .bool(let bool): number = .int(bool ? 1 : 0)
        case .string(let string): number = Self.number(from: string)
        default: number = json
        }
        guard let number, let int = integral(number) else {
            throw GraphQLError(message: "Int cannot represent non-integer value: \(shown(json, fallback: value))")
        }
        guard Self.int32Range.contains(int) else {
            throw GraphQLError(message: "Int cannot represent non 32-bit signed integer value: \(shown(json, fallback: value))")
        }
        return .int(int)
    }

    private func serializeFloat(_ value: Any) throws -> JSON {
        let json = JSON(swiftValue: value)
        switch json {
        case .double(let double) where double.isFinite: return .double(double)
        case .int(let int): return .double(Double(int))
        case .bool(let bool): return .double(bool ? 1 : 0)
        case .string(let string):
            if case .some(let number) = Self.number(from: string) { return try serializeFloat(number) }
        default: break
        }
        throw GraphQLError(message: "Float cannot represent non numeric value: \(shown(json, fallback: value))")
    }

    private func serializeString(_ value: Any) throws -> JSON {
        let json = JSON(swiftValue: value)
        switch json {
        case .string: return json!
        case .bool(let bool): return .string(bool ? "true" : "false")
        case .int(let int): return .string(String(int))
        case .double(let double) where double.isFinite: return .string(formatNumber(double))
        default:
            throw GraphQLError(message: "String cannot represent value: \(shown(json, fallback: value))")
        }
    }

    private func serializeBoolean(_ value: Any) throws -> JSON {
        let json = JSON(swiftValue: value)
        switch json {
        case .bool: return json!
        case .int(let int): return .bool(int != 0)
        case .double(let double) where double.isFinite: return .bool(double != 0)
        default:
            throw GraphQLError(message: "Boolean cannot represent a non boolean value: \(shown(json, fallback: value))")
        }
    }

    private func serializeID(_ value: Any) throws -> JSON {
        let json = JSON(swiftValue: value)
        switch json {
        case .string: return json!
        case .some(let number):
            if let int = integral(number) { return .string(String(int)) }
        case .none: break
        }
        throw GraphQLError(message: "ID cannot represent value: \(shown(json, fallback: value))")
    }

    /// The integer a JSON number stands for, if it is integral and fits in `Int`.
    private func integral(_ value: JSON) -> Int? {
        switch value {
        case .int(let int): return int
        case .double(let double):
            guard double.isFinite, double.rounded(.towardZero) == double else { return nil }
            return Int(exactly: double) ?? (double > 0 ? Int.max : Int.min)
        default: return nil
        }
    }

    /// A numeric string as JavaScript's `Number(string)` reads it for serialization; `nil`
    /// for the empty string and non-numeric text.
    private static func number(from string: String) -> JSON? {
        let trimmed = string.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        let text = String(trimmed)
        guard !text.isEmpty else { return nil }
        if let int = Int(text) { return .int(int) }
        if let double = Double(text), double.isFinite { return .double(double) }
        return nil
    }

    private func shown(_ json: JSON?, fallback: Any) -> String {
        json.map(inspect) ?? String(describing: fallback)
    }
}
