import GraphQL
import Testing

/// The online side of the convergence simulation: sends the devices' queues through `syncBatch`,
/// catches them up (paging `changes`, or through their live `syncDeltas` subscription) and keeps
/// the ledger of what the server acknowledged.
final class SimulationNetwork {
    /// How a device sends its queue when it comes online.
    enum Replay: CaseIterable {
        /// The queue once.
        case once
        /// The queue, then the same queue again (the answer was lost).
        case twice
        /// A prefix (the connection broke), then the whole queue.
        case interrupted
    }

    /// The page size of `changes` the paging devices read with: small, so paging is exercised.
    static let pageSize = 3

    let server: ServerProcess
    /// The run's settings, named in every failure.
    let settings: ConvergenceSimulationTests.Settings
    /// What the server acknowledged.
    private(set) var ledger = AcknowledgedWrites()
    /// The subscription of each device following `syncDeltas` while it is online, by device name.
    private var subscriptions: [String: DeltaSubscription] = [:]
    /// How many markers were written (numbers them).
    private var markers = 0
    /// What happened how often: each mutation's outcome (first answers, replays, refusals by
    /// reason) and the `syncDeltas` deliveries, printed at the end of a run to show what it covered.
    private(set) var tally: [String: Int] = [:]

    /// The network of `server`, for a run with `settings`.
    init(_ server: ServerProcess, _ settings: ConvergenceSimulationTests.Settings) {
        self.server = server
        self.settings = settings
    }

    /// `device` comes online: sends `lateResend` (a queue or a prefix of it sent in an earlier
    /// round), then its queue as `replay` says, then catches up.
    func goOnline(_ device: inout SimulatedDevice, _ replay: Replay, prefix: Int, lateResend: ArraySlice<QueuedWrite>) throws {
        tally["late resends (entries)", default: 0] += lateResend.count
        try send(lateResend, from: &device)
        let queue = device.queue
        if replay == .interrupted { try send(queue.prefix(prefix), from: &device) }
        try send(queue[...], from: &device)
        if replay == .twice { try send(queue[...], from: &device) }
        device.sent.append(queue)
        device.queue = []
        try catchUp(&device)
    }

    /// Sends `writes` as one `syncBatch`. A replay of an acknowledged write must answer its first
    /// result (or `NOT_FOUND` `DELETED` once its object is deleted); a write acknowledged for the
    /// first time goes in the ledger; a refused one must be a change of something deleted meanwhile
    /// (deletes win), of something whose creation was refused, or a conflict its policy answers.
    func send(_ writes: ArraySlice<QueuedWrite>, from device: inout SimulatedDevice) throws {
        guard !writes.isEmpty else { return }
        let response = try server.syncBatch(writes.map(\.entry), as: device.person)
        let results = ServerProcess.batchResults(response)
        try #require(results.count == writes.count, "\(device.name): \(response.json) (\(settings))")
        for (write, result) in zip(writes, results) {
            var answer: JSON?, mutation = result["response"]?["errors"]?[0]?["path"]?[0]?.stringValue ?? "?"
            if case .object(let data)? = result["response"]?["data"], let field = data.keys.first {
                (answer, mutation) = (data[field], field)
            }
            let extensions = result["response"]?["errors"]?[0]?["extensions"]
            let outcome = result["isSuccess"] == true
                ? answer?["outcome"]?.stringValue ?? "OK" : [extensions?["code"], extensions?["reason"]].compactMap { $0?.stringValue }.joined(separator: " ")
            tally["\(mutation) \(ledger.isReplay(write) ? "replayed" : "first"): \(outcome)", default: 0] += 1
            let context = "\(device.name) \(write.clientMutationID) of \(write.subject): \(result) (\(settings))"
            let deleted = extensions?["code"] == "NOT_FOUND" && extensions?["reason"] == "DELETED"
            if ledger.isReplay(write) {
                if result["isSuccess"] == true {
                    for problem in ledger.replayProblems(write, answer: answer) { Issue.record("\(problem): \(context)") }
                } else {
                    #expect(deleted && ledger.isDeleted(write.subject), "a replay answered other than its first result: \(context)")
                }
            } else if result["isSuccess"] == true {
                for problem in ledger.acknowledge(write, answer: answer) { Issue.record("\(problem): \(context)") }
            } else {
                let dependsOnRefusedCreation = ledger.wasNeverCreated(write.subject) && extensions?["code"] == "NOT_FOUND"
                #expect(deleted || write.isConflict(extensions) || dependsOnRefusedCreation, "refused: \(context)")
                ledger.refuse(write)
                // A conflict leaves the object, changed after the device's cursor: the catch-up brings it.
                if write.creates || !write.isConflict(extensions) { device.copy[write.subject] = nil }
            }
        }
    }

    /// Brings `device`'s copy up to what the server has committed: pages of `changes` from its
    /// cursor, or the deliveries of its `syncDeltas` subscription (started when it has none).
    /// `settling`: the last catch-up of the run, whose marker leaves the user's name as it began,
    /// so the markers of the user's other subscribed devices change nothing they have not seen.
    func catchUp(_ device: inout SimulatedDevice, settling: Bool = false) throws {
        guard device.followsDeltas else {
            let read = try server.allChanges(since: device.cursor, first: Self.pageSize, node: SimulatedDevice.nodeSelection, as: device.person)
            for change in read.changes { device.apply(change) }
            device.cursor = read.cursor
            return
        }
        if subscriptions[device.name] == nil {
            subscriptions[device.name] = try DeltaSubscription(to: server, as: device.person, after: device.cursor, node: SimulatedDevice.nodeSelection)
        }
        try drain(&device, subscriptions[device.name]!, settling: settling)
    }

    /// `device` goes offline: what its subscription delivered is applied (unless `draining` is
    /// false: it has just caught up) and the subscription ends (the next catch-up subscribes again
    /// after the cursor it kept).
    func goOffline(_ device: inout SimulatedDevice, draining: Bool = true) throws {
        guard let subscription = subscriptions.removeValue(forKey: device.name) else { return }
        if draining { try drain(&device, subscription) }
        subscription.close()
    }

    /// Applies the deliveries of `subscription` to `device` until everything committed so far has
    /// arrived: it writes a marker (a new display name of the device's user, which their account
    /// shows) and reads until the account comes with it in a delivery that read the stream to its
    /// end (`hasMore` false). The stream is in commit order, so everything before the marker came
    /// first. `settling`: the marker is the username, which the first settling marker restores.
    private func drain(_ device: inout SimulatedDevice, _ subscription: DeltaSubscription, settling: Bool = false) throws {
        markers += 1
        let marker = settling ? device.person.username : "\(device.person.username) ~\(markers)"
        let written = try server.graphQL(
            "mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["displayName": .string(marker)]), token: device.person.token)
        try #require(written.errorCode == nil, "\(written.json)")
        var arrived = false
        while true {
            let delta = try subscription.next()
            tally["syncDeltas deliveries", default: 0] += 1
            for change in delta.changes {
                device.apply(change)
                if change.id == device.person.userID, change.node?["displayName"]?.stringValue == marker { arrived = true }
            }
            device.cursor = delta.endCursor
            if arrived && !delta.hasMore { return }
        }
    }
}
