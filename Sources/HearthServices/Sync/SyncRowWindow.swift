import HearthStore

/// The change-log rows one page of changes reads (``SyncReader``), fetched ahead of the row being
/// read, so the page can tell whether a row it will read later touches an object again: such an
/// object is left to that row (cross-page de-duplication), which sends it as it is then.
///
/// A row counts as read (``Row/isSeen``) unless it is of a scope the reader lost and came after
/// the loss: those rows are skipped, so they neither stand for objects nor take one over.
struct SyncRowWindow {
    /// A row, and whether the reader reads what it touched.
    struct Row {
        var event: Event
        var isSeen: Bool
    }

    /// Rows read from the log at once.
    static let batchSize = 200
    /// How many rows are fetched past the row being read, where the log and the row limit allow.
    static let lookahead = 200

    private let database: Database
    private let topics: Set<Topic>
    /// Each scope the reader lost, with the sequence of its last loss.
    private let lost: [Topic: Int64]
    /// The most rows to fetch.
    private let rowLimit: Int
    /// Rows fetched and not yet read, oldest first, from `nextIndex`.
    private var fetched: [Row] = []
    private var nextIndex = 0
    private var fetchedCount = 0
    private var fetchedThrough: Int64
    /// Whether the log has no rows of these topics after `fetchedThrough`.
    private var isExhausted = false
    /// For each object, the newest fetched row that is read and touches it.
    private var lastTouch: [String: Int64] = [:]

    /// A window over the rows of `topics` after `sequence`, at most `rowLimit` of them; rows of a
    /// `lost` scope after its loss are fetched but not seen.
    init(after sequence: Int64, topics: Set<Topic>, lost: [Topic: Int64], rowLimit: Int, in database: Database) {
        self.database = database
        self.topics = topics
        self.lost = lost
        self.rowLimit = rowLimit
        fetchedThrough = sequence
    }

    /// Whether the row limit stopped the reading before the log's end: more rows may follow.
    var reachedRowLimit: Bool { !isExhausted && fetchedCount >= rowLimit }

    /// The next row in sequence order, after fetching ahead of it; `nil` at the end of the log or
    /// of the row limit.
    mutating func next() throws -> Row? {
        while !isExhausted, fetchedCount < rowLimit, fetched.count - nextIndex <= Self.lookahead {
            try fetch()
        }
        guard nextIndex < fetched.count else { return nil }
        defer { nextIndex += 1 }
        return fetched[nextIndex]
    }

    /// Whether a row fetched after row `sequence` that the reader reads touches `id` again.
    func isTouchedAgain(_ id: String, after sequence: Int64) -> Bool {
        (lastTouch[id] ?? 0) > sequence
    }

    private mutating func fetch() throws {
        let limit = min(Self.batchSize, rowLimit - fetchedCount)
        let rows = try ChangeLog.changes(after: fetchedThrough, topics: topics, limit: limit, in: database)
        if rows.count < limit { isExhausted = true }
        fetched.removeFirst(nextIndex)
        nextIndex = 0
        for event in rows {
            // A lost scope's rows after the loss are of objects the reader never saw.
            let isSeen = lost[event.topic].map { event.sequence <= $0 } ?? true
            if isSeen {
                for id in event.objects { lastTouch[id] = event.sequence }
            }
            fetched.append(Row(event: event, isSeen: isSeen))
        }
        fetchedCount += rows.count
        if let last = rows.last { fetchedThrough = last.sequence }
    }
}
