import Synchronization

// Named types with fields may form cycles (`type User { friends: [User] }`,
// `input A { b: B } input B { a: A }`, interfaces implementing each other in invalid
// schemas), so their fields cannot all be `let`s fixed at `init`. They are filled in by
// `define(…)` during a build phase, which ends when a `Schema` is created from them.
//
// Why those classes are `@unchecked Sendable`:
// - Every mutable stored property is written only by `define(…)` or by `Schema.init`, and
//   both check `BuildPhase.isOpen` / claim the phase first: once a schema owns the type,
//   any later `define(…)` traps instead of writing.
// - A schema is handed to other threads only after its initialiser returned; the write of
//   the last field happens-before that hand-off (a `Sendable` transfer through an actor,
//   task or lock), so concurrent readers see the final state and nobody writes again.
// - `BuildPhase` itself is an atomic, so claiming a type from two threads is race-free.

/// The build-phase state of a named type with fields: open until a schema publishes it.
final class BuildPhase: Sendable {
    private let closed = Atomic<Bool>(false)

    /// Whether the type may still be changed.
    var isOpen: Bool { !closed.load(ordering: .acquiring) }

    /// Closes the phase; returns `false` if a schema had already closed it.
    func close() -> Bool {
        closed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
    }

    /// Traps if the phase is closed: types cannot change once a schema published them.
    func requireOpen(_ typeName: String) {
        precondition(isOpen, "Type \(typeName) cannot be changed: a Schema already published it.")
    }
}
