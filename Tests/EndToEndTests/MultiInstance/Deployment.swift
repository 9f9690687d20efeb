import Foundation
import HearthStore
import Testing

/// Several `hearth serve` processes on one PostgreSQL database, with nginx in front
/// (``LoadBalancer``) or without: the deployment issue 20's proof runs against. Each instance has
/// its own log; they share the test's directory, where the first one records the database's URL
/// so the others open the same database.
final class Deployment {
    /// The instances, in start order (A, B, C, …).
    let instances: [ServerProcess]
    /// nginx, round robin over ``instances``; nil for a deployment started without it.
    let balancer: LoadBalancer?

    /// Starts `count` instances with `arguments` on one new database, then nginx in front of them
    /// unless `behindNginx` is false (clients then pick an instance themselves).
    init(instances count: Int, arguments: [String], behindNginx: Bool = true) throws {
        let first = try ServerProcess(arguments)
        var instances = [first]
        do {
            for _ in 1..<count {
                instances.append(try ServerProcess(directory: first.directory, arguments: arguments))
            }
            balancer = behindNginx ? try LoadBalancer(upstreamPorts: instances.map(\.port)) : nil
        } catch {
            Self.remove(instances)
            throw error
        }
        self.instances = instances
    }

    /// Each instance's base URL, in order.
    var baseURLs: [String] { instances.map { "http://127.0.0.1:\($0.port)" } }

    /// Stops nginx and every instance, then removes the database and the directory.
    func remove() {
        balancer?.stop()
        Self.remove(instances)
    }

    /// Kills `instances` and removes what the first one made (its directory, its database).
    private static func remove(_ instances: [ServerProcess]) {
        for instance in instances.dropFirst() { instance.stop(signal: SIGKILL) }
        instances.first?.remove()
    }

    /// Runs `body` on a new deployment of `count` instances started with ``ServerProcess/householdArguments``,
    /// `--test-endpoints` and `extra`, behind nginx unless `behindNginx` is false; removes it afterwards.
    static func with(
        instances count: Int, _ extra: [String] = [], behindNginx: Bool = true, _ body: (Deployment) throws -> Void
    ) throws {
        let deployment = try Deployment(
            instances: count, arguments: ServerProcess.householdArguments + ["--test-endpoints"] + extra, behindNginx: behindNginx)
        defer { deployment.remove() }
        try body(deployment)
    }

    /// The ids of the chores in the database among `ids`.
    func storedChores(among ids: [String]) throws -> Set<String> {
        let stored: [String] = try TemporaryDatabase.withExisting(instances[0].database) { store in
            try store.read { database in try database.query("SELECT id FROM chores").map { try $0["id"] } }
        }
        return Set(stored).intersection(ids)
    }

    /// The change log's newest sequence now: where a subscription that must miss nothing from
    /// here on resumes (`choreEvents(after:)`).
    func newestSequence() throws -> String {
        try #require(try instances[0].databaseText("SELECT CAST(COALESCE(MAX(sequence), 0) AS TEXT) FROM change_log"))
    }
}

extension Deployment {
    /// Python helpers for the multi-instance tests (on ``ServerProcess/webSocketPeerScript``):
    /// `follow` keeps a `choreEvents` subscription through disconnects, reconnecting through
    /// `fallback` (the load balancer) and resuming after the last sequence it received, until it
    /// sees the chore titled `until` created; `created` is what `createChore` answered.
    static let script = ServerProcess.webSocketPeerScript + """
        import os, signal, threading, time
        from websockets.exceptions import ConnectionClosed, InvalidHandshake
        EVENTS = "subscription($id: ID!, $after: ID) { choreEvents(householdId: $id, after: $after) { sequence kind choreId chore { title } } }"
        CREATE = "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }"
        def chore_input(household, title):
            return {"input": {"householdId": household, "title": title, "schedule": {"once": "2036-03-01T09:00:00Z"}}}
        async def created(household, title, token, base):
            return (await call(CREATE, chore_input(household, title), token, base))["createChore"]["chore"]["id"]
        async def next_created(ws):
            # The next CHORE_CREATED event on `ws` (a chore's instance and offers come with it).
            while True:
                reply = await message(ws)
                assert reply["type"] == "next", reply
                event = reply["payload"]["data"]["choreEvents"]
                if event["kind"] == "CHORE_CREATED":
                    return event
        async def resume(ws, operation, household, after):
            # A subscription resuming after a sequence: replayed from the change log, then live, so it
            # needs no wait for the server to take it (nothing after `after` can be missed).
            await ws.send(json.dumps({"type": "subscribe", "id": operation,
                                      "payload": {"query": EVENTS, "variables": {"id": household, "after": after}}}))
        class Follower:
            def __init__(self, name, token, base):
                self.name, self.token, self.base = name, token, base
                self.sequences, self.created, self.reconnects = [], set(), 0
            async def follow(self, household, after, fallback, until, deadline):
                cursor = after
                while True:
                    try:
                        ws = await connected(self.token, self.base)
                        await resume(ws, self.name, household, cursor)
                        while True:
                            remaining = deadline - time.monotonic()
                            reply = json.loads(await asyncio.wait_for(ws.recv(), max(remaining, 0.01)))
                            assert reply["type"] == "next", (self.name, reply)
                            event = reply["payload"]["data"]["choreEvents"]
                            self.sequences.append(int(event["sequence"]))
                            cursor = event["sequence"]
                            if event["kind"] == "CHORE_CREATED":
                                self.created.add(event["choreId"])
                                if (event["chore"] or {}).get("title") == until:
                                    await ws.close()
                                    return
                    except TimeoutError:  # an OSError too: not a disconnect
                        raise AssertionError(f"{self.name}: no event for the deadline; {len(self.sequences)} received")
                    except (ConnectionClosed, InvalidHandshake, OSError):
                        assert time.monotonic() < deadline, f"{self.name} could not reconnect"
                        self.reconnects += 1
                        self.base = fallback
                        await asyncio.sleep(0.05)  # paces the retries; the next connect is what ends them

        """
}
