/// A position in a user's stream of changes (`changes(since:)`), given to clients as opaque text.
///
/// The stream is the change log's rows of the user's scopes in sequence order, each row standing
/// for the objects it touched in id order (a scope gained or lost stands for every object of the
/// scope), after, for a full resync, every object the user sees, in id order. Positions inside a
/// row let a page end in the middle of a large one (a cascading delete, a household joined) and
/// the next page resume there, without losing or repeating an object.
public enum SyncCursor: Sendable, Hashable, CustomStringConvertible {
    /// Every row through `sequence` is read. Text: the sequence, `123`.
    case after(Int64)
    /// Every row before `sequence` is read, and row `sequence` through object `id`. Text: `123/<id>`.
    case inside(Int64, id: String)
    /// A full resync of the state as of row `sequence`, read through object `id` (from the first
    /// when `nil`); rows after `sequence` follow. Text: `full/123` or `full/123/<id>`.
    case snapshot(Int64, id: String?)

    /// The position `text` names; `nil` for text no cursor has.
    public init?(_ text: String) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let isSnapshot = parts.first == "full"
        if isSnapshot { parts.removeFirst() }
        guard (1...2).contains(parts.count), let sequence = Int64(parts[0]), sequence >= 0, String(sequence) == parts[0] else { return nil }
        let id = parts.count == 2 ? parts[1] : nil
        if id?.isEmpty == true { return nil }
        switch (isSnapshot, id) {
        case (true, _): self = .snapshot(sequence, id: id)
        case (false, nil): self = .after(sequence)
        case (false, let id?): self = .inside(sequence, id: id)
        }
    }

    /// The opaque text clients pass back.
    public var description: String {
        switch self {
        case .after(let sequence): String(sequence)
        case .inside(let sequence, let id): "\(sequence)/\(id)"
        case .snapshot(let sequence, let id): "full/\(sequence)" + (id.map { "/" + $0 } ?? "")
        }
    }

    /// The newest sequence whose changes the position includes entirely: what must still be in
    /// the log for it to resume (``ChangeLog/prunedThrough(in:)``).
    public var settledSequence: Int64 {
        switch self {
        case .after(let sequence), .snapshot(let sequence, _): sequence
        case .inside(let sequence, _): sequence - 1
        }
    }
}
