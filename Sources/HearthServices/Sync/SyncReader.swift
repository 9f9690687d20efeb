import HearthStore

/// Reads one page of a user's stream of changes (``SyncService``) in one read transaction.
struct SyncReader {
    /// The reader, and the transaction.
    let owner: OwnerScope
    /// Entries to collect: one more than the page holds, to tell whether more follow.
    let wanted: Int
    /// The most change-log rows to read past.
    let rowLimit: Int

    /// Rows read from the log at once.
    private static let batchSize = 200

    /// The page starting after `position`.
    /// - Throws: `CURSOR_EXPIRED` when rows after the position were pruned.
    func page(from position: SyncCursor) throws -> SyncPage {
        let database = owner.database
        try ChangeLog.requireRetained(after: position.settledSequence, in: database)
        let scopes = try SyncScopes.current(owner)
        var collected: [SyncPage.Entry] = []
        var end = position
        var rowsAfter: Int64
        var resume: (sequence: Int64, id: String)?
        switch position {
        case .snapshot(let sequence, let id):
            let ids = try SyncScopes.objects(in: scopes, after: id, limit: wanted, in: database)
            collected = ids.map { SyncPage.Entry(cursor: .snapshot(sequence, id: $0), objectID: $0) }
            if collected.count == wanted { return finished(collected, end: end, scopes: scopes) }
            end = .after(sequence)
            rowsAfter = sequence
        case .after(let sequence):
            rowsAfter = sequence
        case .inside(let sequence, let id):
            rowsAfter = sequence - 1
            resume = (sequence, id)
        }
        let lost = try lostScopes(after: rowsAfter).filter { !scopes.contains($0.key) }
        let topics = scopes.union(lost.keys)
        var scanned = 0
        reading: while collected.count < wanted && scanned < rowLimit {
            let batch = min(Self.batchSize, rowLimit - scanned)
            let rows = try ChangeLog.changes(after: rowsAfter, topics: topics, limit: batch, in: database)
            guard let last = rows.last else { return finished(collected, end: end, scopes: scopes) }
            for row in rows {
                let after = resume?.sequence == row.sequence ? resume?.id : nil
                // A lost scope's rows after the loss are of objects the reader never saw.
                let seen = lost[row.topic].map { row.sequence <= $0 } ?? true
                let ids = seen ? try objects(of: row, after: after, limit: wanted - collected.count) : []
                collected += ids.map { SyncPage.Entry(cursor: .inside(row.sequence, id: $0), objectID: $0) }
                if collected.count == wanted { break reading }
                end = .after(row.sequence)
            }
            // A short batch read the log to its end: no need to ask for the next one.
            if rows.count < batch { return finished(collected, end: end, scopes: scopes) }
            rowsAfter = last.sequence
            scanned += rows.count
        }
        // Stopped at the row limit with room left: more rows may follow.
        return finished(collected, end: end, scopes: scopes, rowsMayFollow: collected.count < wanted)
    }

    /// The page of `collected`: the first `wanted - 1`, each id once at its last place; read in `scopes`.
    private func finished(_ collected: [SyncPage.Entry], end: SyncCursor, scopes: Set<Topic>, rowsMayFollow: Bool = false) -> SyncPage {
        var entries = collected
        var end = end
        let hasMore = entries.count == wanted || rowsMayFollow
        if entries.count == wanted {
            entries.removeLast()
            end = entries.last?.cursor ?? end
        }
        var lastPlace: [String: Int] = [:]
        for (place, entry) in entries.enumerated() { lastPlace[entry.objectID] = place }
        entries = entries.enumerated().filter { lastPlace[$0.element.objectID] == $0.offset }.map(\.element)
        return SyncPage(entries: entries, endCursor: end, hasMore: hasMore, scopes: scopes)
    }

    /// The objects `row` stands for in id order, after `id`, at most `limit`: a scope gained by the
    /// reader stands for every object of the scope now, any other row (a scope lost too: it lists
    /// the scope's objects at the loss) for those it touched.
    private func objects(of row: Event, after id: String?, limit: Int) throws -> [String] {
        if row.topic == .user(owner.key.userID), row.kind == .syncScopeGained {
            let scope = Topic(key: try row.payload.decode(SyncScopeChange.self).scope)
            return try SyncScopes.objects(in: [scope], after: id, limit: limit, in: owner.database)
        }
        return Array(row.objects.sorted().filter { id == nil || $0 > id! }.prefix(limit))
    }

    /// The scopes the reader lost after row `sequence`, each with the sequence of its last loss:
    /// a scope the reader does not see now is read up to that row, so what changed in it before
    /// the loss comes back (as tombstones), and nothing of what came into it afterwards.
    private func lostScopes(after sequence: Int64) throws -> [Topic: Int64] {
        let rows = try owner.database.query(
            "SELECT sequence, payload FROM change_log WHERE topic = ? AND kind = ? AND sequence > ?",
            [Topic.user(owner.key.userID).key, EventKind.syncScopeLost.rawValue, sequence])
        var lost: [Topic: Int64] = [:]
        for row in rows {
            let scope = Topic(key: try EventPayload(json: try row["payload"]).decode(SyncScopeChange.self).scope)
            lost[scope] = max(lost[scope] ?? 0, try row["sequence"])
        }
        return lost
    }
}
