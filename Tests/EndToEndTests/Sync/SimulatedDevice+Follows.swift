import GraphQL

/// A simulated device's offline edits of follows: asking to follow (with a client-made id),
/// accepting and declining requests, unfollowing (or withdrawing) and removing followers.
extension SimulatedDevice {
    /// Queues edit `kind` (0-4) of a follow; false when there is nothing to do.
    mutating func editFollows(_ kind: Int, _ mutationID: String, _ random: inout SeededGenerator) -> Bool {
        let me = person.userID
        let outgoing = ids("Follow") { $0["follower"]?["id"]?.stringValue == me }
        let incoming = ids("Follow") { $0["followed"]?["id"]?.stringValue == me }
        func status(_ follow: String) -> String? { copy[follow]?["followStatus"]?.stringValue }
        switch kind {
        case 0, 1:
            let followed = Set(outgoing.compactMap { copy[$0]?["followed"]?["id"]?.stringValue })
            guard let user = others.keys.sorted().filter({ !followed.contains($0) }).randomElement(using: &random) else { return false }
            let follow = "fol_" + random.uuid()
            queue("requestFollow", ["id": .string(follow), "username": .string(others[user]!)], about: follow, mutationID,
                  .create(fields: ["followStatus": "REQUESTED"]), conflicts: ["CONFLICT ALREADY_FOLLOWING", "CONFLICT ALREADY_REQUESTED"],
                  change: ["__typename": "Follow", "followStatus": "REQUESTED", "follower": ["id": .string(me)], "followed": ["id": .string(user)]])
        case 2:
            guard let follow = incoming.filter({ status($0) == "REQUESTED" }).randomElement(using: &random) else { return false }
            // Another device of the user may have answered it first: NOT_FOUND, as for any request answered already.
            queue("acceptFollowRequest", ["followId": .string(follow)], about: follow, mutationID, .update(field: "followStatus", value: "ACCEPTED"),
                  conflicts: ["NOT_FOUND"], change: ["followStatus": "ACCEPTED"])
        case 3:
            guard let follow = outgoing.randomElement(using: &random) else { return false }
            queueDelete(follow, "unfollow", ["followId": .string(follow)], mutationID)
        default:
            guard let follow = incoming.randomElement(using: &random) else { return false }
            if status(follow) == "REQUESTED" {
                queueDelete(follow, "declineFollowRequest", ["followId": .string(follow)], mutationID, conflicts: ["NOT_FOUND"])
            } else {
                queueDelete(follow, "removeFollower", ["followId": .string(follow)], mutationID)
            }
        }
        return true
    }
}
