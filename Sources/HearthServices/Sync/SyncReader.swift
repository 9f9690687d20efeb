import HearthStore

/// Reads one page of a user's stream of changes (``SyncService``) in one read transaction.
struct SyncReader {
    /// The reader, and the transaction.
    let owner: OwnerScope
    /// Entries to collect: one more than the page holds, to tell whether more follow.
    let wanted: Int
    /// The most change-log rows to read past.
    let rowLimit: Int

    /// The page starting after `position`.
    ///
    /// An object a later row touches again (one the page fetched ahead, ``SyncRowWindow``) is left
    /// out where it comes first and sent at that later row, as it is then: a client that applies
    /// every page gets it once, in its final state. Left-out positions do not count toward the
    /// page's size.
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
        var window = SyncRowWindow(after: rowsAfter, topics: scopes.union(lost.keys), lost: lost, rowLimit: rowLimit, in: database)
        while collected.count < wanted, let row = try window.next() {
            let sequence = row.event.sequence
            let after = resume?.sequence == sequence ? resume?.id : nil
            let ids = row.isSeen ? try objects(of: row.event, after: after, limit: wanted - collected.count, leavingOut: window) : []
            collected += ids.map { SyncPage.Entry(cursor: .inside(sequence, id: $0), objectID: $0) }
            if collected.count < wanted { end = .after(sequence) }
        }
        // Stopped at the row limit with room left: more rows may follow.
        return finished(collected, end: end, scopes: scopes, rowsMayFollow: collected.count < wanted && window.reachedRowLimit)
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

    /// The objects `row` stands for in id order, after `id`, at most `limit`, but those a later
    /// row of `window` touches again: a scope gained by the reader stands for every object of the
    /// scope now, any other row (a scope lost too: it lists the scope's objects at the loss) for
    /// those it touched.
    private func objects(of row: Event, after id: String?, limit: Int, leavingOut window: SyncRowWindow) throws -> [String] {
        let isLeftOut = { (object: String) in window.isTouchedAgain(object, after: row.sequence) }
        guard row.topic == .user(owner.key.userID), row.kind == .syncScopeGained else {
            return Array(row.objects.sorted().filter { (id == nil || $0 > id!) && !isLeftOut($0) }.prefix(limit))
        }
        let scope = Topic(key: try row.payload.decode(SyncScopeChange.self).scope)
        var kept: [String] = []
        var from = id
        while kept.count < limit {
            let asked = limit - kept.count
            let read = try SyncScopes.objects(in: [scope], after: from, limit: asked, in: owner.database)
            kept += read.filter { !isLeftOut($0) }
            guard read.count == asked, let last = read.last else { break }
            from = last
        }
        return kept
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
