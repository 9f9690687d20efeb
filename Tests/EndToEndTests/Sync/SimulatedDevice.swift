import GraphQL

/// A phone of a user in the convergence simulation: a copy of what the user sees (id → node, as
/// `changes` or `syncDeltas` delivers it, with the device's own optimistic edits applied), a queue
/// of writes made offline, and the cursor it last caught up to.
struct SimulatedDevice {
    /// The node selection the devices (and the truth) read every node with (the `status` fields of
    /// different types under names of their own, as GraphQL requires).
    static let nodeSelection = """
        __typename id ... on Habit { title owner { id } } ... on HabitEvent { comment habit { id } }
        ... on Chore { title household { id } } ... on Tag { name household { id } }
        ... on ChoreInstance { status household { id } chore { id } claimant { id } completions { id } }
        ... on ChoreCompletion { completionStatus: status instance { id } }
        ... on Follow { followStatus: status follower { id } followed { id } } ... on User { displayName }
        """

    /// A name for messages: the user and the device's number.
    let name: String
    /// The user the device is signed in as.
    let person: ServerProcess.Person
    /// The user's member id in each household they are in (where the device makes chores and tags).
    let members: [String: String]
    /// The username of every other user of the simulation by user id (whom the device may follow).
    let others: [String: String]
    /// When the chores the device creates are due: one instance each, within the planning horizon.
    let choreDue: String
    /// Whether the device follows `syncDeltas` over WebSocket instead of paging through `changes`.
    let followsDeltas: Bool
    /// What the device shows: node JSON by id.
    var copy: [String: JSON] = [:]
    /// The last `endCursor` the device read, nil before its first (full) sync.
    var cursor: String?
    /// The writes made offline, not yet sent.
    var queue: [QueuedWrite] = []
    /// The queues sent in earlier rounds, which a late resend sends again.
    var sent: [[QueuedWrite]] = []
    /// How many writes the device made (numbers its `clientMutationId`s).
    private var made = 0

    /// The households the user is in.
    var households: [String] { members.keys.sorted() }

    /// A device of `person` numbered `number`, a member of households as `members` says, among
    /// `others`; chores it makes are due at `choreDue`.
    init(_ person: ServerProcess.Person, number: Int, members: [String: String], others: [String: String], choreDue: String, followsDeltas: Bool) {
        self.name = "\(person.username)#\(number)"
        self.person = person
        self.members = members
        self.others = others
        self.choreDue = choreDue
        self.followsDeltas = followsDeltas
    }

    /// The ids in the copy of `typename` for which `matches` holds, in order.
    func ids(_ typename: String, where matches: (JSON) -> Bool = { _ in true }) -> [String] {
        copy.filter { $0.value["__typename"]?.stringValue == typename && matches($0.value) }.keys.sorted()
    }

    /// Makes one random offline edit with `random`: queues it and applies it to the copy.
    mutating func editOffline(_ random: inout SeededGenerator) {
        made += 1
        let mutationID = "\(name)-\(made)"
        let kind = Int.random(in: 0..<20, using: &random)
        if kind >= 15, editFollows(kind - 15, mutationID, &random) { return }
        if kind >= 10, editChoreInstances(kind - 10, mutationID, &random) { return }
        editHabitsAndChores(kind, mutationID, text: "\(name) \(made)", &random)
    }

    /// The `syncBatch` entry of `mutation` (whose input type is its name, capitalised, + `Input`)
    /// with `input`, reading `selection` of its payload.
    static func entry(_ mutation: String, _ input: [String: JSON], selection: String = "clientMutationId") -> JSON {
        let inputType = mutation.prefix(1).uppercased() + mutation.dropFirst() + "Input"
        return ServerProcess.batchEntry(
            "mutation($input: \(inputType)!) { \(mutation)(input: $input) { \(selection) } }", ServerProcess.input(input))
    }

    /// Queues `write`, whose input is `input` plus its `clientMutationId`, and applies `change` to
    /// the copy of its subject (marked `optimistic`, so only the server's upsert makes the copy
    /// equal the truth).
    mutating func queue(
        _ mutation: String, _ input: [String: JSON], selection: String = "clientMutationId", about subject: String, _ mutationID: String,
        _ effect: QueuedWrite.Effect, parent: String? = nil, conflicts: Set<String> = [], change: [String: JSON]
    ) {
        let input = input.merging(["clientMutationId": .string(mutationID)]) { _, new in new }
        queue(QueuedWrite(entry: Self.entry(mutation, input, selection: selection), subject: subject, clientMutationID: mutationID,
                          effect: effect, parent: parent, conflicts: conflicts), change: change)
    }

    /// Queues `write` and applies `change` to the copy of its subject, as ``queue(_:_:selection:about:_:_:parent:conflicts:change:)``.
    mutating func queue(_ write: QueuedWrite, change: [String: JSON]) {
        queue.append(write)
        var node: OrderedMap<String, JSON> = ["id": .string(write.subject)]
        if case .object(let shown)? = copy[write.subject] { node = shown }
        for (field, value) in change.sorted(by: { $0.key < $1.key }) { node[field] = value }
        node["optimistic"] = true
        copy[write.subject] = .object(node)
    }

    /// Queues `mutation` deleting `id` and drops it from the copy.
    mutating func queueDelete(_ id: String, _ mutation: String, _ input: [String: JSON], _ mutationID: String, conflicts: Set<String> = []) {
        let input = input.merging(["clientMutationId": .string(mutationID)]) { _, new in new }
        queue.append(QueuedWrite(entry: Self.entry(mutation, input), subject: id, clientMutationID: mutationID, effect: .delete, conflicts: conflicts))
        copy[id] = nil
    }

    /// Applies a change delivered by `changes` or `syncDeltas`: an upsert replaces the copy's node
    /// (optimistic or not), a tombstone removes it.
    mutating func apply(_ change: ServerProcess.SyncChange) {
        copy[change.id] = change.operation == "UPSERT" ? change.node : nil
    }
}
