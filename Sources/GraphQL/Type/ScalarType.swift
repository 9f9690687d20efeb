/// A scalar type (spec 3.5): a leaf value with its own coercion rules.
public final class ScalarType: Sendable {
    /// The type's name.
    public let name: String
    /// The type's description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// The URL of the scalar's specification, from `@specifiedBy(url:)`.
    public let specifiedByURL: String?
    /// How values of the scalar are read and written.
    public let coercing: any ScalarCoercing
    /// The definition node, when built from SDL.
    public let definition: ScalarTypeDefinition?
    /// The `extend scalar` nodes, in source order.
    public let extensionDefinitions: [ScalarTypeDefinition]

    /// Creates a scalar type.
    public init(
        name: String, description: String? = nil, specifiedByURL: String? = nil,
        coercing: any ScalarCoercing, definition: ScalarTypeDefinition? = nil,
        extensionDefinitions: [ScalarTypeDefinition] = []
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.specifiedByURL = specifiedByURL
        self.coercing = coercing
        self.definition = definition
        self.extensionDefinitions = extensionDefinitions
    }

    /// Result coercion of a resolver's value; see `ScalarCoercing.serialize(_:)`.
    public func serialize(_ value: Any) throws -> JSON { try coercing.serialize(value) }

    /// Input coercion of a variable value; see `ScalarCoercing.parseValue(_:)`.
    public func parseValue(_ value: JSON) throws -> JSON { try coercing.parseValue(value) }

    /// Input coercion of a literal; see `ScalarCoercing.parseLiteral(_:variables:)`.
    public func parseLiteral(_ value: Value, variables: [String: JSON] = [:]) throws -> JSON {
        try coercing.parseLiteral(value, variables: variables)
    }

    /// `Int`: a signed 32-bit integer.
    public static let int = ScalarType(
        name: "Int",
        description: "The `Int` scalar type represents non-fractional signed whole numeric values. Int can represent values between -(2^31) and 2^31 - 1.",
        coercing: SpecifiedScalarCoercing.int)
    /// `Float`: a double-precision finite number.
    public static let float = ScalarType(
        name: "Float",
        description: "The `Float` scalar type represents signed double-precision fractional values as specified by [IEEE 754](https://en.wikipedia.org/wiki/IEEE_floating_point).",
        coercing: SpecifiedScalarCoercing.float)
    /// `String`: UTF-8 text.
    public static let string = ScalarType(
        name: "String",
        description: "The `String` scalar type represents textual data, represented as UTF-8 character sequences. The String type is most often used by GraphQL to represent free-form human-readable text.",
        coercing: SpecifiedScalarCoercing.string)
    /// `Boolean`: `true` or `false`.
    public static let boolean = ScalarType(
        name: "Boolean", description: "The `Boolean` scalar type represents `true` or `false`.",
        coercing: SpecifiedScalarCoercing.boolean)
    /// `ID`: an opaque identifier, serialized as a string; accepts strings and integers.
    public static let id = ScalarType(
        name: "ID",
        description: "The `ID` scalar type represents a unique identifier, often used to refetch an object or as key for a cache. The ID type appears in a JSON response as a String; however, it is not intended to be human-readable. When expected as an input type, any string (such as `\"4\"`) or integer (such as `4`) input value will be accepted as an ID.",
        coercing: SpecifiedScalarCoercing.id)

    /// The scalars the spec defines, in the order graphql-js lists them.
    public static let specified: [ScalarType] = [.string, .int, .float, .boolean, .id]
}
