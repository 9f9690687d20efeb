// Syntax nodes of executable definitions: operations, selections and fragments.

/// The kind of an operation.
public enum OperationType: String, Sendable, Hashable, CaseIterable {
    /// A read-only fetch.
    case query
    /// A write followed by a fetch.
    case mutation
    /// A long-lived request answered by a stream of responses.
    case subscription
}

/// An operation: `query Name($v: T) @dir { … }`, or a shorthand `{ … }` query.
public final class OperationDefinition: Sendable {
    /// The description preceding the operation (September 2025 edition); never on shorthand.
    public let description: StringValue?
    /// The kind of operation; `.query` for the shorthand form.
    public let operation: OperationType
    /// The operation's name, if any.
    public let name: Name?
    /// The variable definitions, in source order.
    public let variableDefinitions: [VariableDefinition]
    /// The directives on the operation.
    public let directives: [Directive]
    /// The root selection set.
    public let selectionSet: SelectionSet
    /// Whether the operation was written as a bare selection set.
    public let isShorthand: Bool
    /// Where the operation lies.
    public let location: Location

    /// Creates an operation definition.
    public init(
        description: StringValue? = nil, operation: OperationType, name: Name?,
        variableDefinitions: [VariableDefinition] = [], directives: [Directive] = [],
        selectionSet: SelectionSet, isShorthand: Bool = false, location: Location
    ) {
        self.description = description
        self.operation = operation
        self.name = name
        self.variableDefinitions = variableDefinitions
        self.directives = directives
        self.selectionSet = selectionSet
        self.isShorthand = isShorthand
        self.location = location
    }
}

/// A variable reference, `$name`.
public struct Variable: Sendable, Hashable {
    /// The variable's name without `$`.
    public let name: Name
    /// Where `$name` lies, including the `$`.
    public let location: Location

    /// Creates a variable reference.
    public init(name: Name, location: Location) {
        self.name = name
        self.location = location
    }
}

/// A variable definition: `"description" $name: Type = default @dir`.
public final class VariableDefinition: Sendable {
    /// The description preceding the variable (September 2025 edition).
    public let description: StringValue?
    /// The variable being defined.
    public let variable: Variable
    /// The variable's declared type.
    public let type: TypeReference
    /// The default value, a constant.
    public let defaultValue: Value?
    /// The directives on the definition (constant arguments only).
    public let directives: [Directive]
    /// Where the definition lies.
    public let location: Location

    /// Creates a variable definition.
    public init(
        description: StringValue? = nil, variable: Variable, type: TypeReference,
        defaultValue: Value? = nil, directives: [Directive] = [], location: Location
    ) {
        self.description = description
        self.variable = variable
        self.type = type
        self.defaultValue = defaultValue
        self.directives = directives
        self.location = location
    }
}

/// A braced list of selections, `{ a b ...F }`.
///
/// A class so that executors can cache collected fields per (type, selection set) by identity.
public final class SelectionSet: Sendable {
    /// The selections, in source order.
    public let selections: [Selection]
    /// Where the braces and their contents lie.
    public let location: Location

    /// Creates a selection set.
    public init(selections: [Selection], location: Location) {
        self.selections = selections
        self.location = location
    }
}

/// One entry of a selection set.
public enum Selection: Sendable {
    /// A field, `alias: name(args) @dir { … }`.
    case field(Field)
    /// A named fragment spread, `...Name @dir`.
    case fragmentSpread(FragmentSpread)
    /// An inline fragment, `... on Type @dir { … }`.
    case inlineFragment(InlineFragment)

    /// Where the selection lies.
    public var location: Location {
        switch self {
        case .field(let node): node.location
        case .fragmentSpread(let node): node.location
        case .inlineFragment(let node): node.location
        }
    }

    /// The directives on the selection.
    public var directives: [Directive] {
        switch self {
        case .field(let node): node.directives
        case .fragmentSpread(let node): node.directives
        case .inlineFragment(let node): node.directives
        }
    }
}

/// A field selection.
public final class Field: Sendable {
    /// The alias, if one was given.
    public let alias: Name?
    /// The field's name.
    public let name: Name
    /// The arguments, in source order.
    public let arguments: [Argument]
    /// The directives on the field.
    public let directives: [Directive]
    /// The sub-selections, absent for leaf fields.
    public let selectionSet: SelectionSet?
    /// Where the field lies, from its alias or name to its end.
    public let location: Location

    /// Creates a field.
    public init(
        alias: Name? = nil, name: Name, arguments: [Argument] = [], directives: [Directive] = [],
        selectionSet: SelectionSet? = nil, location: Location
    ) {
        self.alias = alias
        self.name = name
        self.arguments = arguments
        self.directives = directives
        self.selectionSet = selectionSet
        self.location = location
    }

    /// The key of this field in the response: the alias if present, otherwise the name.
    public var responseKey: String { alias?.value ?? name.value }
}

/// An argument, `name: value`, of a field or directive.
public struct Argument: Sendable {
    /// The argument's name.
    public let name: Name
    /// The argument's value.
    public let value: Value
    /// Where the argument lies.
    public let location: Location

    /// Creates an argument.
    public init(name: Name, value: Value, location: Location) {
        self.name = name
        self.value = value
        self.location = location
    }
}

/// A directive application, `@name(args)`.
public struct Directive: Sendable {
    /// The directive's name without `@`.
    public let name: Name
    /// The arguments, in source order.
    public let arguments: [Argument]
    /// Where the directive lies, including `@`.
    public let location: Location

    /// Creates a directive.
    public init(name: Name, arguments: [Argument] = [], location: Location) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }
}

/// A named fragment spread, `...Name @dir`.
public final class FragmentSpread: Sendable {
    /// The fragment's name.
    public let name: Name
    /// The directives on the spread.
    public let directives: [Directive]
    /// Where the spread lies.
    public let location: Location

    /// Creates a fragment spread.
    public init(name: Name, directives: [Directive] = [], location: Location) {
        self.name = name
        self.directives = directives
        self.location = location
    }
}

/// An inline fragment, `... on Type @dir { … }`; the type condition is optional.
public final class InlineFragment: Sendable {
    /// The type condition, if any.
    public let typeCondition: Name?
    /// The directives on the fragment.
    public let directives: [Directive]
    /// The fragment's selections.
    public let selectionSet: SelectionSet
    /// Where the fragment lies.
    public let location: Location

    /// Creates an inline fragment.
    public init(typeCondition: Name?, directives: [Directive] = [], selectionSet: SelectionSet, location: Location) {
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.location = location
    }
}

/// A fragment definition, `"description" fragment Name on Type @dir { … }`.
public final class FragmentDefinition: Sendable {
    /// The description preceding the fragment (September 2025 edition).
    public let description: StringValue?
    /// The fragment's name (never `on`).
    public let name: Name
    /// The type condition.
    public let typeCondition: Name
    /// The directives on the fragment.
    public let directives: [Directive]
    /// The fragment's selections.
    public let selectionSet: SelectionSet
    /// Where the fragment lies.
    public let location: Location

    /// Creates a fragment definition.
    public init(
        description: StringValue? = nil, name: Name, typeCondition: Name, directives: [Directive] = [],
        selectionSet: SelectionSet, location: Location
    ) {
        self.description = description
        self.name = name
        self.typeCondition = typeCondition
        self.directives = directives
        self.selectionSet = selectionSet
        self.location = location
    }
}
