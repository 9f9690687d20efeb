/// An enum type (spec 3.9): a leaf whose values are names.
///
/// Coerced values of an enum are its value names as JSON strings, both on input and output.
public final class EnumType: Sendable {
    /// The type's name.
    public let name: String
    /// The type's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// The values by name, in definition order.
    public let values: OrderedMap<String, EnumValue>
    /// The definition node, when built from SDL.
    public let definition: EnumTypeDefinition?
    /// The `extend enum` nodes, in source order.
    public let extensionDefinitions: [EnumTypeDefinition]

    /// Creates an enum type; a repeated value name keeps its first definition.
    public init(
        name: String, description: String? = nil, values: [EnumValue],
        definition: EnumTypeDefinition? = nil, extensionDefinitions: [EnumTypeDefinition] = []
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        var map = OrderedMap<String, EnumValue>(minimumCapacity: values.count)
        for value in values where map[value.name] == nil { map[value.name] = value }
        self.values = map
        self.definition = definition
        self.extensionDefinitions = extensionDefinitions
    }

    /// The value called `name`.
    public func value(named name: String) -> EnumValue? { values[name] }

    /// Result coercion: accepts a value name as a Swift `String`, a `JSON` string, or a
    /// `RawRepresentable` with a `String` raw value (Swift enums mirroring the GraphQL enum).
    public func serialize(_ value: Any) throws -> JSON {
        let name: String? =
            if let string = exactValue(value as Any, as: String.self) {
                // The common case, read without the runtime's general cast.
                string
            } else {
                switch value {
                case let string as String: string
                case let json as JSON: if case .string(let string) = json { string } else { nil }
                case let raw as any RawRepresentable: raw.rawValue as? String
                default: nil
                }
            }
        guard let name, values[name] != nil else {
            let shown = JSON(swiftValue: value).map(inspect) ?? String(describing: value)
            throw GraphQLError(message: "Enum \"\(self.name)\" cannot represent value: \(shown)")
        }
        return .string(name)
    }

    /// Input coercion of a variable value: a string naming one of the values.
    public func parseValue(_ value: JSON) throws -> JSON {
        guard case .string(let name) = value else {
            throw GraphQLError(message: "Enum \"\(self.name)\" cannot represent non-string value: \(inspect(value))."
                + didYouMeanEnumValue(inspect(value)))
        }
        guard values[name] != nil else {
            throw GraphQLError(message: "Value \"\(name)\" does not exist in \"\(self.name)\" enum."
                + didYouMeanEnumValue(name))
        }
        return value
    }

    /// Input coercion of a literal: an enum literal naming one of the values.
    public func parseLiteral(_ value: Value) throws -> JSON {
        guard case .enumValue(let name) = value.kind else {
            throw GraphQLError(message: "Enum \"\(self.name)\" cannot represent non-enum value: \(Printer.print(value))."
                + didYouMeanEnumValue(Printer.print(value)))
        }
        guard values[name] != nil else {
            throw GraphQLError(message: "Value \"\(name)\" does not exist in \"\(self.name)\" enum."
                + didYouMeanEnumValue(name))
        }
        return .string(name)
    }

    private func didYouMeanEnumValue(_ unknown: String) -> String {
        didYouMean(suggestionList(input: unknown, options: values.keys), subject: "the enum value")
    }
}

/// A value of an enum type (introspection's `__EnumValue`).
public final class EnumValue: Sendable {
    /// The value's name.
    public let name: String
    /// The value's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// Why the value is deprecated, or `nil` if it is not.
    public let deprecationReason: String?
    /// The definition node, when built from SDL.
    public let definition: EnumValueDefinition?

    /// Creates an enum value.
    public init(
        name: String, description: String? = nil, deprecationReason: String? = nil,
        definition: EnumValueDefinition? = nil
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.deprecationReason = deprecationReason
        self.definition = definition
    }

    /// Whether the value is deprecated.
    public var isDeprecated: Bool { deprecationReason != nil }
}
