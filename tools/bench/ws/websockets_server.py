"""Baseline for the WebSocket fan-out benchmark: a Python `websockets` server speaking the subset of
graphql-transport-ws the load generator uses (connection_init -> connection_ack, subscribe, ping -> pong,
complete), broadcasting one `next` message to every subscription with `websockets.broadcast` when an HTTP
POST arrives on a second port (answered 201 after the broadcast was queued).

Usage: python websockets_server.py WS_PORT TRIGGER_PORT; prints `listening` when both ports accept."""
import asyncio
import json
import sys

from websockets.asyncio.server import broadcast, serve
from websockets.exceptions import ConnectionClosed

# Subscription id -> the connections subscribed under that id (the `next` message carries the id).
subscriptions: dict[str, set] = {}
sequence = 0


async def session(connection):
    ids = set()
    try:
        async for raw in connection:
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "connection_init":
                await connection.send('{"type":"connection_ack"}')
            elif kind == "subscribe":
                ids.add(message["id"])
                subscriptions.setdefault(message["id"], set()).add(connection)
            elif kind == "complete":
                ids.discard(message["id"])
                subscriptions.get(message["id"], set()).discard(connection)
            elif kind == "ping":
                await connection.send('{"type":"pong"}')
    except ConnectionClosed:
        pass  # the load generator resets its connections when it is done
    finally:
        for subscription in ids:
            subscriptions.get(subscription, set()).discard(connection)


def publish():
    global sequence
    sequence += 1
    for subscription, connections in subscriptions.items():
        message = json.dumps({"id": subscription, "type": "next",
                              "payload": {"data": {"serverEvents": {"sequence": str(sequence)}}}},
                             separators=(",", ":"))
        broadcast(connections, message)


async def trigger(reader, writer):
    await reader.readuntil(b"\r\n\r\n")
    publish()
    writer.write(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    await writer.drain()
    writer.close()


async def main(ws_port, trigger_port):
    async with serve(session, "127.0.0.1", ws_port, subprotocols=["graphql-transport-ws"],
                     ping_interval=None, max_queue=None, backlog=4096):
        http = await asyncio.start_server(trigger, "127.0.0.1", trigger_port)
        async with http:
            print("listening", flush=True)
            await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
