/// Where a session stands (``AccountService/sessionState(id:)``).
public enum SessionState: Sendable, Equatable {
    /// It authenticates for `remaining` more, unless refreshed (which moves its end later) or
    /// revoked.
    case live(remaining: Duration)
    /// It was signed out or revoked, or no longer exists.
    case revoked
    /// It reached its end.
    case expired
}
