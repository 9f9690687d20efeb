/// An argument of a field or directive, or a field of an input object type (introspection's
/// `__InputValue`).
///
/// `@unchecked Sendable`: `defaultValue` is the only mutable property; the SDL builder sets it
/// from `defaultLiteral` once every input type is complete, before the schema is published
/// (see `BuildPhase`).
public final class InputValue: @unchecked Sendable {
    /// The name.
    public let name: String
    /// The description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// The declared type, an input type in a valid schema.
    public let type: SchemaType
    /// The default value as written in SDL, if any.
    public let defaultLiteral: Value?
    /// The default value after input coercion; `nil` when there is no default or the literal
    /// does not coerce (schema validation then reports it). An explicit `null` default is
    /// `.null`.
    public internal(set) var defaultValue: JSON?
    /// Why the argument or input field is deprecated, or `nil` if it is not.
    public let deprecationReason: String?
    /// The definition node, when built from SDL.
    public let definition: InputValueDefinition?

    /// Creates an input value.
    /// - Parameters:
    ///   - defaultValue: The default as a coerced value (e.g. `.string("RED")` for an enum).
    ///   - defaultLiteral: The default as written in SDL; the SDL builder coerces it.
    public init(
        name: String, description: String? = nil, type: SchemaType, defaultValue: JSON? = nil,
        defaultLiteral: Value? = nil, deprecationReason: String? = nil, definition: InputValueDefinition? = nil
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.type = type
        self.defaultValue = defaultValue
        self.defaultLiteral = defaultLiteral
        self.deprecationReason = deprecationReason
        self.definition = definition
    }

    /// Whether a default value is declared.
    public var hasDefaultValue: Bool { defaultLiteral != nil || defaultValue != nil }

    /// Whether a value must be provided: the type is non-null and there is no default.
    public var isRequired: Bool { type.isNonNull && !hasDefaultValue }

    /// Whether the argument or input field is deprecated.
    public var isDeprecated: Bool { deprecationReason != nil }
}
