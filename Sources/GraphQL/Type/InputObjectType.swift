/// An input object type (spec 3.10): named input fields, optionally a OneOf input object.
///
/// `@unchecked Sendable`: `fields` changes only through `define(fields:)` during the build
/// phase; see `BuildPhase` for the proof.
public final class InputObjectType: @unchecked Sendable {
    /// The type's name.
    public let name: String
    /// The type's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// Whether exactly one field must be given, non-null (`@oneOf`).
    public let isOneOf: Bool
    /// The definition node, when built from SDL.
    public let definition: InputObjectTypeDefinition?
    /// The `extend input` nodes, in source order.
    public let extensionDefinitions: [InputObjectTypeDefinition]
    /// The fields by name, in definition order.
    public private(set) var fields: OrderedMap<String, InputValue>
    let buildPhase = BuildPhase()

    /// Creates an input object type. To close cycles, create the type first and call
    /// `define(fields:)` afterwards.
    public init(
        name: String, description: String? = nil, fields: [InputValue] = [], isOneOf: Bool = false,
        definition: InputObjectTypeDefinition? = nil, extensionDefinitions: [InputObjectTypeDefinition] = []
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.isOneOf = isOneOf
        self.definition = definition
        self.extensionDefinitions = extensionDefinitions
        self.fields = Self.map(fields)
    }

    /// Replaces the fields. Only allowed before a `Schema` owns the type.
    public func define(fields: [InputValue]) {
        buildPhase.requireOpen(name)
        self.fields = Self.map(fields)
    }

    /// The field called `name`.
    public func field(named name: String) -> InputValue? { fields[name] }

    private static func map(_ fields: [InputValue]) -> OrderedMap<String, InputValue> {
        var map = OrderedMap<String, InputValue>(minimumCapacity: fields.count)
        for field in fields { map[field.name] = field }
        return map
    }
}
