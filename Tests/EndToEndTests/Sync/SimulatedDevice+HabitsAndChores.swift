import GraphQL

/// A simulated device's offline edits of habits, their events, chores and tags.
extension SimulatedDevice {
    private var ownHabits: [String] { ids("Habit") { $0["owner"]?["id"]?.stringValue == person.userID } }
    private var ownEvents: [String] {
        let habits = Set(ownHabits)
        return ids("HabitEvent") { habits.contains($0["habit"]?["id"]?.stringValue ?? "") }
    }
    private var householdChores: [String] { ids("Chore") { households.contains($0["household"]?["id"]?.stringValue ?? "") } }

    /// Queues edit `kind` (0-9; anything else, or an edit with nothing to edit, creates a habit)
    /// with the text `text`: creates with client-made ids, renames, comments and deletes.
    mutating func editHabitsAndChores(_ kind: Int, _ mutationID: String, text: String, _ random: inout SeededGenerator) {
        let habits = ownHabits, events = ownEvents, chores = householdChores
        switch kind {
        case 0 where !habits.isEmpty:
            let habit = habits.randomElement(using: &random)!
            queueDelete(habit, "deleteHabit", ["habitId": .string(habit)], mutationID)
            for event in events where copy[event]?["habit"]?["id"]?.stringValue == habit { copy[event] = nil }
        case 1 where !habits.isEmpty:
            queueUpdate(habits.randomElement(using: &random)!, "updateHabit", idField: "habitId", "title", .string(text), mutationID)
        case 2 where !habits.isEmpty, 3 where !habits.isEmpty:
            let habit = habits.randomElement(using: &random)!, event = "hev_" + random.uuid()
            queue(QueuedWrite(entry: ServerProcess.eventEntry(habit, eventID: event, comment: text, clientMutationID: mutationID), subject: event,
                              clientMutationID: mutationID, effect: .create(fields: ["comment": .string(text)]), parent: habit),
                  change: ["__typename": "HabitEvent", "comment": .string(text), "habit": ["id": .string(habit)]])
        case 4 where !events.isEmpty:
            queueUpdate(events.randomElement(using: &random)!, "updateHabitEvent", idField: "habitEventId", "comment", .string(text), mutationID)
        case 5 where !events.isEmpty:
            let event = events.randomElement(using: &random)!
            queueDelete(event, "deleteHabitEvent", ["habitEventId": .string(event)], mutationID)
        case 6 where !households.isEmpty:
            let household = households.randomElement(using: &random)!, chore = "chr_" + random.uuid()
            let input: [String: JSON] = [
                "id": .string(chore), "householdId": .string(household), "title": .string(text), "schedule": ["once": .string(choreDue)],
            ]
            queue("createChore", input, about: chore, mutationID, .create(fields: ["title": .string(text)]),
                  change: ["__typename": "Chore", "title": .string(text), "household": ["id": .string(household)]])
        case 7 where !chores.isEmpty:
            queueUpdate(chores.randomElement(using: &random)!, "updateChore", idField: "choreId", "title", .string(text), mutationID)
        case 8 where !households.isEmpty:
            let household = households.randomElement(using: &random)!, tag = "tag_" + random.uuid()
            queue("createTag", ["id": .string(tag), "householdId": .string(household), "name": .string(text)], about: tag, mutationID,
                  .create(fields: ["name": .string(text)]), change: ["__typename": "Tag", "name": .string(text), "household": ["id": .string(household)]])
        case 9 where !chores.isEmpty:
            let chore = chores.randomElement(using: &random)!
            queueDelete(chore, "deleteChore", ["choreId": .string(chore)], mutationID)
            for instance in ids("ChoreInstance", where: { $0["chore"]?["id"]?.stringValue == chore }) { copy[instance] = nil }
        default:
            let habit = "hab_" + random.uuid()
            queue(QueuedWrite(entry: ServerProcess.habitEntry(habit, title: text, clientMutationID: mutationID), subject: habit,
                              clientMutationID: mutationID, effect: .create(fields: ["title": .string(text)])),
                  change: ["__typename": "Habit", "title": .string(text), "owner": ["id": .string(person.userID)]])
        }
    }

    /// Queues `mutation` setting `field` of `id` (named `idField` in the input) to `value`, last writer wins.
    private mutating func queueUpdate(_ id: String, _ mutation: String, idField: String, _ field: String, _ value: JSON, _ mutationID: String) {
        queue(mutation, [idField: .string(id), field: value], about: id, mutationID, .update(field: field, value: value), change: [field: value])
    }
}
