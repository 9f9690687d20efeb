import HearthDomain
import HearthServices
import Synchronization

/// The live side of leaderboards (`Subscription.leaderboardChanged`, FR-58): one feed per household
/// with subscribers, which listens to the household's topic once, recomputes each period's board once
/// per change that may move it, and hands the new board to every subscriber of that period.
///
/// Why here and not in each subscription: the WebSocket layer shares a subscription among the
/// connections of one user only (``SubscriptionFanout``), so a household of 1,000 subscribed members'
/// devices would otherwise run a board query per user for every completion. A feed runs one
/// (``LeaderboardService/leaderboard(_:period:)``) however many subscribe, and keeps the last board of
/// each period to push only boards that changed.
///
/// What moves a board: ``EventKind/scoresChanged`` (a completion counted, approved or undone) on a day
/// the board's period holds, or on any day when the cached board's period is over or there is none yet;
/// members joining, leaving, being removed or renamed; the household's settings (time zone, first
/// weekday); the end of a week or month (``EventKind/leaderboardPeriodEnded``), for the boards whose
/// period it ended. Rejections and completions that count nothing (a step, one waiting for approval) record
/// no score change, so they cost nothing.
///
/// Who receives it:
/// - Subscribing needs active membership (any role): others and unknown ids get `NOT_FOUND`. The
///   subscriber is registered with the feed (whose bus subscription exists from then on) before the
///   membership is read, so a departure committed after that read is certainly seen; one committed
///   before makes the check fail.
/// - A member whose membership ends stops at once: the feed handles events in commit order, and on
///   their `member.left` or `member.removed` (or `household.deleted`) it ends their streams before
///   pushing the board that follows. After a gap (the feed fell behind and the bus dropped events) it
///   reads every subscriber's membership again before pushing anything.
/// - Each subscriber gets the board as a ``LeaderboardValue`` with their own access, so `Member` fields
///   show what they may see, without a read.
///
/// Streams keep only the newest board a slow consumer has not taken yet: boards are snapshots, so
/// an older one is worth nothing once a newer one exists. There is no first board on subscribing:
/// read `Query.leaderboard` after subscribing.
final class LeaderboardPublisher: Sendable {
    /// One subscription operation (or one group of a user's operations sharing it).
    private struct Listener {
        let userID: String
        let period: ScorePeriod
        /// The subscriber's access once their membership is checked; `nil` while it is being checked.
        var access: HouseholdAccess?
        let continuation: AsyncThrowingStream<any Sendable, any Error>.Continuation
    }

    /// A household's subscribers, its one bus subscription and the task consuming it, and its latest boards.
    private struct Feed {
        let id: UInt64
        let subscription: EventSubscription
        var task: Task<Void, Never>?
        var listeners: [UInt64: Listener] = [:]
        var boards: [ScorePeriod: Leaderboard] = [:]
    }

    private struct State {
        var feeds: [String: Feed] = [:]
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let leaderboards: LeaderboardService
    private let bus: any EventBus
    private let state = Mutex(State())
    private let computed = Atomic<Int>(0)

    /// A publisher reading boards from `leaderboards` and events from `bus` (the one its change log publishes on).
    init(leaderboards: LeaderboardService, bus: any EventBus) {
        self.leaderboards = leaderboards
        self.bus = bus
    }

    /// How many boards feeds have computed: one per change and period, whatever the number of subscribers.
    var computations: Int { computed.load(ordering: .relaxed) }

    /// How many households have a running feed.
    var feedCount: Int { state.withLock { $0.feeds.count } }

    /// The boards of household `householdID` for `period`, each as `viewer` sees it, from the next
    /// change on; the stream ends when the viewer's membership does.
    /// - Throws: `NOT_FOUND` when the viewer is not an active member of the household.
    func subscribe(viewer: Viewer, householdID: String, period: ScorePeriod) async throws -> AsyncThrowingStream<any Sendable, any Error> {
        let (stream, continuation) = AsyncThrowingStream<any Sendable, any Error>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let listener = Listener(userID: viewer.userID, period: period, continuation: continuation)
        let listenerID = state.withLock { $0.makeID() }
        // Set before the feed can reach the listener, so however its stream ends, the feed forgets it.
        continuation.onTermination = { [self] _ in remove(listenerID, of: householdID) }
        let newFeed = state.withLock { state -> (id: UInt64, subscription: EventSubscription)? in
            var newFeed: (id: UInt64, subscription: EventSubscription)?
            if state.feeds[householdID] == nil {
                let feed = Feed(
                    id: state.makeID(), subscription: bus.subscribe(to: [.household(householdID)], bufferSize: HearthSchema.subscriptionBufferSize))
                state.feeds[householdID] = feed
                newFeed = (feed.id, feed.subscription)
            }
            state.feeds[householdID]!.listeners[listenerID] = listener
            return newFeed
        }
        if let newFeed { start(newFeed.subscription, feedID: newFeed.id, householdID: householdID) }
        do {
            let access = try await leaderboards.tokens.households.access(viewer: viewer, householdID: householdID)
            state.withLock { $0.feeds[householdID]?.listeners[listenerID]?.access = access }
        } catch {
            continuation.finish()
            throw error
        }
        return stream
    }

    /// Starts the task consuming the feed's bus subscription.
    private func start(_ subscription: EventSubscription, feedID: UInt64, householdID: String) {
        let task = Task { [self] in
            for await delivery in subscription {
                switch delivery {
                case .overflow: await catchUp(householdID, feedID: feedID)
                case .event(let event): await handle(event, householdID, feedID: feedID)
                }
            }
        }
        let isRunning = state.withLock { state in
            guard state.feeds[householdID]?.id == feedID else { return false }
            state.feeds[householdID]!.task = task
            return true
        }
        if !isRunning { task.cancel() }
    }

    /// Forgets a listener; the last one ends its feed.
    private func remove(_ listenerID: UInt64, of householdID: String) {
        let ended = state.withLock { state -> Feed? in
            guard state.feeds[householdID]?.listeners.removeValue(forKey: listenerID) != nil,
                  state.feeds[householdID]!.listeners.isEmpty else { return nil }
            return state.feeds.removeValue(forKey: householdID)
        }
        ended?.subscription.cancel()
        ended?.task?.cancel()
    }

    /// What one event of the household's topic does to the feed.
    private func handle(_ event: Event, _ householdID: String, feedID: UInt64) async {
        let periods: Set<ScorePeriod>
        switch event.kind {
        case .householdDeleted:
            end(householdID, feedID: feedID) { _ in true }
            return
        case .memberLeft, .memberRemoved:
            let departed = (try? event.payload.decode(HouseholdChange.self))?.userID
            end(householdID, feedID: feedID) { $0.userID == departed }
            periods = Set(ScorePeriod.allCases)
        case .memberJoined, .memberUpdated, .memberRoleChanged, .householdUpdated:
            periods = Set(ScorePeriod.allCases)
        case .leaderboardPeriodEnded:
            periods = state.withLock { state in
                Set(ScorePeriod.allCases.filter { state.feeds[householdID]?.boards[$0]?.window.isCurrent(at: event.committedAt) != true })
            }
        case .scoresChanged:
            guard let change = try? event.payload.decode(ScoreChange.self) else { return }
            periods = state.withLock { state in
                Set(ScorePeriod.allCases.filter { period in
                    guard let board = state.feeds[householdID]?.boards[period], board.window.isCurrent(at: event.committedAt) else { return true }
                    return change.days.contains(where: board.window.contains(day:))
                })
            }
        default:
            return
        }
        await publish(periods, householdID, feedID: feedID)
    }

    /// After a gap: ends the streams of subscribers who are no longer members (one read for all of
    /// them), then pushes every period's board (the changes dropped may have moved any of them).
    private func catchUp(_ householdID: String, feedID: UInt64) async {
        let access = state.withLock { state in state.feeds[householdID]?.listeners.values.first { $0.access != nil }?.access }
        if let access {
            do {
                let members = try await leaderboards.memberAccounts(access)
                end(householdID, feedID: feedID) { !members.contains($0.userID) }
            } catch {
                end(householdID, feedID: feedID, error: error) { _ in true }
                return
            }
        }
        await publish(Set(ScorePeriod.allCases), householdID, feedID: feedID)
    }

    /// Computes the boards of `periods` that have admitted subscribers, once each, and hands each one
    /// that differs from the last to its subscribers.
    private func publish(_ periods: Set<ScorePeriod>, _ householdID: String, feedID: UInt64) async {
        for period in ScorePeriod.allCases where periods.contains(period) {
            let access = state.withLock { state -> HouseholdAccess? in
                guard let feed = state.feeds[householdID], feed.id == feedID else { return nil }
                return feed.listeners.values.first { $0.period == period && $0.access != nil }?.access
            }
            guard let access else { continue }
            let board: Leaderboard
            do {
                board = try await leaderboards.leaderboard(access, period: period)
                computed.add(1, ordering: .relaxed)
            } catch {
                end(householdID, feedID: feedID, error: error) { $0.period == period }
                continue
            }
            let receivers = state.withLock { state -> [Listener] in
                guard state.feeds[householdID]?.id == feedID, state.feeds[householdID]!.boards[period] != board else { return [] }
                state.feeds[householdID]!.boards[period] = board
                return state.feeds[householdID]!.listeners.values.filter { $0.period == period && $0.access != nil }
            }
            for receiver in receivers { receiver.continuation.yield(LeaderboardValue(board: board, access: receiver.access!)) }
        }
    }

    /// Ends the streams of the feed's listeners that `ending` picks (with `error`, when given).
    private func end(_ householdID: String, feedID: UInt64, error: (any Error)? = nil, _ ending: (Listener) -> Bool) {
        let ended = state.withLock { state -> [Listener] in
            guard state.feeds[householdID]?.id == feedID else { return [] }
            return state.feeds[householdID]!.listeners.values.filter(ending)
        }
        // Finishing runs each stream's termination handler, which removes its listener (and the feed
        // with the last one).
        for listener in ended { listener.continuation.finish(throwing: error) }
    }
}
