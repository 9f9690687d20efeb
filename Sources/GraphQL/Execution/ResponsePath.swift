/// A response path as the executor carries it: the path of the parent as a shared linked
/// list plus the last element, so that descending into a leaf field allocates nothing and
/// the array form is built only when an error or a resolver asks for it.
public struct ResponsePath: Sendable {
    let parent: PathNode?
    let last: GraphQLError.PathElement?

    static let root = ResponsePath(parent: nil, last: nil)

    init(parent: PathNode?, last: GraphQLError.PathElement?) {
        self.parent = parent
        self.last = last
    }

    /// The path as a shared node (allocated once per object or list that has children).
    var node: PathNode? {
        guard let last else { return parent }
        return PathNode(parent: parent, element: last)
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
