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
        _ = ASTWalker.visit(self, parent: nil, &visitor)
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

/// The traversal behind `ASTNode.walk(_:)`; each function returns `false` once the walk stops.
private enum ASTWalker {
    static func visit<V: ASTVisitor>(_ node: ASTNode, parent: ASTNode?, _ visitor: inout V) -> Bool {
        switch visitor.enter(node, parent: parent) {
        case .stop: return false
        case .skipChildren: return true
        case .continue: break
        }
        guard visitChildren(of: node, &visitor) else { return false }
        return visitor.leave(node, parent: parent) != .stop
    }

    static func visitAll<V: ASTVisitor, C: Sequence>(
        _ children: C, parent: ASTNode, _ visitor: inout V, as wrap: (C.Element) -> ASTNode
    ) -> Bool {
        for child in children where !visit(wrap(child), parent: parent, &visitor) { return false }
        return true
    }

    static func visitChildren<V: ASTVisitor>(of node: ASTNode, _ visitor: inout V) -> Bool {
        switch node {
        case .document(let document):
            return visitAll(document.definitions, parent: node, &visitor, as: ASTNode.init)
        case .operationDefinition(let operation):
            return visitAll(operation.variableDefinitions, parent: node, &visitor, as: ASTNode.variableDefinition)
                && visitAll(operation.directives, parent: node, &visitor, as: ASTNode.directive)
                && visit(.selectionSet(operation.selectionSet), parent: node, &visitor)
        case .variableDefinition(let definition):
            return visit(.type(definition.type), parent: node, &visitor)
                && visitAll(definition.defaultValue.map { [$0] } ?? [], parent: node, &visitor, as: ASTNode.value)
                && visitAll(definition.directives, parent: node, &visitor, as: ASTNode.directive)
        case .selectionSet(let selectionSet):
            return visitAll(selectionSet.selections, parent: node, &visitor, as: ASTNode.init)
        case .field(let field):
            return visitAll(field.arguments, parent: node, &visitor, as: ASTNode.argument)
                && visitAll(field.directives, parent: node, &visitor, as: ASTNode.directive)
                && visitAll(field.selectionSet.map { [$0] } ?? [], parent: node, &visitor, as: ASTNode.selectionSet)
        case .argument(let argument):
            return visit(.value(argument.value), parent: node, &visitor)
        case .fragmentSpread(let spread):
            return visitAll(spread.directives, parent: node, &visitor, as: ASTNode.directive)
        case .inlineFragment(let fragment):
            return visitAll(fragment.typeCondition.map { [$0] } ?? [], parent: node, &visitor, as: ASTNode.namedType)
                && visitAll(fragment.directives, parent: node, &visitor, as: ASTNode.directive)
                && visit(.selectionSet(fragment.selectionSet), parent: node, &visitor)
        case .fragmentDefinition(let fragment):
            return visit(.namedType(fragment.typeCondition), parent: node, &visitor)
                && visitAll(fragment.directives, parent: node, &visitor, as: ASTNode.directive)
                && visit(.selectionSet(fragment.selectionSet), parent: node, &visitor)
        case .value(let value):
            switch value.kind {
            case .list(let items): return visitAll(items, parent: node, &visitor, as: ASTNode.value)
            case .object(let fields): return visitAll(fields, parent: node, &visitor, as: ASTNode.objectField)
            default: return true
            }
        case .objectField(let field):
            return visit(.value(field.value), parent: node, &visitor)
        case .directive(let directive):
            return visitAll(directive.arguments, parent: node, &visitor, as: ASTNode.argument)
        case .type(let type):
            switch type {
            case .named(let name): return visit(.namedType(name), parent: node, &visitor)
            case .list(let inner, _), .nonNull(let inner, _): return visit(.type(inner), parent: node, &visitor)
            }
        case .namedType:
            return true
        case .enumValueDefinition(let value):
            return visitAll(value.directives, parent: node, &visitor, as: ASTNode.directive)
        case .schemaDefinition(let schema), .schemaExtension(let schema):
            return visitAll(schema.directives, parent: node, &visitor, as: ASTNode.directive)
                && visitAll(schema.operationTypes, parent: node, &visitor, as: ASTNode.operationTypeDefinition)
        case .operationTypeDefinition(let operationType):
            return visit(.namedType(operationType.type), parent: node, &visitor)
        case .typeDefinition(let type), .typeExtension(let type):
            return visitTypeDefinitionChildren(type, parent: node, &visitor)
        case .fieldDefinition(let field):
            return visitAll(field.arguments, parent: node, &visitor, as: ASTNode.inputValueDefinition)
                && visit(.type(field.type), parent: node, &visitor)
                && visitAll(field.directives, parent: node, &visitor, as: ASTNode.directive)
        case .inputValueDefinition(let input):
            return visit(.type(input.type), parent: node, &visitor)
                && visitAll(input.defaultValue.map { [$0] } ?? [], parent: node, &visitor, as: ASTNode.value)
                && visitAll(input.directives, parent: node, &visitor, as: ASTNode.directive)
        case .directiveDefinition(let directive):
            return visitAll(directive.arguments, parent: node, &visitor, as: ASTNode.inputValueDefinition)
        }
    }

    /// Children in graphql-js's order: interfaces, directives, then members.
    static func visitTypeDefinitionChildren<V: ASTVisitor>(
        _ type: TypeDefinition, parent: ASTNode, _ visitor: inout V
    ) -> Bool {
        let directives = { (visitor: inout V) in
            visitAll(type.directives, parent: parent, &visitor, as: ASTNode.directive)
        }
        switch type {
        case .scalar:
            return directives(&visitor)
        case .object(let object):
            return visitAll(object.interfaces, parent: parent, &visitor, as: ASTNode.namedType)
                && directives(&visitor)
                && visitAll(object.fields, parent: parent, &visitor, as: ASTNode.fieldDefinition)
        case .interface(let interface):
            return visitAll(interface.interfaces, parent: parent, &visitor, as: ASTNode.namedType)
                && directives(&visitor)
                && visitAll(interface.fields, parent: parent, &visitor, as: ASTNode.fieldDefinition)
        case .union(let union):
            return directives(&visitor) && visitAll(union.types, parent: parent, &visitor, as: ASTNode.namedType)
        case .enumType(let enumType):
            return directives(&visitor)
                && visitAll(enumType.values, parent: parent, &visitor, as: ASTNode.enumValueDefinition)
        case .inputObject(let inputObject):
            return directives(&visitor)
                && visitAll(inputObject.fields, parent: parent, &visitor, as: ASTNode.inputValueDefinition)
        }
    }
}
