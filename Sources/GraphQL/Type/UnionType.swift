/// A union type (spec 3.8): one of several object types.
public final class UnionType: Sendable {
    /// The type's name.
    public let name: String
    /// The type's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// The member types, in declaration order.
    public let types: [ObjectType]
    /// The definition node, when built from SDL.
    public let definition: UnionTypeDefinition?
    /// The `extend union` nodes, in source order.
    public let extensionDefinitions: [UnionTypeDefinition]

    /// Creates a union type.
    public init(
        name: String, description: String? = nil, types: [ObjectType],
        definition: UnionTypeDefinition? = nil, extensionDefinitions: [UnionTypeDefinition] = []
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.types = types
        self.definition = definition
        self.extensionDefinitions = extensionDefinitions
    }
}
