import GraphQL
import HearthHTTP
import Synchronization

/// One graphql-transport-ws connection: drives a `GraphQLTransportWSMachine` with the socket's
/// messages and runs each operation it starts in a task of its own through `GraphQLService`.
///
/// Queries and mutations answer with one `next` and a `complete`; subscriptions send a `next`
/// per event and a `complete` when their source ends; request errors (parse, validation,
/// limits, variables) answer with `error`. A client `complete`, a protocol close or the socket
/// closing cancels the operation's task at once, which ends its bus subscription; the
/// machine then drops anything the task still produces for that id.
///
/// Socket callbacks arrive on the connection's event-loop thread and operation results on
/// the tasks' threads, so the machine and the task table sit behind one mutex. Messages are
/// sent after the lock is released (sending on the loop thread may act at once).
final class GraphQLWebSocketSession: WebSocketHandler, Sendable {
    private struct Running {
        /// Distinguishes this run from a later operation that reuses the id.
        let generation: UInt64
        let task: Task<Void, Never>
    }

    private struct State {
        var machine: GraphQLTransportWSMachine
        var operations: [String: Running] = [:]
        var nextGeneration: UInt64 = 0
    }

    private let state: Mutex<State>
    private let connection: WebSocketConnection
    private let service: GraphQLService
    private let context: any Sendable
    private let connectionID: String
    private let metrics: RealtimeMetrics

    init(
        connection: WebSocketConnection, service: GraphQLService, context: any Sendable, connectionID: String,
        configuration: GraphQLTransportWSMachine.Configuration, metrics: RealtimeMetrics, now: UInt64
    ) {
        self.connection = connection
        self.service = service
        self.context = context
        self.connectionID = connectionID
        self.metrics = metrics
        state = Mutex(State(machine: GraphQLTransportWSMachine(configuration: configuration, now: now)))
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
        perform(state.withLock { $0.machine.connectionClosed() })
        metrics.connectionClosed()
    }

    // MARK: - Actions

    private func perform(_ actions: [GraphQLTransportWSMachine.Action]) {
        for action in actions {
            switch action {
            case .send(let message):
                connection.send(.text(utf8: message.encoded(), compression: connection.compression))
            case .authorize:
                // Every payload is accepted until accounts exist; credentials will be checked here.
                perform(state.withLock { $0.machine.acknowledge() })
            case .startOperation(let id, let payload):
                start(id: id, payload: payload)
            case .stopOperation(let id):
                state.withLock { $0.operations.removeValue(forKey: id) }?.task.cancel()
            case .close(let code, let reason):
                connection.close(code: code, reason: reason)
            }
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
        switch await service.operate(request, requestID: requestID, context: context) {
        case .single(let outcome):
            guard case .executed = outcome.status else {
                report(id, generation, ends: true) { $0.error(id: id, payload: Self.serialize(outcome.result.errors)) }
                return
            }
            report(id, generation) { $0.next(id: id, payload: outcome.result.serialized()) }
            report(id, generation, ends: true) { $0.complete(id: id) }
        case .stream(let stream):
            metrics.subscriptionStarted()
            defer { metrics.subscriptionEnded() }
            do {
                for try await result in stream {
                    report(id, generation) { $0.next(id: id, payload: result.serialized()) }
                }
                report(id, generation, ends: true) { $0.complete(id: id) }
            } catch {
                let errors = service.errors(for: error, requestID: requestID)
                report(id, generation, ends: true) { $0.error(id: id, payload: Self.serialize(errors)) }
            }
        }
    }

    /// Applies `step` to the machine if operation `id` is still this run, and sends what it produced.
    /// `ends` forgets the run (its task is finishing by itself).
    private func report(
        _ id: String, _ generation: UInt64, ends: Bool = false,
        _ step: (inout GraphQLTransportWSMachine) -> [GraphQLTransportWSMachine.Action]
    ) {
        perform(state.withLock { state in
            guard state.operations[id]?.generation == generation else { return [] }
            if ends { state.operations[id] = nil }
            return step(&state.machine)
        })
    }

    /// A JSON array of GraphQL errors, the payload of an `error` message.
    private static func serialize(_ errors: [GraphQLError]) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(.array(errors.map(\.json)))
        return writer.takeBytes()
    }
}
