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
    var walker = ValidationWalker(context: context, rules: rules)
    document.walk(&walker)
    return context.errors
}

/// Drives one walk: keeps the context's type information and ancestors current and hands each
/// node to every rule visitor that visits its kind and is not skipping it, in rule order.
struct ValidationWalker: ASTVisitor {
    let context: ValidationContext
    let visitors: [any ValidationRuleVisitor]
    /// The visitors to enter per node kind: `entering[enterStart[kind]..<enterStart[kind + 1]]`
    /// holds their indices (one flat array, so that a node costs no array retain).
    private let entering: [Int]
    private let enterStart: [Int]
    /// The same for the visitors whose `leave` is called.
    private let leaving: [Int]
    private let leaveStart: [Int]
    /// Per visitor: `-1` when active, the depth of the node whose subtree it skips, or
    /// `Int.max` once it asked to stop.
    private var skipDepth: [Int]
    /// The visitors skipping a subtree, with its depth (deepest last), to make active again
    /// when the walk leaves it.
    private var skips: [(depth: Int, visitor: Int)] = []
    /// How many visitors are neither skipping nor stopped: when none is, the walk skips the
    /// node's subtree (the limit rules, which measure operations themselves, otherwise cost a
    /// walk over every node of a document they refuse).
    private var activeCount: Int

    init(context: ValidationContext, rules: [ValidationRule]) {
        self.context = context
        visitors = rules.map { $0.makeVisitor(context) }
        skipDepth = Array(repeating: -1, count: rules.count)
        activeCount = rules.count
        func dispatch(_ calls: (ValidationRule) -> Bool) -> (indices: [Int], start: [Int]) {
            var indices: [Int] = []
            var start = [0]
            for kind in ASTNode.Kind.allCases {
                for (index, rule) in rules.enumerated() where calls(rule) && rule.nodeKindBits & 1 << kind.rawValue != 0 {
                    indices.append(index)
                }
                start.append(indices.count)
            }
            return (indices, start)
        }
        (entering, enterStart) = dispatch { _ in true }
        (leaving, leaveStart) = dispatch(\.visitsLeave)
    }

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        context.typeInfo.enter(node)
        let depth = context.ancestors.count
        let kind = node.kind.rawValue
        for slot in enterStart[kind]..<enterStart[kind + 1] {
            let index = entering[slot]
            guard skipDepth[index] < 0 else { continue }
            switch visitors[index].enter(node, context: context) {
            case .continue: break
            case .skipChildren:
                skipDepth[index] = depth
                skips.append((depth, index))
                activeCount -= 1
            case .stop:
                skipDepth[index] = .max
                activeCount -= 1
            }
            if context.isAborted { return .stop }
        }
        guard activeCount > 0 else {
            // No visitor wants this subtree, nor this node's leave: undo the entry and skip it.
            restoreSkips(at: depth)
            context.typeInfo.leave(node)
            return activeCount == 0 && skips.isEmpty ? .stop : .skipChildren
        }
        context.ancestors.append(node)
        return .continue
    }

    /// Makes the visitors that skipped the subtree at `depth` active again.
    private mutating func restoreSkips(at depth: Int) {
        while let skip = skips.last, skip.depth == depth {
            skips.removeLast()
            skipDepth[skip.visitor] = -1
            activeCount += 1
        }
    }

    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        context.ancestors.removeLast()
        let depth = context.ancestors.count
        let kind = node.kind.rawValue
        for slot in leaveStart[kind]..<leaveStart[kind + 1] {
            let index = leaving[slot]
            guard skipDepth[index] < 0 else { continue }
            visitors[index].leave(node, context: context)
            if context.isAborted { return .stop }
        }
        restoreSkips(at: depth)
        context.typeInfo.leave(node)
        return .continue
    }
}
