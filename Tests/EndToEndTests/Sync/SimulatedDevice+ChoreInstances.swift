import GraphQL

/// A simulated device's offline edits of household chore instances: completions (and their undo),
/// claims and releases, which race with the other members' devices.
extension SimulatedDevice {
    /// Queues edit `kind` (0-4) of an instance in the copy; false when there is none to edit.
    mutating func editChoreInstances(_ kind: Int, _ mutationID: String, _ random: inout SeededGenerator) -> Bool {
        func pick(_ matches: (JSON) -> Bool) -> (id: String, chore: String?, household: String?)? {
            guard let id = ids("ChoreInstance", where: matches).randomElement(using: &random) else { return nil }
            return (id, copy[id]?["chore"]?["id"]?.stringValue, copy[id]?["household"]?["id"]?.stringValue)
        }
        let pending: (JSON) -> Bool = { $0["status"] == "PENDING" }
        switch kind {
        case 0, 1:
            guard let instance = pick(pending) else { return false }
            // Completing what another member completed first answers their completion (ALREADY_COMPLETED).
            queue("completeChore", ["instanceId": .string(instance.id), "crossHousehold": "COMPLETE_ANYWAY"],
                  selection: "outcome completion { id }", about: instance.id, mutationID, .complete, parent: instance.chore,
                  change: ["status": "COMPLETED"])
        case 2:
            guard let instance = pick({ $0["status"] == "COMPLETED" }) else { return false }
            queue("uncompleteChore", ["instanceId": .string(instance.id)], selection: "undoneCompletion { id }", about: instance.id, mutationID,
                  .uncomplete, parent: instance.chore, conflicts: ["CONFLICT NOT_COMPLETED"], change: ["status": "PENDING"])
        case 3:
            guard let instance = pick({ pending($0) && $0["claimant"] == .null }), let member = instance.household.flatMap({ members[$0] }) else {
                return false
            }
            let claimant: JSON = ["id": .string(member)]
            queue("claimChore", ["instanceId": .string(instance.id)], about: instance.id, mutationID,
                  .update(field: "claimant", value: claimant), parent: instance.chore,
                  conflicts: ["CONFLICT ALREADY_CLAIMED", "CONFLICT ALREADY_COMPLETED"], change: ["claimant": claimant])
        default:
            guard let instance = pick({ pending($0) && $0["claimant"] != .null }) else { return false }
            queue("releaseChore", ["instanceId": .string(instance.id)], about: instance.id, mutationID,
                  .update(field: "claimant", value: .null), parent: instance.chore,
                  conflicts: ["CONFLICT NOT_CLAIMED", "CONFLICT ALREADY_COMPLETED"], change: ["claimant": .null])
        }
        return true
    }
}
