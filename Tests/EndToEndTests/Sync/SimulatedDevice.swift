import GraphQL

/// One write a simulated device queued offline: the `syncBatch` entry and what it means for the
/// objects, so the simulation can check that an acknowledged write survives.
struct QueuedWrite {
    /// What the write does to `subject`.
    enum Effect {
        /// Creates `subject` with these plain fields (and, for an event, under `habit`).
        case create(fields: [String: JSON], habit: String?)
        /// Sets one plain field of `subject`.
        case update(field: String, value: JSON)
        /// Deletes `subject` (and what the delete cascades to).
        case delete
    }

    /// The `syncBatch` entry.
    let entry: JSON
    /// The id the write is about.
    let subject: String
    /// Its `clientMutationId`.
    let clientMutationID: String
    /// What it does.
    let effect: Effect
}

/// A phone of a user in the convergence simulation: a copy of what the user sees (id → node, as
/// `changes` delivers it, with the device's own optimistic edits applied), a queue of writes made
/// offline, and the cursor it last caught up to.
struct SimulatedDevice {
    /// The node selection the devices (and the truth) read every node with.
    static let nodeSelection = """
        __typename id ... on Habit { title owner { id } } ... on HabitEvent { comment habit { id } }
        ... on Chore { title household { id } } ... on Tag { name household { id } }
        """

    /// A name for messages: the user and the device's number.
    let name: String
    /// The user the device is signed in as.
    let person: ServerProcess.Person
    /// The households the user is in (where the device creates chores and tags).
    let households: [String]
    /// What the device shows: node JSON by id.
    var copy: [String: JSON] = [:]
    /// The last `endCursor` the device read, nil before its first (full) sync.
    var cursor: String?
    /// The writes made offline, not yet acknowledged.
    var queue: [QueuedWrite] = []
    /// How many writes the device made (numbers its `clientMutationId`s).
    private var made = 0

    /// A device of `person` numbered `number`, in `households`.
    init(_ person: ServerProcess.Person, number: Int, households: [String]) {
        self.name = "\(person.username)#\(number)"
        self.person = person
        self.households = households
    }

    /// The ids in the copy of `typename` for which `mine` holds.
    private func ids(_ typename: String, where mine: (JSON) -> Bool) -> [String] {
        copy.filter { $0.value["__typename"]?.stringValue == typename && mine($0.value) }.keys.sorted()
    }

    private var ownHabits: [String] { ids("Habit") { $0["owner"]?["id"]?.stringValue == person.userID } }
    private var ownEvents: [String] {
        let habits = Set(ownHabits)
        return ids("HabitEvent") { habits.contains($0["habit"]?["id"]?.stringValue ?? "") }
    }
    private var householdChores: [String] { ids("Chore") { households.contains($0["household"]?["id"]?.stringValue ?? "") } }

    /// Makes one random offline edit with `random`: queues it and applies it to the copy.
    mutating func editOffline(_ random: inout SeededGenerator) {
        made += 1
        let mutationID = "\(name)-\(made)", text = "\(name) \(made)"
        let habits = ownHabits, events = ownEvents, chores = householdChores
        switch Int.random(in: 0..<10, using: &random) {
        case 0 where !habits.isEmpty:
            let habit = habits.randomElement(using: &random)!
            queueDelete(habit, "deleteHabit", ["habitId": .string(habit)], mutationID)
            for event in events where copy[event]?["habit"]?["id"]?.stringValue == habit { copy[event] = nil }
        case 1 where !habits.isEmpty:
            update(habits.randomElement(using: &random)!, "updateHabit", idField: "habitId", "title", .string(text), mutationID)
        case 2 where !habits.isEmpty, 3 where !habits.isEmpty:
            let habit = habits.randomElement(using: &random)!, event = "hev_" + random.uuid()
            let fields: [String: JSON] = ["comment": .string(text)]
            enqueue(ServerProcess.eventEntry(habit, eventID: event, comment: text, clientMutationID: mutationID), event, mutationID,
                    .create(fields: fields, habit: habit), node: ["__typename": "HabitEvent", "comment": .string(text), "habit": ["id": .string(habit)]])
        case 4 where !events.isEmpty:
            update(events.randomElement(using: &random)!, "updateHabitEvent", idField: "habitEventId", "comment", .string(text), mutationID)
        case 5 where !events.isEmpty:
            let event = events.randomElement(using: &random)!
            queueDelete(event, "deleteHabitEvent", ["habitEventId": .string(event)], mutationID)
        case 6 where !households.isEmpty:
            let household = households.randomElement(using: &random)!, chore = "chr_" + random.uuid()
            let input: [String: JSON] = [
                "id": .string(chore), "householdId": .string(household), "title": .string(text),
                "schedule": ["once": "2036-03-01T09:00:00Z"], "clientMutationId": .string(mutationID),
            ]
            enqueue(Self.entry("createChore", input), chore, mutationID, .create(fields: ["title": .string(text)], habit: nil),
                    node: ["__typename": "Chore", "title": .string(text), "household": ["id": .string(household)]])
        case 7 where !chores.isEmpty:
            update(chores.randomElement(using: &random)!, "updateChore", idField: "choreId", "title", .string(text), mutationID)
        case 8 where !households.isEmpty:
            let household = households.randomElement(using: &random)!, tag = "tag_" + random.uuid()
            let input: [String: JSON] = ["id": .string(tag), "householdId": .string(household), "name": .string(text), "clientMutationId": .string(mutationID)]
            enqueue(Self.entry("createTag", input), tag, mutationID, .create(fields: ["name": .string(text)], habit: nil),
                    node: ["__typename": "Tag", "name": .string(text), "household": ["id": .string(household)]])
        case 9 where !chores.isEmpty:
            let chore = chores.randomElement(using: &random)!
            queueDelete(chore, "deleteChore", ["choreId": .string(chore)], mutationID)
        default:
            let habit = "hab_" + random.uuid()
            enqueue(ServerProcess.habitEntry(habit, title: text, clientMutationID: mutationID), habit, mutationID,
                    .create(fields: ["title": .string(text)], habit: nil),
                    node: ["__typename": "Habit", "title": .string(text), "owner": ["id": .string(person.userID)]])
        }
    }

    /// The `syncBatch` entry of `mutation` (whose input type is its name, capitalised, + `Input`) with `input`.
    private static func entry(_ mutation: String, _ input: [String: JSON]) -> JSON {
        let inputType = mutation.prefix(1).uppercased() + mutation.dropFirst() + "Input"
        return ServerProcess.batchEntry(
            "mutation($input: \(inputType)!) { \(mutation)(input: $input) { clientMutationId } }", ServerProcess.input(input))
    }

    /// Queues `mutation` setting `field` of `id` to `value`, and applies it to the copy.
    private mutating func update(_ id: String, _ mutation: String, idField: String, _ field: String, _ value: JSON, _ mutationID: String) {
        let input: [String: JSON] = [idField: .string(id), field: value, "clientMutationId": .string(mutationID)]
        var node = copy[id] ?? .object([:])
        if case .object(var fields) = node {
            fields[field] = value
            fields["optimistic"] = true
            node = .object(fields)
        }
        queue.append(QueuedWrite(entry: Self.entry(mutation, input), subject: id, clientMutationID: mutationID, effect: .update(field: field, value: value)))
        copy[id] = node
    }

    /// Queues `mutation` deleting `id` and drops it from the copy.
    private mutating func queueDelete(_ id: String, _ mutation: String, _ input: [String: JSON], _ mutationID: String) {
        let input = input.merging(["clientMutationId": .string(mutationID)]) { _, new in new }
        queue.append(QueuedWrite(entry: Self.entry(mutation, input), subject: id, clientMutationID: mutationID, effect: .delete))
        copy[id] = nil
    }

    /// Queues the creation `entry` of `id` and puts its optimistic `node` in the copy (marked
    /// `optimistic`, so only the server's upsert makes the copy equal the truth).
    private mutating func enqueue(_ entry: JSON, _ id: String, _ mutationID: String, _ effect: QueuedWrite.Effect, node: OrderedMap<String, JSON>) {
        queue.append(QueuedWrite(entry: entry, subject: id, clientMutationID: mutationID, effect: effect))
        var node = node
        node["id"] = .string(id)
        node["optimistic"] = true
        copy[id] = .object(node)
    }

    /// Applies a `changes` entry: an upsert replaces the copy's node (optimistic or not), a tombstone removes it.
    mutating func apply(_ change: ServerProcess.SyncChange) {
        copy[change.id] = change.operation == "UPSERT" ? change.node : nil
    }
}
