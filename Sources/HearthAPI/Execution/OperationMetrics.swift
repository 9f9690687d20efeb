import Synchronization

/// Counters of GraphQL operations by kind and outcome, for `/metrics`.
public final class OperationMetrics: Sendable {
    /// The kind of operation; `unknown` when the request failed before one was chosen.
    public enum Kind: String, Sendable, CaseIterable {
        /// A `query`.
        case query
        /// A `mutation`.
        case mutation
        /// A `subscription` (served over WebSocket; refused over HTTP).
        case subscription
        /// Not determined: the document did not parse or validate.
        case unknown
    }

    /// How an operation ended.
    public enum Outcome: String, Sendable, CaseIterable {
        /// Executed without errors.
        case success
        /// Executed; some fields failed (a partial response).
        case fieldErrors = "field_errors"
        /// Refused before execution: parse, validation, limits, variables, persisted queries.
        case rejected
    }

    private let counts = Mutex<[Int]>(Array(repeating: 0, count: Kind.allCases.count * Outcome.allCases.count))

    /// Creates zeroed counters.
    public init() {}

    /// Counts one operation.
    public func record(_ kind: Kind, _ outcome: Outcome) {
        let index = Self.index(kind, outcome)
        counts.withLock { $0[index] += 1 }
    }

    /// Every (kind, outcome) pair with its count, in a stable order.
    public var snapshot: [(kind: Kind, outcome: Outcome, count: Int)] {
        let values = counts.withLock { $0 }
        return Kind.allCases.flatMap { kind in
            Outcome.allCases.map { outcome in (kind, outcome, values[Self.index(kind, outcome)]) }
        }
    }

    private static func index(_ kind: Kind, _ outcome: Outcome) -> Int {
        Kind.allCases.firstIndex(of: kind)! * Outcome.allCases.count + Outcome.allCases.firstIndex(of: outcome)!
    }
}
