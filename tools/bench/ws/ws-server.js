// Peer for the WebSocket fan-out benchmark: Node's `ws` library (Debian's node-ws, NODE_PATH=/usr/share/nodejs)
// speaking the subset of graphql-transport-ws the load generator uses (connection_init -> connection_ack,
// subscribe, complete, ping -> pong), broadcasting one `next` message to every subscription when an HTTP POST
// arrives on a second port (answered 201 after the sends were queued). Compression is off, like Hearth's run.
//
// Usage: node ws-server.js WS_PORT TRIGGER_PORT; prints `listening` when both ports accept.
'use strict';
const http = require('http');
const { WebSocketServer } = require('ws');

const [wsPort, triggerPort] = process.argv.slice(2).map(Number);
// Subscription id -> the sockets subscribed under that id (the `next` message carries the id).
const subscriptions = new Map();
let sequence = 0;

const server = new WebSocketServer({
  host: '127.0.0.1', port: wsPort, backlog: 4096, perMessageDeflate: false,
  handleProtocols: (protocols) => (protocols.has('graphql-transport-ws') ? 'graphql-transport-ws' : false),
});

server.on('connection', (socket) => {
  const ids = new Set();
  socket.on('message', (data) => {
    const message = JSON.parse(data);
    if (message.type === 'connection_init') {
      socket.send('{"type":"connection_ack"}');
    } else if (message.type === 'subscribe') {
      ids.add(message.id);
      if (!subscriptions.has(message.id)) subscriptions.set(message.id, new Set());
      subscriptions.get(message.id).add(socket);
    } else if (message.type === 'complete') {
      ids.delete(message.id);
      subscriptions.get(message.id)?.delete(socket);
    } else if (message.type === 'ping') {
      socket.send('{"type":"pong"}');
    }
  });
  socket.on('error', () => {}); // the load generator resets its connections when it is done
  socket.on('close', () => {
    for (const id of ids) subscriptions.get(id)?.delete(socket);
  });
});

function publish() {
  sequence += 1;
  for (const [id, sockets] of subscriptions) {
    const message = JSON.stringify({ id, type: 'next', payload: { data: { serverEvents: { sequence: String(sequence) } } } });
    for (const socket of sockets) socket.send(message);
  }
}

const trigger = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    publish();
    response.writeHead(201, { 'Content-Length': '0', Connection: 'close' });
    response.end();
  });
});

let listening = 0;
const ready = () => { if (++listening === 2) console.log('listening'); };
server.on('listening', ready);
trigger.listen(triggerPort, '127.0.0.1', ready);
