// The syntax tree of GraphQL documents (spec section 2, "Language").
//
// Design, which the validation and execution layers rely on:
// - Nodes that later phases cache work against are `final class`es with only `let`
//   properties: `Document`, the definitions, `SelectionSet`, `Field`, `FragmentSpread`,
//   `InlineFragment` and `VariableDefinition`. Their identity (`ObjectIdentifier`) is a
//   cheap, stable cache key, as graphql-js uses node identity to memoise
//   OverlappingFieldsCanBeMerged comparisons and collected sub-fields per selection set.
//   Immutability makes them `Sendable`, so a parsed document can be cached and shared by
//   every request.
// - Small leaf nodes (`Name`, `Argument`, `Directive`, `Value`, `TypeReference`, the
//   members of type definitions) are structs: nothing keys on them and they stay inline.
// - Sum types (`Definition`, `Selection`, `Value.Kind`, `TypeReference`) are enums, so
//   a `switch` is exhaustive and fast.
// - Every node carries a `Location` (byte offsets plus the line and column of its start).

/// A name token: a field, type, argument, directive or variable name (without `$` or `@`).
public struct Name: Sendable, Hashable, CustomStringConvertible {
    /// The name's text.
    public let value: String
    /// Where the name token lies.
    public let location: Location

    /// Creates a name.
    public init(value: String, location: Location) {
        self.value = value
        self.location = location
    }

    /// The name's text.
    public var description: String { value }
}

/// A parsed GraphQL document: executable definitions, type-system definitions or both.
public final class Document: Sendable {
    /// The definitions, in source order.
    public let definitions: [Definition]
    /// The whole document.
    public let location: Location
    /// The lexical tokens the parser read (punctuators, names, values; not ignored tokens), or 0
    /// for a document not made by the parser: a measure of its size that caches use to
    /// estimate the memory it holds.
    public let tokenCount: Int

    /// Creates a document.
    public init(definitions: [Definition], location: Location, tokenCount: Int = 0) {
        self.definitions = definitions
        self.location = location
        self.tokenCount = tokenCount
    }

    /// The operation definitions, in source order.
    public var operations: [OperationDefinition] {
        definitions.compactMap { if case .operation(let operation) = $0 { operation } else { nil } }
    }

    /// The fragment definitions, in source order.
    public var fragments: [FragmentDefinition] {
        definitions.compactMap { if case .fragment(let fragment) = $0 { fragment } else { nil } }
    }
}

/// A top-level definition of a document.
public enum Definition: Sendable {
    /// `query`, `mutation`, `subscription` or a shorthand `{ … }` selection set.
    case operation(OperationDefinition)
    /// `fragment Name on Type { … }`.
    case fragment(FragmentDefinition)
    /// `schema { … }`.
    case schema(SchemaDefinition)
    /// `scalar`, `type`, `interface`, `union`, `enum` or `input` definitions.
    case type(TypeDefinition)
    /// `directive @name(…) on …`.
    case directive(DirectiveDefinition)
    /// `extend schema …`; the node's `description` is always `nil`.
    case schemaExtension(SchemaDefinition)
    /// `extend scalar|type|interface|union|enum|input …`; the node's `description` is always `nil`.
    ///
    /// Extensions reuse the definition nodes (graphql-js has separate node kinds of the same
    /// shape), so schema building merges both with the same code.
    case typeExtension(TypeDefinition)

    /// Whether this is an operation or a fragment (spec: ExecutableDefinition).
    public var isExecutable: Bool {
        switch self {
        case .operation, .fragment: true
        default: false
        }
    }

    /// Where the definition lies.
    public var location: Location {
        switch self {
        case .operation(let node): node.location
        case .fragment(let node): node.location
        case .schema(let node): node.location
        case .type(let node): node.location
        case .directive(let node): node.location
        case .schemaExtension(let node): node.location
        case .typeExtension(let node): node.location
        }
    }
}
