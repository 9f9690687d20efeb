/// Any node of a syntax tree, as the visitor sees it.
///
/// Names are not nodes of their own, except where they refer to a type (`namedType`), so
/// that a rule like "known type names" sees every type reference in one place. Descriptions
/// are not visited.
public enum ASTNode: Sendable {
    /// The root.
    case document(Document)
    /// An operation.
    case operationDefinition(OperationDefinition)
    /// A variable definition of an operation.
    case variableDefinition(VariableDefinition)
    /// A selection set.
    case selectionSet(SelectionSet)
    /// A field selection.
    case field(Field)
    /// An argument of a field or directive.
    case argument(Argument)
    /// A fragment spread.
    case fragmentSpread(FragmentSpread)
    /// An inline fragment.
    case inlineFragment(InlineFragment)
    /// A fragment definition.
    case fragmentDefinition(FragmentDefinition)
    /// A value literal, including each item of a list and each field value of an object.
    case value(Value)
    /// A field of an object value.
    case objectField(ObjectField)
    /// A directive application.
    case directive(Directive)
    /// A level of a type reference (`[T!]!`, then `[T!]`, then `T!`, then `T`).
    case type(TypeReference)
    /// A reference to a type by name: the innermost level of a type reference, a type
    /// condition, an implemented interface, a union member or a root operation type.
    case namedType(Name)
    /// A schema definition.
    case schemaDefinition(SchemaDefinition)
    /// A schema extension.
    case schemaExtension(SchemaDefinition)
    /// `query: Query` in a schema definition or extension.
    case operationTypeDefinition(OperationTypeDefinition)
    /// A type definition.
    case typeDefinition(TypeDefinition)
    /// A type extension.
    case typeExtension(TypeDefinition)
    /// A field definition of an object or interface type.
    case fieldDefinition(FieldDefinition)
    /// An argument definition or input field definition.
    case inputValueDefinition(InputValueDefinition)
    /// An enum value definition.
    case enumValueDefinition(EnumValueDefinition)
    /// A directive definition.
    case directiveDefinition(DirectiveDefinition)

    /// Wraps a top-level definition.
    public init(_ definition: Definition) {
        switch definition {
        case .operation(let node): self = .operationDefinition(node)
        case .fragment(let node): self = .fragmentDefinition(node)
        case .schema(let node): self = .schemaDefinition(node)
        case .type(let node): self = .typeDefinition(node)
        case .directive(let node): self = .directiveDefinition(node)
        case .schemaExtension(let node): self = .schemaExtension(node)
        case .typeExtension(let node): self = .typeExtension(node)
        }
    }

    /// Wraps a selection.
    public init(_ selection: Selection) {
        switch selection {
        case .field(let node): self = .field(node)
        case .fragmentSpread(let node): self = .fragmentSpread(node)
        case .inlineFragment(let node): self = .inlineFragment(node)
        }
    }

    /// Where the node lies.
    public var location: Location {
        switch self {
        case .document(let node): node.location
        case .operationDefinition(let node): node.location
        case .variableDefinition(let node): node.location
        case .selectionSet(let node): node.location
        case .field(let node): node.location
        case .argument(let node): node.location
        case .fragmentSpread(let node): node.location
        case .inlineFragment(let node): node.location
        case .fragmentDefinition(let node): node.location
        case .value(let node): node.location
        case .objectField(let node): node.location
        case .directive(let node): node.location
        case .type(let node): node.location
        case .namedType(let node): node.location
        case .schemaDefinition(let node), .schemaExtension(let node): node.location
        case .operationTypeDefinition(let node): node.location
        case .typeDefinition(let node), .typeExtension(let node): node.location
        case .fieldDefinition(let node): node.location
        case .inputValueDefinition(let node): node.location
        case .enumValueDefinition(let node): node.location
        case .directiveDefinition(let node): node.location
        }
    }

    /// Walks the subtree rooted at this node depth-first in source order, calling the
    /// visitor's `enter` before and `leave` after each node's children.
    public func walk<Visitor: ASTVisitor>(_ visitor: inout Visitor) {
        ASTWalker.walk(self, &visitor)
    }
}

/// What a visitor wants the walk to do next.
public enum VisitAction: Sendable {
    /// Visit the node's children, then call `leave`.
    case `continue`
    /// Skip the node's children and do not call `leave` for it (as in graphql-js).
    case skipChildren
    /// End the whole walk at once.
    case stop
}

/// Receives the nodes of a walk (`ASTNode.walk(_:)`); both methods default to doing nothing.
///
/// The walk is generic over the visitor, so a concrete visitor is called directly, without
/// dynamic dispatch. Validation builds its single-traversal walker on top of this.
public protocol ASTVisitor {
    /// Called before the node's children; `parent` is `nil` for the node the walk started at.
    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction
    /// Called after the node's children; return `.stop` to end the walk.
    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction
}

extension ASTVisitor {
    /// Continues into the children.
    public mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction { .continue }
    /// Continues the walk.
    public mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction { .continue }
}

extension Document {
    /// Walks the whole document; see `ASTNode.walk(_:)`.
    public func walk<Visitor: ASTVisitor>(_ visitor: inout Visitor) {
        ASTNode.document(self).walk(&visitor)
    }
}

/// The traversal behind `ASTNode.walk(_:)`. It keeps its own stack instead of recursing, so
/// walking a tree costs no call-stack depth however deeply the document nests.
///
/// A node's entry stays on the stack while its children are walked (they lie above it), so
/// each node is copied into the stack once, and a child finds its parent by index rather
/// than holding a copy of it.
private enum ASTWalker {
    struct Entry {
        let node: ASTNode
        /// The index of the parent's entry, or `-1` for the node the walk started at.
        let parent: Int
        /// Whether `enter` was called (the children are on the stack above, or done).
        var entered = false
    }

    static func walk<V: ASTVisitor>(_ root: ASTNode, _ visitor: inout V) {
        var stack = [Entry(node: root, parent: -1)]
        stack.reserveCapacity(64)
        while let top = stack.indices.last {
            let parent = stack[top].parent
            if stack[top].entered {
                let action = visitor.leave(stack[top].node, parent: parent < 0 ? nil : stack[parent].node)
                stack.removeLast()
                if action == .stop { return }
                continue
            }
            switch visitor.enter(stack[top].node, parent: parent < 0 ? nil : stack[parent].node) {
            case .stop: return
            case .skipChildren:
                stack.removeLast()
                continue
            case .continue: break
            }
            stack[top].entered = true
            forEachChild(of: stack[top].node) { stack.append(Entry(node: $0, parent: top)) }
            // Children are pushed in source order and popped last first: reverse them.
            var low = top + 1, high = stack.count - 1
            while low < high {
                stack.swapAt(low, high)
                low += 1
                high -= 1
            }
        }
    }

    /// Calls `body` with each child of `node` in source order (graphql-js's visitor keys).
    static func forEachChild(of node: ASTNode, _ body: (ASTNode) -> Void) {
        switch node {
        case .document(let document):
            document.definitions.forEach { body(ASTNode($0)) }
        case .operationDefinition(let operation):
            operation.variableDefinitions.forEach { body(.variableDefinition($0)) }
            operation.directives.forEach { body(.directive($0)) }
            body(.selectionSet(operation.selectionSet))
        case .variableDefinition(let definition):
            body(.type(definition.type))
            if let defaultValue = definition.defaultValue { body(.value(defaultValue)) }
            definition.directives.forEach { body(.directive($0)) }
        case .selectionSet(let selectionSet):
            selectionSet.selections.forEach { body(ASTNode($0)) }
        case .field(let field):
            field.arguments.forEach { body(.argument($0)) }
            field.directives.forEach { body(.directive($0)) }
            if let selectionSet = field.selectionSet { body(.selectionSet(selectionSet)) }
        case .argument(let argument):
            body(.value(argument.value))
        case .fragmentSpread(let spread):
            spread.directives.forEach { body(.directive($0)) }
        case .inlineFragment(let fragment):
            if let typeCondition = fragment.typeCondition { body(.namedType(typeCondition)) }
            fragment.directives.forEach { body(.directive($0)) }
            body(.selectionSet(fragment.selectionSet))
        case .fragmentDefinition(let fragment):
            body(.namedType(fragment.typeCondition))
            fragment.directives.forEach { body(.directive($0)) }
            body(.selectionSet(fragment.selectionSet))
        case .value(let value):
            switch value.kind {
            case .list(let items): items.forEach { body(.value($0)) }
            case .object(let fields): fields.forEach { body(.objectField($0)) }
            default: break
            }
        case .objectField(let field):
            body(.value(field.value))
        case .directive(let directive):
            directive.arguments.forEach { body(.argument($0)) }
        case .type(let type):
            switch type {
            case .named(let name): body(.namedType(name))
            case .list(let inner, _), .nonNull(let inner, _): body(.type(inner))
            }
        case .namedType:
            break
        case .schemaDefinition(let schema), .schemaExtension(let schema):
            schema.directives.forEach { body(.directive($0)) }
            schema.operationTypes.forEach { body(.operationTypeDefinition($0)) }
        case .operationTypeDefinition(let operationType):
            body(.namedType(operationType.type))
        case .typeDefinition(let type), .typeExtension(let type):
            forEachChild(ofType: type, body)
        case .fieldDefinition(let field):
            field.arguments.forEach { body(.inputValueDefinition($0)) }
            body(.type(field.type))
            field.directives.forEach { body(.directive($0)) }
        case .inputValueDefinition(let input):
            body(.type(input.type))
            if let defaultValue = input.defaultValue { body(.value(defaultValue)) }
            input.directives.forEach { body(.directive($0)) }
        case .enumValueDefinition(let value):
            value.directives.forEach { body(.directive($0)) }
        case .directiveDefinition(let directive):
            directive.arguments.forEach { body(.inputValueDefinition($0)) }
        }
    }

    /// Children of a type definition in graphql-js's order: interfaces, directives, members.
    static func forEachChild(ofType type: TypeDefinition, _ body: (ASTNode) -> Void) {
        switch type {
        case .object(let object):
            object.interfaces.forEach { body(.namedType($0)) }
        case .interface(let interface):
            interface.interfaces.forEach { body(.namedType($0)) }
        default:
            break
        }
        type.directives.forEach { body(.directive($0)) }
        switch type {
        case .scalar:
            break
        case .object(let object):
            object.fields.forEach { body(.fieldDefinition($0)) }
        case .interface(let interface):
            interface.fields.forEach { body(.fieldDefinition($0)) }
        case .union(let union):
            union.types.forEach { body(.namedType($0)) }
        case .enumType(let enumType):
            enumType.values.forEach { body(.enumValueDefinition($0)) }
        case .inputObject(let inputObject):
            inputObject.fields.forEach { body(.inputValueDefinition($0)) }
        }
    }
}
