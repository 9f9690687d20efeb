import Foundation
import GraphQL
import Testing

/// Issue 17's proof: phones of three users (two households, one user in both, follows between them)
/// edit offline at random, come online in random orders, replay their queues through `syncBatch`
/// (some twice, some interrupted after a prefix) and catch up with `changes` in small pages. In the
/// end every phone's copy equals its user's full resync, and every acknowledged write is there.
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

    /// How a device sends its queue when it comes online.
    enum Replay: CaseIterable {
        /// The queue once.
        case once
        /// The queue, then the same queue again (the answer was lost).
        case twice
        /// A prefix (the connection broke), then the whole queue.
        case interrupted
    }

    /// The page size of `changes` the devices read with: small, so paging is exercised.
    static let pageSize = 3

    @Test func everyDeviceConvergesToItsUsersViewAndNoAcknowledgedWriteIsLost() throws {
        let settings = Settings()
        var random = SeededGenerator(seed: settings.seed)
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana"), ben = try server.person("ben"), cara = try server.person("cara")
        let home = try server.createHousehold("Home", as: ana).householdID, work = try server.createHousehold("Work", as: cara).householdID
        try server.join(ben, home, role: "ADMIN", invitedBy: ana)
        try server.join(ben, work, role: "ADMIN", invitedBy: cara)
        _ = try server.follow(cara, by: ana)
        _ = try server.follow(ben, by: cara)
        let households = [ana.userID: [home], ben.userID: [home, work], cara.userID: [work]]
        var devices = [ana, ben, cara].flatMap { person in
            (1...settings.devices).map { SimulatedDevice(person, number: $0, households: households[person.userID]!) }
        }
        var ledger = AcknowledgedWrites()
        for index in devices.indices { try Self.catchUp(&devices[index], on: server) }

        for _ in 0..<settings.rounds {
            for index in devices.indices {
                for _ in 0..<settings.steps { devices[index].editOffline(&random) }
            }
            for index in devices.indices.shuffled(using: &random) {
                let replay = Replay.allCases.randomElement(using: &random)!
                let prefix = Int.random(in: 0...devices[index].queue.count, using: &random)
                try Self.goOnline(&devices[index], replay, prefix: prefix, on: server, ledger: &ledger, settings)
            }
        }
        for index in devices.indices { try Self.catchUp(&devices[index], on: server) }

        var union: [String: JSON] = [:]
        for person in [ana, ben, cara] {
            let truth = try Self.fullResync(of: person, on: server)
            union.merge(truth) { first, _ in first }
            for device in devices where device.person.userID == person.userID {
                let diff = Self.differences(device.copy, truth)
                #expect(diff.isEmpty, "\(device.name) diverged from the server (\(settings)):\n\(diff.joined(separator: "\n"))")
            }
        }
        let losses = ledger.losses(in: union)
        #expect(losses.isEmpty, "acknowledged writes lost (\(settings)):\n\(losses.joined(separator: "\n"))")
    }

    /// `device` sends its queue as `replay` says, then catches up.
    static func goOnline(
        _ device: inout SimulatedDevice, _ replay: Replay, prefix: Int, on server: ServerProcess, ledger: inout AcknowledgedWrites, _ settings: Settings
    ) throws {
        let queue = device.queue
        if replay == .interrupted { try send(queue.prefix(prefix), from: &device, on: server, ledger: &ledger, settings) }
        try send(queue[...], from: &device, on: server, ledger: &ledger, settings)
        if replay == .twice { try send(queue[...], from: &device, on: server, ledger: &ledger, settings) }
        device.queue = []
        try catchUp(&device, on: server)
    }

    /// Sends `writes` as one `syncBatch`: an acknowledged write goes in the ledger; a refused one
    /// must be a change of something deleted meanwhile (deletes win) or of something whose creation
    /// was refused, and leaves the copy.
    static func send(
        _ writes: ArraySlice<QueuedWrite>, from device: inout SimulatedDevice, on server: ServerProcess,
        ledger: inout AcknowledgedWrites, _ settings: Settings
    ) throws {
        guard !writes.isEmpty else { return }
        let response = try server.syncBatch(writes.map(\.entry), as: device.person)
        let results = ServerProcess.batchResults(response)
        try #require(results.count == writes.count, "\(device.name): \(response.json) (\(settings))")
        for (write, result) in zip(writes, results) {
            if result["isSuccess"] == true {
                ledger.acknowledge(write)
                continue
            }
            let extensions = result["response"]?["errors"]?[0]?["extensions"]
            let refusal = "\(device.name) \(write.clientMutationID) refused: \(result) (\(settings))"
            defer { ledger.refuse(write) }
            if ledger.wasNeverCreated(write.subject) {
                #expect(extensions?["code"] == "NOT_FOUND", "\(refusal)")
            } else {
                #expect(extensions?["code"] == "NOT_FOUND" && extensions?["reason"] == "DELETED", "\(refusal)")
            }
            device.copy[write.subject] = nil
        }
    }

    /// Follows `changes` from the device's cursor, page by page, into its copy.
    static func catchUp(_ device: inout SimulatedDevice, on server: ServerProcess) throws {
        let read = try server.allChanges(since: device.cursor, first: pageSize, node: SimulatedDevice.nodeSelection, as: device.person)
        for change in read.changes { device.apply(change) }
        device.cursor = read.cursor
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
