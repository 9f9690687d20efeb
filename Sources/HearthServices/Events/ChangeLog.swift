import FoundationEssentials
import HearthStore

/// The durable record of every committed change (table `change_log`, migration 0002) and
/// the way changes reach the ``EventBus``.
///
/// Services record changes inside their write transactions; the change log assigns each a
/// sequence and publishes it once the transaction commits:
///
/// ```swift
/// try await pool.write { db in
///     try db.execute("UPDATE chores SET done_at = ? WHERE id = ?", [now, choreID])
///     try changeLog.record(topic: .household(householdID), kind: .choreCompleted,
///                          payload: ChoreCompleted(choreID: choreID), in: db)
/// }
/// ```
///
/// On SQLite the single writer runs commit callbacks in commit order, so the bus may be the
/// ``InProcessEventBus`` itself. On PostgreSQL it must be a ``ChangeLogRelay``, even for one
/// instance: transactions on several connections run their commit callbacks in any order, and
/// a ``ChangeFeed`` handed 8 before 7 skips 7.
///
/// Clients that were offline, or whose subscription overflowed, catch up by cursor with
/// ``changes(after:topics:limit:)``: the sequence of the last event they processed. Changes
/// are kept for the retention horizon (`--retain-change-log`); a cursor older than that gets
/// `CURSOR_EXPIRED` (`ChangeLog+Retention.swift`).
public struct ChangeLog: Sendable {
    /// The store holding the change log. Not public: changes are recorded in the caller's
    /// transaction (``record(topic:kind:payload:in:)``) and read through the functions below.
    let pool: any DatabaseWriter
    /// Where committed changes are published.
    public let bus: any EventBus
    /// The clock stamping recorded changes.
    public let clock: any ServiceClock
    /// What other areas do inside the transaction of a change they follow.
    public let reactions = ChangeReactions()

    /// The channel on which a commit that recorded changes tells other processes sharing the
    /// database (PostgreSQL `NOTIFY`) each of their sequences: small payloads, the changes
    /// themselves stay in the table, where every instance's ``ChangeLogRelay`` reads them.
    public static let notificationChannel = "hearth_changes"

    /// The advisory lock that keeps the log's appends in commit order across processes
    /// (`Database.serializeAppends(to:)`); any constant no other code locks ("HEARTHCL").
    static let appendLock: Int64 = 0x4845_4152_5448_434C

    /// A change log in `pool`'s database publishing to `bus`.
    ///
    /// - Parameter clock: the clock stamping recorded changes; tests pass one they move.
    public init(pool: any DatabaseWriter, bus: any EventBus, clock: any ServiceClock = SystemClock()) {
        self.pool = pool
        self.bus = bus
        self.clock = clock
    }

    /// Appends a change to the log inside the caller's write transaction, runs the
    /// ``reactions`` to its kind there, and arranges for it to be published on the bus after
    /// that transaction commits (nothing is published if it rolls back, or if the savepoint
    /// around this call is undone).
    ///
    /// The row lists the objects the change touched (column `objects`, read by offline sync):
    /// the payload's ``ChangeSubjects/touchedObjectIDs`` when it names them, then `touching`,
    /// each id once.
    ///
    /// - Parameter touching: ids the payload does not name, such as every object a cascading
    ///   delete removed (read them before deleting).
    /// - Parameter database: the connection of a write transaction of ``pool``.
    /// - Returns: the event as it will be published, with its sequence.
    /// - Throws: `EncodingError` when the payload cannot be encoded, ``StoreError`` when
    ///   the insert fails, what a reaction throws.
    @discardableResult
    public func record<Payload: Encodable & Sendable>(
        topic: Topic, kind: EventKind, payload: Payload, touching: [String] = [], in database: Database
    ) throws -> Event {
        let objects = ChangeObjects.unique(((payload as? any ChangeSubjects)?.touchedObjectIDs ?? []) + touching)
        let payload = try EventPayload(payload)
        // Milliseconds, as stored: an event read back from the log equals the published one.
        let committedAt = clock.storedNow
        // Sequences in commit order across processes sharing the database (ChangeLogRelay).
        try database.serializeAppends(to: Self.appendLock)
        let sequence = try database.scalar(
            Int64.self, "INSERT INTO change_log (topic, kind, payload, committed_at, objects) VALUES (?, ?, ?, ?, ?) RETURNING sequence",
            [topic.key, kind.rawValue, payload.json, committedAt, try ChangeObjects.json(objects)]
        )
        let event = Event(sequence: sequence!, topic: topic, kind: kind, payload: payload, committedAt: committedAt, objects: objects)
        try database.notify(channel: Self.notificationChannel, payload: String(event.sequence))
        let bus = bus
        database.afterCommit { bus.publish([event]) }
        try reactions.react(to: event, in: database)
        return event
    }

    /// Deletes the changes of `kind` on `topic` recorded before `sequence`, inside the
    /// caller's write transaction: for changes that supersede their predecessors, such as
    /// heartbeats, whose history no client needs to catch up on. Returns how many were
    /// deleted. The subscribers of the process that recorded them received them at commit; an
    /// instance that relays from the log (``ChangeLogRelay``, PostgreSQL) skips one deleted before
    /// it read it, as a later catch-up does: only the latest matters.
    @discardableResult
    public static func deleteChanges(topic: Topic, kind: EventKind, before sequence: Int64, in database: Database) throws -> Int {
        try database.execute(
            "DELETE FROM change_log WHERE topic = ? AND kind = ? AND sequence < ?",
            [topic.key, kind.rawValue, sequence]
        )
        return database.changedRowCount
    }

    /// Changes to `topics` with a sequence above `sequence`, oldest first, at most `limit`.
    /// Page through a long backlog by passing the last returned sequence back in.
    ///
    /// - Parameter sequence: the cursor, 0 for the beginning of the log.
    /// - Throws: ``StoreError``, or `CancellationError` if cancelled waiting for a reader.
    public func changes(after sequence: Int64, topics: Set<Topic>, limit: Int) async throws -> [Event] {
        try await pool.read { database in
            try Self.changes(after: sequence, topics: topics, limit: limit, in: database)
        }
    }

    /// ``changes(after:topics:limit:)`` through an open connection, to read changes in the
    /// same snapshot as other data (a sync client's initial state and its cursor).
    ///
    /// - Throws: ``ServiceError`` `CURSOR_EXPIRED` when retention pruned changes after
    ///   `sequence` (see ``prunedThrough(in:)``).
    public static func changes(after sequence: Int64, topics: Set<Topic>, limit: Int, in database: Database) throws -> [Event] {
        precondition(limit > 0, "a page of changes holds at least one")
        try requireRetained(after: sequence, in: database)
        guard !topics.isEmpty else { return [] }
        // Sorted keys give one SQL text per topic count, which the statement cache reuses.
        let keys = topics.map(\.key).sorted()
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        let sql = """
            SELECT sequence, topic, kind, payload, committed_at, objects FROM change_log
            WHERE sequence > ? AND topic IN (\(placeholders)) ORDER BY sequence LIMIT ?
            """
        var arguments: [(any DatabaseValueConvertible)?] = [sequence]
        arguments.append(contentsOf: keys.map { $0 as (any DatabaseValueConvertible)? })
        arguments.append(limit)
        return try database.query(sql, StatementArguments(arguments)).map(event(from:))
    }

    /// Changes to every topic with a sequence above `sequence`, oldest first, at most `limit`:
    /// what an instance sharing its database with others relays to its own subscribers
    /// (``ChangeLogRelay``). No retention check: the relay's cursor is where it stopped a
    /// moment ago, and each feed checks its own cursor when it catches up.
    public static func changes(after sequence: Int64, limit: Int, in database: Database) throws -> [Event] {
        precondition(limit > 0, "a page of changes holds at least one")
        return try database.query(
            "SELECT sequence, topic, kind, payload, committed_at, objects FROM change_log WHERE sequence > ? ORDER BY sequence LIMIT ?",
            [sequence, limit]
        ).map(event(from:))
    }

    /// The event a row of `change_log` holds (columns as the reads above select them).
    private static func event(from row: Row) throws -> Event {
        Event(
            sequence: try row["sequence"],
            topic: Topic(key: try row["topic"]),
            kind: EventKind(rawValue: try row["kind"]),
            payload: EventPayload(json: try row["payload"]),
            committedAt: try row["committed_at"],
            objects: try ChangeObjects.ids(json: try row["objects"])
        )
    }

    /// The sequence of the newest change, 0 when the log is empty: the cursor a new
    /// client starts from before it subscribes.
    public func latestSequence() async throws -> Int64 {
        try await pool.read { database in try Self.latestSequence(in: database) }
    }

    /// ``latestSequence()`` through an open connection.
    public static func latestSequence(in database: Database) throws -> Int64 {
        try database.scalar(Int64.self, "SELECT max(sequence) FROM change_log") ?? 0
    }
}
