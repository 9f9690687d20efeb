import GraphQL
import HearthServices
import Synchronization

extension SyncResolvers {
    /// `Subscription.syncDeltas(since:)`: the changes of `changes(since:)`, first the backlog after
    /// the cursor, then each change as it commits (``SyncDeltaFollower``), delivered as pages of the
    /// same entries. A cursor older than the change log keeps, at subscribing or later, delivers one
    /// `mustResync` and ends the stream. Pull-driven, like every subscription here: a page is read
    /// when the executor asks for the next response, on the consumer's task.
    static func installDeltas(into resolvers: inout Resolvers, sync: SyncService, findNodes: @escaping NodeFinder) {
        resolvers.subscribe("syncDeltas") { _, arguments, context, _ in
            let context = RequestContext.of(context)
            let viewer = try context.viewer()
            let since = arguments.string("since")
            try sync.checkCursor(since)
            let follower = Mutex<SyncDeltaFollower?>(try await SyncDeltaFollower(sync: sync, viewer: viewer, after: since))
            // Moved out of the mutex for the await and back afterwards: the stream asks once at a time.
            return AsyncThrowingStream<any Sendable, any Error>(unfolding: {
                guard var current = follower.withLock({ $0.take() }) else { return nil }
                let delivery: SyncDeltaFollower.Delivery?
                do {
                    delivery = try await current.next()
                } catch {
                    current.cancel()
                    throw error
                }
                switch delivery {
                case .changes(let page):
                    follower.withLock { $0 = current }
                    return try await pageValue(page, context: context, findNodes: findNodes).merging(["mustResync": false]) { $1 }
                case .mustResync:
                    current.cancel()
                    return ["changes": [[String: any Sendable]](), "endCursor": nil as String?, "hasMore": false, "mustResync": true] as [String: any Sendable]
                case nil:
                    current.cancel()
                    return nil
                }
            })
        }
    }
}
