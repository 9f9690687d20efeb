import GraphQL
import HearthHTTP
import Synchronization

/// One graphql-transport-ws connection: drives a `GraphQLTransportWSMachine` with the socket's
/// messages and admits each operation it starts in a task of its own through `GraphQLService`.
///
/// Queries and mutations answer with one `next` and a `complete` from that task. A subscription
/// joins the endpoint's ``SubscriptionFanout`` and its task ends: the shared group delivers a
/// `next` per event and a `complete` when the source ends, calling this session on the
/// connection's event loop. Request errors (parse, validation, limits, variables) answer with
/// `error`. A client `complete`, a protocol close or the socket closing stops the operation at
/// once (cancelling its task, leaving its group); the machine then drops anything still on its
/// way for that id.
///
/// Socket callbacks and group deliveries arrive on the connection's event-loop thread and
/// operation results on the tasks' threads, so the machine and the operation table sit behind
/// one mutex. Messages are sent after the lock is released (sending on the loop thread acts at
/// once).
final class GraphQLWebSocketSession: WebSocketHandler, Sendable {
    private struct Running {
        /// Distinguishes this run from a later operation that reuses the id.
        let generation: UInt64
        /// Admits and runs the operation; for a subscription it ends once the operation joined its group.
        let task: Task<Void, Never>
        /// The shared subscription this operation receives, once it joined one.
        var group: SubscriptionGroup?
    }

    private struct State {
        var machine: GraphQLTransportWSMachine
        var operations: [String: Running] = [:]
        var nextGeneration: UInt64 = 0
        /// The operations' context: the upgrade request's until `connection_init` is accepted.
        var context: any Sendable
        /// Stops the application's watch on this connection (see `ConnectionWatch`).
        var stopWatching: (@Sendable () -> Void)?
        var isClosed = false
    }

    private let state: Mutex<State>
    /// The socket; group deliveries run on its event loop.
    let connection: WebSocketConnection
    private let service: GraphQLService
    private let fanout: SubscriptionFanout
    private let filter: GraphQLWebSocketEndpoint.DeliveryFilter?
    private let authorize: GraphQLWebSocketEndpoint.Authorizer
    private let sharingScope: GraphQLWebSocketEndpoint.SharingScope
    private let connectionID: String
    private let metrics: RealtimeMetrics

    init(
        connection: WebSocketConnection, service: GraphQLService, fanout: SubscriptionFanout,
        filter: GraphQLWebSocketEndpoint.DeliveryFilter?, authorize: @escaping GraphQLWebSocketEndpoint.Authorizer,
        sharingScope: @escaping GraphQLWebSocketEndpoint.SharingScope,
        context: any Sendable, connectionID: String,
        configuration: GraphQLTransportWSMachine.Configuration, metrics: RealtimeMetrics, now: UInt64
    ) {
        self.connection = connection
        self.service = service
        self.fanout = fanout
        self.filter = filter
        self.authorize = authorize
        self.sharingScope = sharingScope
        self.connectionID = connectionID
        self.metrics = metrics
        state = Mutex(State(machine: GraphQLTransportWSMachine(configuration: configuration, now: now), context: context))
        metrics.connectionOpened()
    }

    // MARK: - Socket events (event-loop thread)

    func webSocket(_ connection: WebSocketConnection, received message: WebSocketMessage) {
        perform(state.withLock { $0.machine.receive(message) })
    }

    func webSocket(_ connection: WebSocketConnection, tick now: UInt64) {
        perform(state.withLock { $0.machine.tick(now: now) })
    }

    func webSocket(_ connection: WebSocketConnection, closedWith code: WebSocketCloseCode, reason: String) {
        let (actions, stopWatching) = state.withLock { state in
            state.isClosed = true
            defer { state.stopWatching = nil }
            return (state.machine.connectionClosed(), state.stopWatching)
        }
        stopWatching?()
        perform(actions)
        metrics.connectionClosed()
    }

    // MARK: - Actions

    private func perform(_ actions: [GraphQLTransportWSMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let message):
                connection.send(.text(utf8: message.encoded(), compression: connection.compression))
            case .authorize(let payload):
                // The decision may wait (a session lookup); the machine refuses operations until it is made.
                Task.immediate { [self] in decide(await authorize(state.withLock { $0.context }, payload)) }
            case .startOperation(let id, let payload):
                start(id: id, payload: payload)
            case .stopOperation(let id):
                if let running = state.withLock({ $0.operations.removeValue(forKey: id) }) {
                    running.task.cancel()
                    ended(running, id: id)
                }
            case .close(let code, let reason):
                connection.close(code: code, reason: reason)
            }
        }
    }

    /// Applies the application's decision on `connection_init`.
    private func decide(_ authorization: ConnectionAuthorization) {
        switch authorization {
        case .reject(let reason):
            perform(state.withLock { $0.machine.reject(reason: reason) })
        case .accept(let context, let watch):
            perform(state.withLock { state in
                state.context = context
                return state.machine.acknowledge()
            })
            guard let watch else { return }
            let connection = connection
            let stop = watch.start { code, reason in connection.close(code: code, reason: reason) }
            // The socket may have closed while the decision was made: then nothing will call `stop` later.
            let closedAlready = state.withLock { state in
                if !state.isClosed { state.stopWatching = stop }
                return state.isClosed
            }
            if closedAlready { stop() }
        }
    }

    private func start(id: String, payload: [UInt8]) {
        let request: GraphQLRequest
        do {
            request = try GraphQLRequest(json: payload)
        } catch {
            let errors = [GraphQLError(message: error.message, extensions: ["code": .string(error.code)])]
            perform(state.withLock { $0.machine.error(id: id, payload: Self.serialize(errors)) })
            return
        }
        state.withLock { state in
            let generation = state.nextGeneration
            state.nextGeneration += 1
            // The task cannot report before this entry exists: it takes the same lock first.
            let task = Task { [self] in await run(request, id: id, generation: generation) }
            state.operations[id] = Running(generation: generation, task: task)
        }
    }

    private func run(_ request: GraphQLRequest, id: String, generation: UInt64) async {
        let requestID = "\(connectionID)/\(id)"
        let member = SubscriptionFanout.Member(session: self, id: id, generation: generation, loop: connection.eventLoop)
        let context = state.withLock { $0.context }
        let joined = await fanout.join(request, scope: sharingScope(context), as: member) {
            await service.operate(request, requestID: requestID, context: context)
        }
        switch joined {
        case .single(let outcome):
            guard case .executed = outcome.status else {
                report(id, generation, ends: true) { $0.error(id: id, payload: Self.serialize(outcome.result.errors)) }
                return
            }
            report(id, generation) { $0.next(id: id, payload: outcome.result.serialized()) }
            report(id, generation, ends: true) { $0.complete(id: id) }
        case .member(let group, let withoutOperating):
            // `operate` counts the operations it admits; one that joined a running group is counted here.
            if withoutOperating { service.metrics.record(.subscription, .success) }
            // Stopped while being admitted: the stop found no group to leave, so leave it here.
            let isRunning = state.withLock { state in
                guard state.operations[id]?.generation == generation else { return false }
                state.operations[id]?.group = group
                // Counted under the lock, so a stop that follows is counted after it.
                metrics.subscriptionStarted()
                return true
            }
            guard isRunning else {
                group.leave(session: self, id: id)
                return
            }
        }
    }

    // MARK: - Group deliveries (event-loop thread)

    /// Sends a subscription response encoded (and compressed) once for all of the group's operations with
    /// this id, unless the operation stopped or the endpoint's filter vetoes it for this connection. Runs on the connection's event loop, which also receives
    /// the client's `complete`: nothing can stop the operation between the check and the send.
    func deliverNext(id: String, generation: UInt64, message: GraphQLTransportWSMessage.SharedNext, result: ExecutionResult) {
        let (isRunning, context) = state.withLock { state in
            (state.operations[id]?.generation == generation && state.machine.acceptsNext(id: id), state.context)
        }
        guard isRunning else { return }
        if let filter, !filter(context, result) { return }
        connection.send(message.frame(id: id, compression: connection.compression))
    }

    /// The group's source stream ended.
    func deliverComplete(id: String, generation: UInt64) {
        report(id, generation, ends: true) { $0.complete(id: id) }
    }

    /// The group's source stream failed with `error`.
    func deliverError(_ error: any Error, id: String, generation: UInt64) {
        let errors = service.errors(for: error, requestID: "\(connectionID)/\(id)")
        report(id, generation, ends: true) { $0.error(id: id, payload: Self.serialize(errors)) }
    }

    /// Applies `step` to the machine if operation `id` is still this run, and sends what it produced.
    /// `ends` forgets the run (its task is finishing by itself, or its group ended).
    private func report(
        _ id: String, _ generation: UInt64, ends: Bool = false,
        _ step: (inout GraphQLTransportWSMachine) -> [GraphQLTransportWSMachine.Action]
    ) {
        var finished: Running?
        perform(state.withLock { state in
            guard state.operations[id]?.generation == generation else { return [] }
            if ends { finished = state.operations.removeValue(forKey: id) }
            return step(&state.machine)
        })
        if let finished { ended(finished, id: id) }
    }

    /// Releases what a stopped or finished subscription operation held in its group.
    private func ended(_ running: Running, id: String) {
        guard let group = running.group else { return }
        group.leave(session: self, id: id)
        metrics.subscriptionEnded()
    }

    /// A JSON array of GraphQL errors, the payload of an `error` message.
    private static func serialize(_ errors: [GraphQLError]) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(.array(errors.map(\.json)))
        return writer.takeBytes()
    }
}
