/// A directive a schema defines (introspection's `__Directive`): built-in or custom.
public final class SchemaDirective: Sendable {
    /// The name, without `@`.
    public let name: String
    /// The description.
    public let description: String?
    /// `name` and `description` as quoted JSON text, for introspection.
    let quoted: QuotedText
    /// Where the directive may be used.
    public let locations: [DirectiveLocation]
    /// The arguments, in definition order.
    public let arguments: [InputValue]
    /// Whether the directive may appear more than once at one location.
    public let isRepeatable: Bool
    /// The definition node, when built from SDL.
    public let definition: DirectiveDefinition?

    /// Creates a directive.
    public init(
        name: String, description: String? = nil, locations: [DirectiveLocation], arguments: [InputValue] = [],
        isRepeatable: Bool = false, definition: DirectiveDefinition? = nil
    ) {
        self.name = name
        self.description = description
        quoted = QuotedText(name: name, description: description)
        self.locations = locations
        self.arguments = arguments
        self.isRepeatable = isRepeatable
        self.definition = definition
    }

    /// The argument called `name`.
    public func argument(named name: String) -> InputValue? {
        arguments.first { $0.name == name }
    }

    /// Whether this is one of the directives the spec defines.
    public var isSpecified: Bool { Self.specified.contains { $0 === self } }

    /// The reason `@deprecated` uses when none is given.
    public static let defaultDeprecationReason = "No longer supported"

    /// `@include(if: Boolean!)`.
    public static let include = SchemaDirective(
        name: "include",
        description: "Directs the executor to include this field or fragment only when the `if` argument is true.",
        locations: [.field, .fragmentSpread, .inlineFragment],
        arguments: [InputValue(name: "if", description: "Included when true.", type: .nonNull(.named(.scalar(.boolean))))])

    /// `@skip(if: Boolean!)`.
    public static let skip = SchemaDirective(
        name: "skip",
        description: "Directs the executor to skip this field or fragment when the `if` argument is true.",
        locations: [.field, .fragmentSpread, .inlineFragment],
        arguments: [InputValue(name: "if", description: "Skipped when true.", type: .nonNull(.named(.scalar(.boolean))))])

    /// `@deprecated(reason: String = "No longer supported")`.
    public static let deprecated = SchemaDirective(
        name: "deprecated",
        description: "Marks an element of a GraphQL schema as no longer supported.",
        locations: [.fieldDefinition, .argumentDefinition, .inputFieldDefinition, .enumValue],
        arguments: [InputValue(
            name: "reason",
            description: "Explains why this element was deprecated, usually also including a suggestion for how to access supported similar data. Formatted using the Markdown syntax, as specified by [CommonMark](https://commonmark.org/).",
            type: .named(.scalar(.string)), defaultValue: .string(defaultDeprecationReason))])

    /// `@specifiedBy(url: String!)`.
    public static let specifiedBy = SchemaDirective(
        name: "specifiedBy",
        description: "Exposes a URL that specifies the behavior of this scalar.",
        locations: [.scalar],
        arguments: [InputValue(
            name: "url", description: "The URL that specifies the behavior of this scalar.",
            type: .nonNull(.named(.scalar(.string))))])

    /// `@oneOf`.
    public static let oneOf = SchemaDirective(
        name: "oneOf",
        description: "Indicates exactly one field must be supplied and this field must not be `null`.",
        locations: [.inputObject])

    /// The directives the spec defines, in graphql-js's order.
    public static let specified: [SchemaDirective] = [.include, .skip, .deprecated, .specifiedBy, .oneOf]
}
