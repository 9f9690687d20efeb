/// A validation rule (spec section 5): a name and a factory for the visitor that checks one
/// document.
///
/// `validate(schema:document:rules:options:)` creates one visitor per rule for each document
/// and walks the document once, dispatching every node to all visitors in parallel (graphql-js
/// `ParallelVisitor`). The spec's rules are in `specifiedRules`; the optional limits
/// (`maxDepth(_:)`, `maxAliases(_:)`, `maxComplexity(_:)`) and custom rules are added to that list.
public struct ValidationRule: Sendable {
    /// The rule's name, graphql-js style (`"FieldsOnCorrectType"`).
    public let name: String
    let makeVisitor: @Sendable (ValidationContext) -> any ValidationRuleVisitor
    /// Whether the walk calls the visitor's `leave`; `false` spares a call per node for rules
    /// whose visitor keeps the default, which does nothing.
    let visitsLeave: Bool
    /// The kinds of node the walk hands to the visitor, one bit per `ASTNode.Kind` raw value.
    let nodeKindBits: UInt64

    /// Creates a rule whose visitor `makeVisitor` creates, once per validated document.
    /// - Parameters:
    ///   - visitsLeave: Whether the visitor implements `leave`; when `false`, the walk never
    ///     calls it.
    ///   - nodeKinds: The kinds of node whose `enter` and `leave` the visitor implements; the
    ///     walk calls it for those only, which spares a call per node of any other kind. `nil`
    ///     (the default) calls it for every node. A visitor that returns `.skipChildren` from
    ///     a node must list that node's kind whenever the kinds it lists can lie below it.
    public init(
        name: String, visitsLeave: Bool = true, nodeKinds: Set<ASTNode.Kind>? = nil,
        makeVisitor: @escaping @Sendable (ValidationContext) -> any ValidationRuleVisitor
    ) {
        self.name = name
        self.visitsLeave = visitsLeave
        nodeKindBits = nodeKinds.map { kinds in kinds.reduce(0) { $0 | 1 << $1.rawValue } } ?? ~0
        self.makeVisitor = makeVisitor
    }
}

/// The per-document state and callbacks of a validation rule.
///
/// A visitor is a class because it lives for exactly one walk and accumulates state across
/// nodes. Both methods default to doing nothing. Returning `.skipChildren` from `enter` skips
/// the node's subtree for this visitor only (and its `leave` for that node); `.stop` ends this
/// visitor's part of the walk. The context's `TypeInfo` describes the node being entered or
/// left.
public protocol ValidationRuleVisitor: AnyObject {
    /// Called before the node's children.
    func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction
    /// Called after the node's children.
    func leave(_ node: ASTNode, context: ValidationContext)
}

extension ValidationRuleVisitor {
    /// Continues into the children.
    public func enter(_ node: ASTNode, context: ValidationContext) -> VisitAction { .continue }
    /// Does nothing.
    public func leave(_ node: ASTNode, context: ValidationContext) {}
}
