import GraphQL
import HearthDomain
import HearthServices
import Synchronization

/// Runs the entries of `syncBatch` (a phone's queue of offline changes, sent in one request)
/// through the GraphQL pipeline serving the request, one after the other, each as if it had been
/// sent alone: the same limits, document cache, resolvers and error masking, and its own
/// transaction, so each entry commits on its own. A crash in the middle leaves a prefix applied;
/// the client sends the whole batch again and the replays (`clientMutationId`, client-made ids)
/// make it converge.
///
/// The rule after a failure is to continue: each entry is independent, as an offline queue's
/// changes are, and an entry that depends on one that failed (an event of a habit whose creation
/// was refused) fails on its own with its own error.
///
/// The pipeline is attached after it is built (it holds the resolvers that hold the runner), and
/// held weakly so the two do not keep each other alive.
public final class SyncBatchRunner: Sendable {
    private struct Attachment {
        weak var service: GraphQLService?
    }

    private let attachment = Mutex(Attachment())

    /// Whether the current task is running a batch entry, to refuse a `syncBatch` inside one.
    @TaskLocal static var isRunningEntry = false

    /// A runner with no pipeline yet.
    public init() {}

    /// Runs entries through `service` from now on.
    public func attach(_ service: GraphQLService) {
        attachment.withLock { $0.service = service }
    }

    /// One queued change: a document with one mutation operation, and its variables.
    struct Entry: Sendable {
        /// The document.
        var operation: String
        /// The operation's name, when the document holds more than one.
        var operationName: String?
        /// The variables.
        var variables: [String: JSON]
    }

    /// The response of each entry, in order, as `POST /graphql` would have answered it alone.
    /// - Throws: `BAD_USER_INPUT` for more entries than the limit (nothing runs), or a batch inside
    ///   a batch.
    func run(_ entries: [Entry], context: RequestContext) async throws -> [ExecutionResult] {
        guard !Self.isRunningEntry else {
            throw ServiceError(.badUserInput, "A syncBatch cannot be sent inside a syncBatch.", problems: [
                FieldProblem(field: "input.mutations", reason: .notAllowed, message: "Send the entries of the inner batch in the outer one.")])
        }
        guard let service = attachment.withLock({ $0.service }) else {
            throw ServiceError(.unavailable, "Batches are not served here.")
        }
        let maximum = service.limits.maxSyncBatchEntries
        guard entries.count <= maximum else {
            throw ServiceError(.badUserInput, "A batch holds at most \(maximum) mutations; send the rest in another.", problems: [
                FieldProblem(field: "input.mutations", reason: .tooLong, message: "At most \(maximum) mutations per batch.")])
        }
        var results: [ExecutionResult] = []
        results.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let request = GraphQLRequest(query: entry.operation, operationName: entry.operationName, variables: entry.variables)
            let result = await Self.$isRunningEntry.withValue(true) {
                await service.executeBatchEntry(request, requestID: "\(context.requestID)-\(index)", context: context)
            }
            results.append(result)
        }
        return results
    }
}
