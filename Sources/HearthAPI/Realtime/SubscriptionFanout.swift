import GraphQL
import HearthHTTP
import Synchronization

/// Shares one subscription's work among every WebSocket operation that asked for the same thing: the same
/// document, operation name, variables and extensions. A group has one source stream (one bus subscription,
/// one consumer task); each event's selection set is executed and serialized once, and its `next` message is
/// handed to the members' event loops, one job per loop carrying the loop's member list as it stands (no
/// per-member work on the way), where each member's session checks that its operation is still running and
/// writes the frame. Publishing to 10,000 devices watching the same thing is thus one
/// execution and two loop hand-overs, not 10,000 task wake-ups and executions.
///
/// What members share and what they do not:
/// - Only operations of the same sharing scope (``GraphQLWebSocketEndpoint/SharingScope``, e.g. the signed-in
///   user) share a group: the subscribe-time checks a source resolver makes (may this user watch that
///   household?) run for the first member only, so members of a group must be people for whom those checks
///   give the same answer.
/// - The group's source stream and execution use the context of the member that started it. Resolvers of a
///   subscription's selection must therefore answer from the event and the variables alone; what differs per
///   device (who may see an event) belongs in the endpoint's ``GraphQLWebSocketEndpoint/DeliveryFilter``, which
///   runs for every member and event with the member's own context.
/// - Order: the group delivers its events in source order, and each loop runs its jobs in order, so every
///   member receives events in commit order.
/// - Falling behind: the bus buffers and its overflow policy apply to the group's one subscription (every
///   member missed the same events, and `missedEvents` says so to all); a connection that cannot keep up with
///   the writes is handled by the WebSocket send-queue policy (`WebSocketConfiguration.slowConsumerPolicy`).
/// - Joining late: a member that joins a running group receives the events the group delivers from then on
///   (one committed an instant before it joined may be among them). That is only right for a live stream, one
///   that starts with what happens after it subscribes. A stream that first replays history (the events after
///   a resume cursor, a full resync) owes each subscriber everything after its own starting point, so once its
///   group has delivered a response, a new operation asking for the same thing starts a group of its own; the
///   endpoint's ``GraphQLWebSocketEndpoint/LiveSubscription`` tells the two kinds apart. Members that join
///   before the first delivery receive every response.
/// - Leaving (client `complete`, socket closed) takes effect at once: the session drops anything still on its
///   way for that operation. The last member to leave cancels the group's task, which ends its bus subscription.
final class SubscriptionFanout: Sendable {
    /// What makes two subscribe requests the same subscription.
    struct Key: Hashable, Sendable {
        let scope: String
        let query: String?
        let operationName: String?
        let variables: [String: JSON]
        let extensions: [String: JSON]

        init(_ request: GraphQLRequest, scope: String) {
            self.scope = scope
            query = request.query
            operationName = request.operationName
            variables = request.variables
            extensions = request.extensions
        }
    }

    /// One operation of one connection receiving a group's responses.
    struct Member: Sendable {
        let session: GraphQLWebSocketSession
        let id: String
        let generation: UInt64
        /// The connection's loop, where the member's deliveries run.
        let loop: WebSocketEventLoop
    }

    /// What a join produced.
    enum Joined: Sendable {
        /// The operation is a member of `group` until it calls `leave`. `withoutOperating` when it joined a
        /// running group without calling `operate` (the group's first member was admitted for it).
        case member(SubscriptionGroup, withoutOperating: Bool)
        /// Not a subscription, or a request error: the single outcome to answer with.
        case single(GraphQLOutcome)
    }

    private let groups = Mutex<[Key: SubscriptionGroup]>([:])
    private let isLive: GraphQLWebSocketEndpoint.LiveSubscription

    /// An empty registry; `isLive` says which subscriptions late members may join.
    init(isLive: @escaping GraphQLWebSocketEndpoint.LiveSubscription) {
        self.isLive = isLive
    }

    /// How many groups new members may find (a replaying group replaced by a newer one for the same request runs
    /// on uncounted): for tests that check groups end with their last member.
    var groupCount: Int { groups.withLock { $0.count } }

    /// Makes `member` a member of the running group for `request` in sharing scope `scope`, or, when there is
    /// none (or it replays history and has delivered already), runs `operate` and starts a group with the
    /// stream it returns. A query or mutation, or any request error, comes back as a single outcome.
    func join(
        _ request: GraphQLRequest, scope: String, as member: Member, operate: () async -> GraphQLOperation
    ) async -> Joined {
        let key = Key(request, scope: scope)
        if let group = groups.withLock({ groups in groups[key].flatMap { $0.add(member) ? $0 : nil } }) {
            return .member(group, withoutOperating: true)
        }
        switch await operate() {
        case .single(let outcome):
            return .single(outcome)
        case .stream(let stream):
            // Another member may have started the same group while this one was being admitted; its stream
            // is then used (unless it replays and has delivered) and this one is dropped, which ends its bus
            // subscription. A group that replaced another under the key leaves it running for its members.
            let acceptsLateMembers = isLive(stream.fieldName, stream.arguments)
            let (group, isNew) = groups.withLock { groups in
                if let running = groups[key], running.add(member) { return (running, false) }
                let group = SubscriptionGroup(key: key, first: member, fanout: self, acceptsLateMembers: acceptsLateMembers)
                groups[key] = group
                return (group, true)
            }
            if isNew { group.start(stream) }
            return .member(group, withoutOperating: false)
        }
    }

    /// Forgets `group` once it has ended, unless a newer group already took its key.
    func remove(_ group: SubscriptionGroup) {
        groups.withLock { groups in
            if groups[group.key] === group { groups[group.key] = nil }
        }
    }
}

/// The members of one shared subscription and the task that runs its response stream (see
/// ``SubscriptionFanout``).
final class SubscriptionGroup: Sendable {
    /// A member's place in the group: its connection's session and operation id.
    private struct MemberKey: Hashable {
        let session: ObjectIdentifier
        let id: String

        init(session: GraphQLWebSocketSession, id: String) {
            self.session = ObjectIdentifier(session)
            self.id = id
        }

        init(_ member: SubscriptionFanout.Member) {
            self.init(session: member.session, id: member.id)
        }
    }

    /// The members on one event loop, in an array handed to the loop as it is (a delivery copies nothing
    /// unless membership changes while the loop still holds it), with positions for constant-time removal.
    private struct LoopMembers {
        var list: [SubscriptionFanout.Member] = []
        var positions: [MemberKey: Int] = [:]

        mutating func insert(_ member: SubscriptionFanout.Member) {
            positions[MemberKey(member)] = list.count
            list.append(member)
        }

        mutating func remove(_ key: MemberKey) -> Bool {
            guard let position = positions.removeValue(forKey: key) else { return false }
            let last = list.removeLast()
            if position < list.count {
                list[position] = last
                positions[MemberKey(last)] = position
            }
            return true
        }
    }

    private struct State {
        var loops: [WebSocketEventLoop: LoopMembers] = [:]
        var count = 0
        /// The stream ended or the last member left: no one may join any more.
        var isClosed = false
        /// A response has been handed to the members: only a live stream's group may take new ones.
        var hasDelivered = false
        var task: Task<Void, Never>?

        mutating func insert(_ member: SubscriptionFanout.Member) {
            loops[member.loop, default: LoopMembers()].insert(member)
            count += 1
        }
    }

    let key: SubscriptionFanout.Key
    private let fanout: SubscriptionFanout
    /// Whether members may join after the first delivery: the stream is live (see ``SubscriptionFanout``).
    private let acceptsLateMembers: Bool
    private let state: Mutex<State>

    init(key: SubscriptionFanout.Key, first: SubscriptionFanout.Member, fanout: SubscriptionFanout, acceptsLateMembers: Bool) {
        self.key = key
        self.fanout = fanout
        self.acceptsLateMembers = acceptsLateMembers
        var initial = State()
        initial.insert(first)
        state = Mutex(initial)
    }

    /// Adds `member` unless the group has closed, or replays history and has delivered already.
    func add(_ member: SubscriptionFanout.Member) -> Bool {
        state.withLock { state in
            guard !state.isClosed, acceptsLateMembers || !state.hasDelivered else { return false }
            state.insert(member)
            return true
        }
    }

    /// Removes operation `id` of `session`; the last member to leave ends the group.
    func leave(session: GraphQLWebSocketSession, id: String) {
        let loop = session.connection.eventLoop
        let ending: Task<Void, Never>?? = state.withLock { state in
            guard state.loops[loop]?.remove(MemberKey(session: session, id: id)) == true else { return nil }
            state.count -= 1
            if state.loops[loop]?.list.isEmpty == true { state.loops[loop] = nil }
            guard state.count == 0, !state.isClosed else { return nil }
            state.isClosed = true
            return .some(state.task)
        }
        guard let ending else { return }
        fanout.remove(self)
        ending?.cancel()
    }

    /// Runs `stream` until it ends or the last member leaves, handing every response to all members.
    func start(_ stream: MaskedResponseStream) {
        state.withLock { state in
            // The task cannot deliver before it is recorded here: it takes the same lock first.
            state.task = Task { [self] in await run(stream) }
            if state.isClosed { state.task?.cancel() }
        }
    }

    private func run(_ stream: MaskedResponseStream) async {
        do {
            for try await result in stream {
                let message = GraphQLTransportWSMessage.SharedNext(payload: result.serialized())
                deliver { $0.session.deliverNext(id: $0.id, generation: $0.generation, message: message, result: result) }
            }
            deliver(ending: true) { $0.session.deliverComplete(id: $0.id, generation: $0.generation) }
        } catch {
            deliver(ending: true) { $0.session.deliverError(error, id: $0.id, generation: $0.generation) }
        }
    }

    /// Hands `step` for every member to the members' event loops. `ending` closes the group first, so the
    /// members it reaches are the last.
    private func deliver(ending: Bool = false, _ step: @escaping @Sendable (SubscriptionFanout.Member) -> Void) {
        let shares: [(WebSocketEventLoop, [SubscriptionFanout.Member])] = state.withLock { state in
            if ending {
                guard !state.isClosed else { return [] }
                state.isClosed = true
            } else {
                state.hasDelivered = true
            }
            return state.loops.map { ($0.key, $0.value.list) }
        }
        if ending { fanout.remove(self) }
        for (loop, members) in shares {
            loop.execute {
                for member in members { step(member) }
            }
        }
    }
}
