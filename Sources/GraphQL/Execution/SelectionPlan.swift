import Synchronization

/// The collected fields of a selection for one object type, ready to execute: response
/// keys, field definitions, resolvers and, where no variable is involved, coerced arguments.
///
/// Plans are built lazily, once per (object type, field nodes) of a prepared operation, and
/// shared by every request executing it unless its `@skip`/`@include` take variables.
final class SelectionPlan: Sendable {
    let objectType: ObjectType
    let fields: [FieldPlan]
    /// Whether any field uses the default resolver (which reads the parent value).
    let usesDefaultResolver: Bool
    /// The fields that have a `plainLeafType`: their positions in `fields` and the words of
    /// their names, side by side for the executor's key matching.
    let plainLeaves: [(position: Int, nameWords: StringWords)]
    /// An open-addressing table over `plainLeaves` by `StringWords.slot(bits:)`: each slot
    /// holds an index into `plainLeaves` plus one, or 0 when empty. At most a quarter full.
    let plainLeafSlots: [Int]
    /// The table's size as a power of two.
    let plainLeafSlotBits: Int

    init(objectType: ObjectType, selectionSets: [SelectionSet], request: RequestContext) {
        self.objectType = objectType
        var grouped = OrderedMap<String, [Field]>()
        var visited = Set<String>()
        let schema = request.schema
        for selectionSet in selectionSets {
            collectFields(
                objectType: objectType, selectionSet: selectionSet, schema: schema,
                fragments: request.prepared.fragments, variables: request.variableValues,
                visitedFragments: &visited, into: &grouped)
        }
        var fields: [FieldPlan] = []
        fields.reserveCapacity(grouped.count)
        let parent = NamedType.object(objectType)
        for (key, nodes) in grouped {
            guard let definition = schema.field(named: nodes[0].name.value, on: parent) else { continue }
            fields.append(FieldPlan(responseKey: key, nodes: nodes, definition: definition, request: request))
        }
        self.fields = fields
        usesDefaultResolver = fields.contains { $0.kind.isDefaultResolver }
        let plainLeaves: [(position: Int, nameWords: StringWords)] =
            fields.indices.compactMap { fields[$0].plainLeafType == nil ? nil : ($0, fields[$0].nameWords) }
        var bits = 4
        while 1 << bits < 4 * plainLeaves.count { bits += 1 }
        var slots = Array(repeating: 0, count: 1 << bits)
        for (index, leaf) in plainLeaves.enumerated() {
            var slot = leaf.nameWords.slot(bits: bits)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
            slots[slot] = index + 1
        }
        self.plainLeaves = plainLeaves
        plainLeafSlots = slots
        plainLeafSlotBits = bits
    }
}

/// One field of a `SelectionPlan`: everything about it that does not change per object.
final class FieldPlan: Sendable {
    /// How the executor produces the field's value.
    enum Kind: Sendable {
        /// `__typename`: the runtime object type's name, no resolver involved.
        case typeName
        /// `__schema` or `__type` while introspection is disabled.
        case introspectionDisabled
        /// A field with an attached resolver.
        case attached(AttachedResolver)
        /// A field read by the default resolver.
        case defaultResolver

        var isDefaultResolver: Bool {
            if case .defaultResolver = self { return true }
            return false
        }
    }

    /// A built-in scalar whose common Swift value the executor serializes directly.
    enum FastLeaf: Sendable {
        case string, int, float, boolean
    }

    let responseKey: String
    /// The response key as quoted JSON text, written once per object in the response. A
    /// buffer rather than an array, so that writing it costs no retain: allocated by `init`,
    /// freed by `deinit` and never written in between, so reading it from any thread is safe
    /// (which is what `nonisolated(unsafe)` asserts for this non-`Sendable` pointer).
    nonisolated(unsafe) let quotedResponseKey: UnsafeBufferPointer<UInt8>
    let fieldNodes: [Field]
    let definition: SchemaField
    /// The field's name and type, copied from `definition` for the executor's hot path.
    let name: String
    /// The two words of `name`'s representation: a string with the same words is equal to
    /// it (as `String.==` also assumes first), found without hashing either.
    let nameWords: StringWords
    let returnType: SchemaType
    let kind: Kind
    /// The coerced arguments when they take no variables (computed once); `nil` otherwise.
    let constantArguments: Result<Arguments, GraphQLError>?
    /// The sub-selections of all the field's nodes, in order.
    let selectionSets: [SelectionSet]
    /// Set when the field's type is a built-in scalar, possibly non-null (not a list).
    let fastLeafType: FastLeaf?
    /// `fastLeafType` when the default resolver reads the field and it takes no arguments:
    /// the executor reads and serializes such a field in place, without a response path.
    let plainLeafType: FastLeaf?
    private let childPlans = Mutex<[SelectionPlan]>([])

    init(responseKey: String, nodes: [Field], definition: SchemaField, request: RequestContext) {
        self.responseKey = responseKey
        let quoted = JSONWriter.quoted(responseKey)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: quoted.count)
        _ = buffer.initialize(from: quoted)
        quotedResponseKey = UnsafeBufferPointer(buffer)
        self.fieldNodes = nodes
        self.definition = definition
        name = definition.name
        nameWords = StringWords(definition.name)
        returnType = definition.type
        let introspection = request.schema.introspection
        if definition === introspection.typeNameField {
            kind = .typeName
        } else if !request.executor.options.introspection,
                  definition === introspection.schemaField || definition === introspection.typeField {
            kind = .introspectionDisabled
        } else if let resolver = request.executor.fieldResolvers[definition.index] {
            kind = .attached(resolver)
        } else {
            kind = .defaultResolver
        }
        let node = nodes[0]
        if definition.arguments.isEmpty {
            constantArguments = .success(.empty)
        } else if node.arguments.allSatisfy(\.value.isConstant) {
            constantArguments = Result { () throws(GraphQLError) in
                try coerceArgumentValues(definition: definition, node: node, variables: [:])
            }
        } else {
            constantArguments = nil
        }
        selectionSets = nodes.compactMap(\.selectionSet)
        if case .named(.scalar(let scalar)) = definition.type.nullableType {
            if scalar === ScalarType.string || scalar === ScalarType.id {
                fastLeafType = .string
            } else if scalar === ScalarType.int {
                fastLeafType = .int
            } else if scalar === ScalarType.float {
                fastLeafType = .float
            } else if scalar === ScalarType.boolean {
                fastLeafType = .boolean
            } else {
                fastLeafType = nil
            }
        } else {
            fastLeafType = nil
        }
        plainLeafType = kind.isDefaultResolver && definition.arguments.isEmpty ? fastLeafType : nil
    }

    deinit {
        quotedResponseKey.deallocate()
    }

    /// The plan of the field's sub-selections for the runtime object type `objectType`.
    func childPlan(for objectType: ObjectType, request: RequestContext) -> SelectionPlan {
        if let plan = childPlans.withLock({ plans in plans.first { $0.objectType === objectType } }) {
            return plan
        }
        let plan = SelectionPlan(objectType: objectType, selectionSets: selectionSets, request: request)
        return childPlans.withLock { plans in
            if let existing = plans.first(where: { $0.objectType === objectType }) { return existing }
            plans.append(plan)
            return plan
        }
    }

    /// The field's coerced arguments in `request`.
    func arguments(in request: RequestContext) throws(GraphQLError) -> Arguments {
        if let constantArguments { return try constantArguments.get() }
        return try coerceArgumentValues(definition: definition, node: fieldNodes[0], variables: request.variableValues)
    }

    /// The field's locations for error reports.
    var locations: [SourceLocation] { fieldNodes.map(\.location.sourceLocation) }
}

/// The two machine words a `String` is made of. Equal words mean equal strings (for a small
/// string they hold its bytes, for a large one its storage object); equal strings may still
/// have different words, so a mismatch proves nothing.
struct StringWords: Equatable, Sendable {
    private let first: UInt64
    private let second: UInt64

    @inline(__always)
    init(_ string: String) {
        (first, second) = withUnsafeBytes(of: string) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// A slot in a table of `1 << bits` slots (a multiplicative hash of both words).
    @inline(__always)
    func slot(bits: Int) -> Int {
        Int(truncatingIfNeeded: ((first &+ second &* 31) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }
}
