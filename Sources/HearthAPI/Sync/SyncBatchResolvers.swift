import GraphQL
import HearthServices

/// `syncBatch`: a queue of offline changes in one request (``SyncBatchRunner``).
enum SyncBatchResolvers {
    /// Installs `Mutation.syncBatch`, running its entries through `runner`.
    static func install(into resolvers: inout Resolvers, runner: SyncBatchRunner) {
        resolvers.resolveMutation("syncBatch") { input, context in
            // A queue is someone's: refused as a whole when signed out, rather than entry by entry.
            _ = try context.viewer()
            let entries = (input.objects("mutations") ?? []).map { entry in
                var variables: [String: JSON] = [:]
                if case .object(let given)? = entry.fields["variables"] {
                    for (name, value) in given { variables[name] = value }
                }
                return SyncBatchRunner.Entry(
                    operation: entry.string("operation") ?? "", operationName: entry.string("operationName"), variables: variables)
            }
            let results = try await runner.run(entries, context: context)
            let values: [any Sendable] = results.enumerated().map { index, result in
                ["index": index, "isSuccess": result.hasData && result.errors.isEmpty, "response": result.json] as [String: any Sendable]
            }
            return ["results": values]
        }
    }
}
