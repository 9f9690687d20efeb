/// Limits and windows of chore instances and completion. Read once at start from flags and
/// environment (HearthApp's `ChoreInstanceSettings`) and passed down.
public struct InstancesConfiguration: Sendable {
    /// How far ahead the scheduler writes instances (`--chore-horizon`): an occurrence due at most
    /// this long from now is stored; later ones are computed when read, and written by their first
    /// completion.
    public var horizon: Duration = .seconds(14 * 86_400)
    /// How long after a completion the member who did it (or recorded it) may undo it
    /// (`--chore-undo-window`); household admins, and owners of personal chores, may any time.
    public var undoWindow: Duration = .seconds(5 * 60)
    /// The most due times `Chore.occurrences` answers at once (`--max-chore-occurrences`).
    public var maximumOccurrences = 500
    /// The most occurrences missed during a downtime (due between the previous planning run and
    /// now) one run writes per chore member, as overdue instances (`--max-chore-missed-occurrences`):
    /// the latest ones; older ones are not written. Bounds the catch-up after a long downtime; the
    /// occurrences from now to the horizon are always written.
    public var maximumMissedOccurrences = 1_000
    /// The most vacations one member may have under way or scheduled in one household at once
    /// (`--max-vacations-per-member`): bounds the rows and scheduler jobs a member or an admin can
    /// make by booking vacations far ahead.
    public var maximumVacationsPerMember = 20

    /// The defaults.
    public init() {}

    /// ``horizon`` in seconds.
    var horizonSeconds: Double { Self.seconds(horizon) }
    /// ``undoWindow`` in seconds.
    var undoWindowSeconds: Double { Self.seconds(undoWindow) }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
