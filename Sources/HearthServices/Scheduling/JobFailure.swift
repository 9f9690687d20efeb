/// Why a job's attempt failed, thrown by a ``JobHandler``: whether trying again later may help.
/// Any other error a handler throws counts as ``Code/transient``.
public struct JobFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Whether trying again later may help.
    public enum Code: String, Sendable, Hashable {
        /// A temporary failure (a server unreachable, a 4xx SMTP reply): the job is retried with
        /// backoff until it runs out of attempts.
        case transient
        /// A failure no retry will mend (a 5xx SMTP reply, a payload of the wrong shape): the
        /// job is dead at once.
        case permanent
    }

    /// Whether trying again later may help.
    public var code: Code
    /// What happened, stored as the job's `last_error` and logged; never a secret.
    public var message: String
    /// The soonest a transient failure may be tried again, when the other side said so (an HTTP
    /// `Retry-After`): the retry waits at least this long, however short the backoff would be.
    public var retryAfter: Duration?

    /// A failure; `retryAfter` is the least wait before the next attempt, if the other side named one.
    public init(_ code: Code, _ message: String, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    public var description: String { message }
}
