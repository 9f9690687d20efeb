import FoundationEssentials
import HearthDomain
import HearthStore

/// Replay protection for mutations that carry a `clientMutationId` (docs/api-conventions.md,
/// "Mutations"): offline queues resend a mutation when they cannot tell whether it arrived,
/// and a replay by the same user must return the first result and change nothing.
///
/// The first run stores what its result names (ids, as JSON) in `mutation_replays` in the
/// same transaction as the change, so the change and its record commit together; a replay
/// finds the record and returns it without running the change again. The caller reads the
/// objects the ids name, so a replay shows them as they are now. Records are kept for
/// `--retain-mutation-replays` (at least as long as the change log: a client catching up by
/// cursor may resend what it queued offline) and pruned by the retention job.
///
/// Two first runs at once (a client resending to another instance before the first answered)
/// both find no record; the second's insert then meets the first's on the primary key. On
/// PostgreSQL, whose `SERIALIZABLE` transaction read that key, that is a serialization failure,
/// not a unique violation, so the store runs the whole write again and this time the record
/// answers (ConcurrentInstancesPostgresTests); SQLite's one writer never runs them at once.
enum MutationReplay {
    /// The longest accepted `clientMutationId`.
    static let maximumIDLength = 200

    /// Runs `change` once per `clientMutationID` of the owner (the user making the mutation),
    /// inside the caller's write transaction, and returns its result (the stored one on a
    /// replay). Without an id, `change` simply runs.
    /// - Throws: `CONFLICT` (reason `CLIENT_MUTATION_ID_REUSED`) when the id was used for
    ///   another mutation; `BAD_USER_INPUT` for an overlong id; whatever `change` throws.
    static func run<Result: Codable>(
        clientMutationID: String?, mutation: String, at now: Date, _ owner: OwnerScope, _ change: () throws -> Result
    ) throws -> Result {
        guard let clientMutationID, !clientMutationID.isEmpty else { return try change() }
        if let stored: Result = try stored(clientMutationID: clientMutationID, mutation: mutation, owner) { return stored }
        let result = try change()
        try record(result, clientMutationID: clientMutationID, mutation: mutation, at: now, owner)
        return result
    }

    /// The result the owner's first run of `mutation` with `clientMutationID` stored, or nil
    /// when there was none (or no id): for a change made in several transactions, which looks
    /// in the first and records (``record(_:clientMutationID:mutation:at:_:)``) in the last.
    /// - Throws: as ``run(clientMutationID:mutation:at:_:_:)``.
    static func stored<Result: Codable>(clientMutationID: String?, mutation: String, _ owner: OwnerScope) throws -> Result? {
        guard let clientMutationID, !clientMutationID.isEmpty else { return nil }
        if clientMutationID.utf8.count > maximumIDLength {
            throw ServiceError(.badUserInput, "A clientMutationId has at most \(maximumIDLength) bytes.", problems: [
                FieldProblem(field: "input.clientMutationId", reason: .tooLong, message: "At most \(maximumIDLength) bytes.")])
        }
        guard let stored = try owner.queryOne(
            "SELECT mutation, result FROM mutation_replays WHERE user_id = {owner} AND client_mutation_id = ?", [clientMutationID])
        else { return nil }
        guard try stored["mutation"] as String == mutation else {
            throw ServiceError(
                .conflict, reason: .clientMutationIdReused,
                "This clientMutationId was already used for another change; use a new one for each change.")
        }
        return try JSONDecoder().decode(Result.self, from: Data((try stored["result"] as String).utf8))
    }

    /// Stores `result` as the first run's of `mutation` with `clientMutationID` (nothing without an id).
    static func record<Result: Codable>(_ result: Result, clientMutationID: String?, mutation: String, at now: Date, _ owner: OwnerScope) throws {
        guard let clientMutationID, !clientMutationID.isEmpty else { return }
        let encoded = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        try owner.execute(
            "INSERT INTO mutation_replays (user_id, client_mutation_id, mutation, result, created_at) VALUES ({owner}, ?, ?, ?, ?)",
            [clientMutationID, mutation, encoded, now])
    }
}
