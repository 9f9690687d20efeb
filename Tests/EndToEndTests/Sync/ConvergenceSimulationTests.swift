import Foundation
import GraphQL
import Testing

/// Issue 17's proof: phones of three users (two households, one user in both, follows between them)
/// edit offline at random (habits, events, chores, tags; completions, undos, claims and releases of
/// chore instances; follow requests, answers and unfollows), come online in random orders, replay
/// their queues through `syncBatch` (some twice, some interrupted after a prefix, some again in a
/// later round) and catch up: most with `changes` in small pages, every third phone through a live
/// `syncDeltas` subscription over graphql-transport-ws. In the end every phone's copy equals its
/// user's full resync, and every acknowledged write is there.
///
/// Seeded and reproducible: `SYNC_SIM_SEED`, `SYNC_SIM_DEVICES` (per user), `SYNC_SIM_ROUNDS` and
/// `SYNC_SIM_STEPS` (offline edits per device per round) override the defaults; `tools/sync-sim`
/// runs it bigger.
@Suite struct ConvergenceSimulationTests {
    /// The simulation's size and seed, from the environment or the defaults `make test` runs.
    struct Settings: CustomStringConvertible {
        let seed: UInt64, devices: Int, rounds: Int, steps: Int

        /// The settings `environment` names, the defaults otherwise.
        init(_ environment: [String: String] = ProcessInfo.processInfo.environment) {
            func value<T: LosslessStringConvertible>(_ name: String, _ fallback: T) -> T { environment[name].flatMap(T.init) ?? fallback }
            seed = value("SYNC_SIM_SEED", 20_261_202)
            devices = max(3, value("SYNC_SIM_DEVICES", 3))
            rounds = value("SYNC_SIM_ROUNDS", 4)
            steps = value("SYNC_SIM_STEPS", 6)
        }

        var description: String { "SYNC_SIM_SEED=\(seed) SYNC_SIM_DEVICES=\(devices) SYNC_SIM_ROUNDS=\(rounds) SYNC_SIM_STEPS=\(steps)" }
    }

    /// The server's options: access tokens that last a long run, and follow requests not rate limited.
    static let serverArguments = ServerProcess.householdArguments + ["--access-token-ttl", "1d", "--follow-requests-per-hour", "1000000"]

    @Test func everyDeviceConvergesToItsUsersViewAndNoAcknowledgedWriteIsLost() throws {
        let settings = Settings()
        var random = SeededGenerator(seed: settings.seed)
        let server = try ServerProcess(Self.serverArguments)
        defer { server.remove() }
        let network = SimulationNetwork(server, settings)
        let people = [try server.person("ana"), try server.person("ben"), try server.person("cara")]
        let (ana, ben, cara) = (people[0], people[1], people[2])
        let (home, anaAtHome) = try server.createHousehold("Home", as: ana), (work, caraAtWork) = try server.createHousehold("Work", as: cara)
        let members = [
            ana.userID: [home: anaAtHome], cara.userID: [work: caraAtWork],
            ben.userID: [home: try server.join(ben, home, role: "ADMIN", invitedBy: ana), work: try server.join(ben, work, role: "ADMIN", invitedBy: cara)],
        ]
        _ = try server.follow(cara, by: ana)
        _ = try server.follow(ben, by: cara)
        // Within the planning horizon, so each chore has an instance at once.
        let choreDue = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: 3 * 86_400))
        var devices = people.flatMap { person in
            let others = Dictionary(uniqueKeysWithValues: people.filter { $0.userID != person.userID }.map { ($0.userID, $0.username) })
            return (1...settings.devices).map {
                SimulatedDevice(person, number: $0, members: members[person.userID]!, others: others, choreDue: choreDue, followsDeltas: $0 % 3 == 0)
            }
        }
        for index in devices.indices {
            try network.catchUp(&devices[index])
            try network.goOffline(&devices[index])
        }

        for _ in 0..<settings.rounds {
            for index in devices.indices {
                for _ in 0..<settings.steps { devices[index].editOffline(&random) }
            }
            for index in devices.indices.shuffled(using: &random) {
                let replay = SimulationNetwork.Replay.allCases.randomElement(using: &random)!
                let prefix = Int.random(in: 0...devices[index].queue.count, using: &random)
                let lateResend = Self.lateResend(of: devices[index], &random)
                try network.goOnline(&devices[index], replay, prefix: prefix, lateResend: lateResend)
            }
            for index in devices.indices { try network.goOffline(&devices[index]) }
        }
        // The subscribed devices first: their markers are writes the others then read.
        for index in devices.indices.sorted(by: { devices[$0].followsDeltas && !devices[$1].followsDeltas }) {
            try network.catchUp(&devices[index], settling: true)
            try network.goOffline(&devices[index], draining: false)
        }

        print("\(settings):", network.tally.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))

        var union: [String: JSON] = [:]
        for person in people {
            let truth = try Self.fullResync(of: person, on: server)
            union.merge(truth) { first, _ in first }
            for device in devices where device.person.userID == person.userID {
                let diff = Self.differences(device.copy, truth)
                #expect(diff.isEmpty, "\(device.name) diverged from the server (\(settings)):\n\(diff.joined(separator: "\n"))")
            }
        }
        let losses = network.ledger.losses(in: union)
        #expect(losses.isEmpty, "acknowledged writes lost (\(settings)):\n\(losses.joined(separator: "\n"))")
    }

    /// What `device` sends again before its queue, as a phone that never got the answer to an
    /// earlier round's batch does: one time in four, a prefix (perhaps all) of a queue it sent
    /// before, after other phones changed things; otherwise nothing.
    static func lateResend(of device: SimulatedDevice, _ random: inout SeededGenerator) -> ArraySlice<QueuedWrite> {
        guard Int.random(in: 0..<4, using: &random) == 0, let queue = device.sent.randomElement(using: &random) else { return [] }
        return queue.prefix(Int.random(in: 0...queue.count, using: &random))
    }

    /// What `person` sees on the server: a full resync (no `since`, every page), node by id.
    static func fullResync(of person: ServerProcess.Person, on server: ServerProcess) throws -> [String: JSON] {
        let read = try server.allChanges(since: nil, first: 50, node: SimulatedDevice.nodeSelection, as: person)
        #expect(read.changes.allSatisfy { $0.operation == "UPSERT" })
        return Dictionary(read.changes.map { ($0.id, $0.node ?? .null) }) { _, last in last }
    }

    /// The ids on which `copy` and `truth` differ, one line each.
    static func differences(_ copy: [String: JSON], _ truth: [String: JSON]) -> [String] {
        Set(copy.keys).union(truth.keys).sorted().compactMap { id in
            copy[id] == truth[id] ? nil : "\(id): device \(copy[id].map { "\($0)" } ?? "none"), server \(truth[id].map { "\($0)" } ?? "none")"
        }
    }
}
