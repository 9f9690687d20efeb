/// A response path as resolvers and errors see it: the path of the parent as a shared linked
/// list plus the last element. The executor itself tracks the path with a `PathStack` and
/// makes one of these only when it is asked for.
public struct ResponsePath: Sendable {
    let parent: PathNode?
    let last: GraphQLError.PathElement?

    init(parent: PathNode?, last: GraphQLError.PathElement?) {
        self.parent = parent
        self.last = last
    }

    /// The path from the response root, e.g. `["users", 3, "name"]`.
    public var elements: [GraphQLError.PathElement] {
        var elements: [GraphQLError.PathElement] = []
        if let last { elements.append(last) }
        var node = parent
        while let current = node {
            elements.append(current.element)
            node = current.parent
        }
        elements.reverse()
        return elements
    }

    /// The last response key on the path (the field's own key for a field path).
    public var lastKey: String? {
        if case .key(let key) = last { return key }
        return nil
    }
}

/// One element of a response path with a link to its parent.
final class PathNode: Sendable {
    let parent: PathNode?
    let element: GraphQLError.PathElement

    init(parent: PathNode?, element: GraphQLError.PathElement) {
        self.parent = parent
        self.element = element
    }
}

/// The response path of the value the executor is completing, as a stack of steps pushed
/// and popped as it descends into fields and list items: a step is two stores, with no
/// allocation and no retain. Path values (`ResponsePath`, `PathNode`) are made from it only
/// when one is needed (an error, a resolver's `ResolveInfo`, async work completed later),
/// and the nodes made are reused while their steps stay on the stack.
///
/// The stack starts from a `base` node: `nil` at the response root, the position of a
/// field's async work while that work completes its value (`rebase(on:)`).
struct PathStack: ~Copyable {
    /// A field (its response key) or a list index.
    private struct Step {
        /// The field whose key the step is, or `nil` for a list index. Unretained: a step is
        /// on the stack only while its field executes, and the plan that owns the field is
        /// held by the caller for all that time.
        var field: Unmanaged<FieldPlan>?
        var index: Int

        var element: GraphQLError.PathElement {
            if let field { return .key(field.takeUnretainedValue().responseKey) }
            return .index(index)
        }
    }

    private var steps: UnsafeMutablePointer<Step>
    private var capacity: Int
    /// The number of steps in use; the path's steps are `steps[bottom..<depth]`.
    private var depth = 0
    /// The first step above `base`.
    private var bottom = 0
    private var base: PathNode?
    /// `nodes[i]` is the node ending with step `i`, valid for `i < validNodes`.
    private var nodes: [PathNode?] = []
    private var validNodes = 0

    /// What `rebase(on:)` replaced, for `restore(_:)`.
    struct Saved {
        fileprivate let base: PathNode?
        fileprivate let bottom: Int
        fileprivate let validNodes: Int
    }

    init() {
        capacity = 32
        steps = .allocate(capacity: capacity)
    }

    deinit {
        steps.deallocate()
    }

    /// Whether the path is the response root's (no step, no base).
    var isRoot: Bool { depth == bottom && base == nil }

    /// Whether the path is a root field's (one step on no base).
    var isRootField: Bool { depth == bottom + 1 && base == nil }

    /// Descends into `field`.
    @inline(__always)
    mutating func push(_ field: FieldPlan) {
        push(Step(field: Unmanaged.passUnretained(field), index: 0))
    }

    /// Descends into a list's items, at index 0; `setIndex(_:)` moves to the next ones.
    @inline(__always)
    mutating func pushIndex() {
        push(Step(field: nil, index: 0))
    }

    @inline(__always)
    private mutating func push(_ step: Step) {
        if depth == capacity { grow() }
        (steps + depth).initialize(to: step)
        depth += 1
    }

    /// Moves the top step (a list index) to `index`.
    @inline(__always)
    mutating func setIndex(_ index: Int) {
        steps[depth - 1].index = index
        if validNodes >= depth { validNodes = depth - 1 }
    }

    /// Returns to the parent of the top step.
    @inline(__always)
    mutating func pop() {
        depth -= 1
        if validNodes > depth { validNodes = depth }
    }

    private mutating func grow() {
        let grown = UnsafeMutablePointer<Step>.allocate(capacity: capacity * 2)
        grown.moveInitialize(from: steps, count: depth)
        steps.deallocate()
        steps = grown
        capacity *= 2
    }

    /// The current path, for a resolver or a later reader.
    mutating func path() -> ResponsePath {
        guard depth > bottom else { return ResponsePath(parent: base?.parent, last: base?.element) }
        return ResponsePath(parent: node(upTo: depth - 1), last: steps[depth - 1].element)
    }

    /// The current path as a node, to `rebase(on:)` later.
    mutating func node() -> PathNode? {
        node(upTo: depth)
    }

    /// The node that ends with the step before `end` (the base when there is none).
    private mutating func node(upTo end: Int) -> PathNode? {
        if end <= bottom { return base }
        if end <= validNodes { return nodes[end - 1] }
        if nodes.count < end { nodes.append(contentsOf: repeatElement(nil, count: end - nodes.count)) }
        var node = validNodes > bottom ? nodes[validNodes - 1] : base
        for index in Swift.max(validNodes, bottom)..<end {
            node = PathNode(parent: node, element: steps[index].element)
            nodes[index] = node
        }
        validNodes = end
        return node
    }

    /// The current path's elements from the root, e.g. `["users", 3, "name"]`.
    var elements: [GraphQLError.PathElement] {
        var elements = ResponsePath(parent: base, last: nil).elements
        for index in bottom..<depth { elements.append(steps[index].element) }
        return elements
    }

    /// Makes `node` the current path, with the steps pushed until `restore(_:)` on top of it.
    mutating func rebase(on node: PathNode?) -> Saved {
        let saved = Saved(base: base, bottom: bottom, validNodes: validNodes)
        base = node
        bottom = depth
        validNodes = depth
        return saved
    }

    /// Returns to the path before `rebase(on:)` (every step pushed since has been popped).
    mutating func restore(_ saved: Saved) {
        base = saved.base
        bottom = saved.bottom
        validNodes = saved.validNodes
    }
}
