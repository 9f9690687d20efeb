import HearthStore
import Synchronization

/// Work that follows a kind of change inside the transaction that records it: what another
/// area must keep consistent with the change, atomically (a chore's schedule edited: its
/// instances recalculated; a member left: the instances of every-member chores with them). The
/// reaction commits with the change or rolls back with it, and the area that makes the change
/// needs to know nothing of it.
///
/// A reaction is for derived state that must never be seen out of step. Work that may follow
/// later (mail, reminders) is a job enqueued in the transaction (``JobQueue``); clients learn of
/// changes from the bus. Reactions run in the order registered, after the change is appended to
/// the log; what they record runs its own reactions (keep such chains short and acyclic).
public final class ChangeReactions: Sendable {
    /// Reacts to one recorded change inside its write transaction.
    public typealias Reaction = @Sendable (Event, Database) throws -> Void

    private let reactions = Mutex<[EventKind: [Reaction]]>([:])

    /// No reactions.
    public init() {}

    /// Runs `reaction` for every change of one of `kinds` recorded from now on. Register at
    /// start, while wiring the services.
    public func register(_ kinds: Set<EventKind>, _ reaction: @escaping Reaction) {
        reactions.withLock { registered in
            for kind in kinds { registered[kind, default: []].append(reaction) }
        }
    }

    /// Runs the reactions to `event` in the caller's transaction.
    /// - Throws: What a reaction throws, which rolls the transaction back with the change.
    func react(to event: Event, in database: Database) throws {
        for reaction in reactions.withLock({ $0[event.kind] ?? [] }) { try reaction(event, database) }
    }
}
