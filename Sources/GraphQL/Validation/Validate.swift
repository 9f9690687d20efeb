/// Checks an executable document against a schema (spec section 5) and returns the errors
/// found, in the order the single walk over the document finds them; empty when the document
/// is valid.
///
/// All rules run in one traversal. After `options.maxErrors` errors the walk stops and a last
/// error, "Too many validation errors, error limit reached. Validation aborted.", is added.
/// The schema is assumed valid (`buildSchema` checks it by default; see `validateSchema(_:)`).
public func validate(
    schema: Schema, document: Document, rules: [ValidationRule] = specifiedRules,
    options: ValidationOptions = ValidationOptions()
) -> [GraphQLError] {
    let context = ValidationContext(schema: schema, document: document, options: options)
    var walker = ValidationWalker(
        context: context, visitors: rules.map { $0.makeVisitor(context) }, visitsLeave: rules.map(\.visitsLeave))
    document.walk(&walker)
    return context.errors
}

/// Drives one walk: keeps the context's type information and ancestors current and hands each
/// node to every rule visitor that is not skipping it.
struct ValidationWalker: ASTVisitor {
    let context: ValidationContext
    let visitors: [any ValidationRuleVisitor]
    /// Per visitor: whether its `leave` is called.
    let visitsLeave: [Bool]
    /// Per visitor: `-1` when active, the depth of the node whose subtree it skips, or
    /// `Int.max` once it asked to stop.
    private var skipDepth: [Int]

    init(context: ValidationContext, visitors: [any ValidationRuleVisitor], visitsLeave: [Bool]) {
        self.context = context
        self.visitors = visitors
        self.visitsLeave = visitsLeave
        self.skipDepth = Array(repeating: -1, count: visitors.count)
    }

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        context.typeInfo.enter(node)
        let depth = context.ancestors.count
        for index in visitors.indices where skipDepth[index] < 0 {
            switch visitors[index].enter(node, context: context) {
            case .continue: break
            case .skipChildren: skipDepth[index] = depth
            case .stop: skipDepth[index] = .max
            }
            if context.isAborted { return .stop }
        }
        context.ancestors.append(node)
        return .continue
    }

    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        context.ancestors.removeLast()
        let depth = context.ancestors.count
        for index in visitors.indices {
            if skipDepth[index] < 0 {
                guard visitsLeave[index] else { continue }
                visitors[index].leave(node, context: context)
                if context.isAborted { return .stop }
            } else if skipDepth[index] == depth {
                skipDepth[index] = -1
            }
        }
        context.typeInfo.leave(node)
        return .continue
    }
}
