import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Writes everything of a user's habits, habit events and follows (``HabitExportFormat``) as a
/// stream: one read transaction (so the export is one consistent snapshot) walks the rows in
/// order and hands the bytes on in chunks as they are made (``ExportStream``); no section, and
/// no photo beyond the one being written, is held whole.
///
/// The read runs on the export workers' own threads (``WorkerPool``), never on an event loop or
/// the threads Swift's tasks run on: its size is the user's history, which nothing bounds, and
/// `deliver` may block while a slow client catches up (an HTTP body writer's `writeWaiting`).
///
/// What is exported is the owner's own rows only (`{owner}`): their habits and events (with the
/// photos' metadata and bytes, and places), and the follows they made or received, where the other
/// account appears by its username alone.
public struct HabitExporter: Sendable {
    /// The JSON document's `format` member, and its `version`.
    public static let formatName = "hearth.habits"
    /// See ``formatName``.
    public static let formatVersion = 1

    let pool: any DatabaseReader
    let clock: any ServiceClock
    let workers: WorkerPool
    /// About how many bytes each delivered chunk holds.
    public let chunkSize: Int

    /// An exporter reading `pool` on `workers`, delivering chunks of about `chunkSize` bytes.
    public init(pool: any DatabaseReader, clock: any ServiceClock, workers: WorkerPool, chunkSize: Int = 64 * 1024) {
        self.pool = pool
        self.clock = clock
        self.workers = workers
        self.chunkSize = chunkSize
    }

    /// Writes `format` of `viewer`'s data, calling `deliver` with each chunk in order (from the
    /// worker thread), and returns once the last chunk was delivered. `deliver` answers whether
    /// to go on: false (the client has gone) ends the export with `CancellationError`.
    /// - Throws: ``WorkerPoolError`` when every export worker is busy and the queue is full
    ///   (before any chunk); ``StoreError`` from the read; ``ZipError`` past the zip format's
    ///   limits (4 GiB); `CancellationError`. Chunks delivered before a failure stay delivered, so
    ///   a caller streaming them must end the response as failed (a broken download, not a
    ///   short one that looks whole).
    public func export(_ format: HabitExportFormat, of viewer: Viewer, deliver: @escaping @Sendable ([UInt8]) -> Bool) async throws {
        let owner = Owner(viewer)
        let chunkSize = chunkSize
        let exportedAt = clock.storedNow
        let pool = pool
        try await workers.run {
            try pool.read { database in
            let scope = OwnerScope(owner, database)
            let stream = ExportStream(chunkSize: chunkSize, zipped: format == .zip, deliver: deliver)
            let writer = SectionWriter(scope: scope, stream: stream, exportedAt: exportedAt)
            switch format {
            case .json: try writer.json()
            case .habitsCSV: try writer.csv(ExportedHabit.self, header: ExportedHabit.csvHeader, ExportedHabit.select, \.csvFields)
            case .eventsCSV: try writer.csv(ExportedEvent.self, header: ExportedEvent.csvHeader, ExportedEvent.select, \.csvFields)
            case .followsCSV: try writer.csv(ExportedFollow.self, header: ExportedFollow.csvHeader, ExportedFollow.select, \.csvFields)
            case .zip: try writer.zip()
            }
            try stream.finish()
            }
        }
    }
}

/// The sections of an export, written to one stream inside the read transaction.
private struct SectionWriter {
    let scope: OwnerScope
    let stream: ExportStream
    let exportedAt: Date

    private var modifiedAt: Int64 { Int64(exportedAt.timeIntervalSince1970) }

    /// The JSON document: `{"format", "version", "exportedAt", "user", "habits", "events", "follows"}`.
    func json() throws {
        let username = try scope.scalar(String.self, "SELECT username FROM users WHERE id = {owner}") ?? ""
        try stream.write(
            "{\"format\":\(JSONText.string(HabitExporter.formatName)),\"version\":\(HabitExporter.formatVersion),"
                + "\"exportedAt\":\(JSONText.string(WallClock.Instant(exportedAt).iso8601)),"
                + "\"user\":\(JSONText.object(["id": JSONText.string(scope.key.userID), "username": JSONText.string(username)])),")
        try jsonArray("habits", ExportedHabit.self, ExportedHabit.select, \.json)
        try stream.write(",")
        try jsonArray("events", ExportedEvent.self, ExportedEvent.select, \.json)
        try stream.write(",")
        try jsonArray("follows", ExportedFollow.self, ExportedFollow.select, \.json)
        try stream.write("}\n")
    }

    private func jsonArray<Record: Decodable>(_ name: String, _ type: Record.Type, _ sql: String, _ encode: (Record) -> String) throws {
        try stream.write(JSONText.string(name) + ":[")
        var first = true
        try scope.forEachRow(sql) { row in
            try stream.write((first ? "\n" : ",\n") + encode(try row.decode(Record.self)))
            first = false
        }
        try stream.write("]")
    }

    /// One CSV file: the header record, then a record per row.
    func csv<Record: Decodable>(_ type: Record.Type, header: [String], _ sql: String, _ fields: (Record) -> [String]) throws {
        try stream.write(CSVRecord.encode(header))
        try scope.forEachRow(sql) { row in try stream.write(CSVRecord.encode(fields(try row.decode(Record.self)))) }
    }

    /// The zip archive: every other format as a file, then each photo under `photos/`.
    func zip() throws {
        try file(HabitExportFormat.json.fileName) { try json() }
        try file(HabitExportFormat.habitsCSV.fileName) {
            try csv(ExportedHabit.self, header: ExportedHabit.csvHeader, ExportedHabit.select, \.csvFields)
        }
        try file(HabitExportFormat.eventsCSV.fileName) {
            try csv(ExportedEvent.self, header: ExportedEvent.csvHeader, ExportedEvent.select, \.csvFields)
        }
        try file(HabitExportFormat.followsCSV.fileName) {
            try csv(ExportedFollow.self, header: ExportedFollow.csvHeader, ExportedFollow.select, \.csvFields)
        }
        try scope.forEachRow(ExportedPhoto.select) { row in
            let photo = try row.decode(ExportedPhoto.self)
            try file(ExportedPhoto.path(id: photo.id, mediaType: photo.mediaType)) { try stream.write(photo.bytes) }
        }
    }

    private func file(_ name: String, _ body: () throws -> Void) throws {
        try stream.beginFile(name, modifiedAt: modifiedAt)
        try body()
        try stream.endFile()
    }
}
