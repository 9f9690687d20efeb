import Foundation
import GraphQL
import TestPython
import Testing

/// A simulated device's live `syncDeltas(since:)` subscription: a Python graphql-transport-ws
/// client (`websockets`, as real clients speak it) that prints each message the server sends, one
/// JSON line each; the device reads the deliveries when it looks, as a phone's app would.
final class DeltaSubscription {
    /// One delivery: a page of changes and where it ends.
    struct Delta {
        let changes: [ServerProcess.SyncChange]
        let endCursor: String
        let hasMore: Bool
    }

    /// Subscribes and prints what arrives. A thread of its own writes the output, so the socket is
    /// read as messages come however late the test reads them (as an app reads its socket). With
    /// no message for `IDLE` seconds it exits, so a delivery that never comes fails the test (the
    /// peer is gone) rather than hanging it.
    private static let script = """
        import asyncio, json, queue, sys, threading
        from websockets.asyncio.client import connect
        BASE, TOKEN, SINCE, NODE = sys.argv[1:5]
        IDLE = 120
        lines = queue.Queue()
        def write():
            while True:
                print(lines.get(), flush=True)
        threading.Thread(target=write, daemon=True).start()
        QUERY = ("subscription($since: String) { syncDeltas(since: $since) { "
                 "changes { operation id typename node { " + NODE + " } } endCursor hasMore mustResync } }")
        async def main():
            # No keepalive pings: the test reads the output later than it arrives.
            async with connect(BASE.replace("http", "ws") + "/graphql", subprotocols=["graphql-transport-ws"], ping_interval=None) as ws:
                await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer " + TOKEN}}))
                lines.put(json.dumps(json.loads(await asyncio.wait_for(ws.recv(), IDLE))))
                await ws.send(json.dumps({"type": "subscribe", "id": "deltas",
                                          "payload": {"query": QUERY, "variables": {"since": SINCE or None}}}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), IDLE))
                    if message["type"] == "ping":
                        await ws.send(json.dumps({"type": "pong"}))
                    else:
                        lines.put(json.dumps(message))
        asyncio.run(main())
        """

    private let peer: PythonPeer

    /// Connects as `person` to `server` and subscribes after `cursor` (nil: a full resync first),
    /// each node read with the selection `node`.
    init(to server: ServerProcess, as person: ServerProcess.Person, after cursor: String?, node: String) throws {
        peer = try PythonPeer(script: Self.script, arguments: ["http://127.0.0.1:\(server.port)", person.token, cursor ?? "", node])
        let acknowledged = try message()
        try #require(acknowledged["type"] == "connection_ack", "\(acknowledged)")
    }

    /// The next delivery, waiting for it.
    /// - Throws: when the stream sends anything else (an error, `mustResync`, its end) or the peer exits.
    func next() throws -> Delta {
        let message = try message()
        let delta = try #require(message["type"] == "next" ? message["payload"]?["data"]?["syncDeltas"] : nil, "\(message)")
        try #require(delta["mustResync"] == false, "\(message)")
        return Delta(
            changes: try ServerProcess.SyncChange.list(delta["changes"]), endCursor: try #require(delta["endCursor"]?.stringValue, "\(message)"),
            hasMore: delta["hasMore"] == true)
    }

    /// Disconnects.
    func close() { peer.stop() }

    private func message() throws -> JSON { try JSON(parsing: try peer.readLine()) }
}
