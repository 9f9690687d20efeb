/// An interface type (spec 3.7): fields that implementing objects and interfaces must provide.
///
/// `@unchecked Sendable`: `fields` and `interfaces` change only through `define(…)` during
/// the build phase; see `BuildPhase` for the proof.
public final class InterfaceType: @unchecked Sendable {
    /// The type's name.
    public let name: String
    /// The type's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// The definition node, when built from SDL.
    public let definition: InterfaceTypeDefinition?
    /// The `extend interface` nodes, in source order.
    public let extensionDefinitions: [InterfaceTypeDefinition]
    /// The fields by name, in definition order.
    public private(set) var fields: OrderedMap<String, SchemaField>
    /// The implemented interfaces, in declaration order.
    public private(set) var interfaces: [InterfaceType]
    let buildPhase = BuildPhase()

    /// Creates an interface type. To close cycles (a field whose type is this interface or refers
    /// back to it), create the type first and call `define(fields:interfaces:)` afterwards.
    public init(
        name: String, description: String? = nil, fields: [SchemaField] = [], interfaces: [InterfaceType] = [],
        definition: InterfaceTypeDefinition? = nil, extensionDefinitions: [InterfaceTypeDefinition] = []
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.fields = OrderedMap(fields: fields)
        self.interfaces = interfaces
        self.definition = definition
        self.extensionDefinitions = extensionDefinitions
    }

    /// Replaces the fields and interfaces. Only allowed before a `Schema` owns the type.
    public func define(fields: [SchemaField], interfaces: [InterfaceType]) {
        buildPhase.requireOpen(name)
        self.fields = OrderedMap(fields: fields)
        self.interfaces = interfaces
    }

    /// The field called `name`.
    public func field(named name: String) -> SchemaField? { fields[name] }
}
