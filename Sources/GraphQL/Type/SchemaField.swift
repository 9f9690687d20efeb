/// A field of an object or interface type (introspection's `__Field`).
///
/// `@unchecked Sendable`: `index` is the only mutable property and is assigned by
/// `Schema.init` before the schema is published (see `BuildPhase`).
public final class SchemaField: @unchecked Sendable {
    /// The field's name.
    public let name: String
    /// The field's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// The arguments, in definition order.
    public let arguments: [InputValue]
    /// The field's type.
    public let type: SchemaType
    /// Why the field is deprecated, or `nil` if it is not.
    public let deprecationReason: String?
    /// The definition node, when built from SDL.
    public let definition: FieldDefinition?
    /// A number unique among the fields of the schema that owns this field, from 0 to
    /// `Schema.fieldCount - 1`: executors keep per-field data (resolvers, statistics) in an
    /// array indexed by it. `-1` until a schema owns the field.
    public internal(set) var index: Int = -1

    /// Creates a field.
    public init(
        name: String, description: String? = nil, arguments: [InputValue] = [], type: SchemaType,
        deprecationReason: String? = nil, definition: FieldDefinition? = nil
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.arguments = arguments
        self.type = type
        self.deprecationReason = deprecationReason
        self.definition = definition
    }

    /// Whether the field is deprecated.
    public var isDeprecated: Bool { deprecationReason != nil }

    /// The argument called `name`.
    public func argument(named name: String) -> InputValue? {
        arguments.first { $0.name == name }
    }
}

extension OrderedMap where Key == String, Value == SchemaField {
    /// The fields keyed by name, in the given order.
    init(fields: [SchemaField]) {
        self.init(minimumCapacity: fields.count)
        for field in fields { self[field.name] = field }
    }
}
