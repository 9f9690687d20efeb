/// Limits of importing habits from other trackers. (How many habits a user may have in all is
/// ``HabitsConfiguration/maximumHabitsPerUser``, which imports respect too.)
public struct HabitPortingConfiguration: Sendable, Equatable {
    /// The largest archive `importLoopHabits` and `POST /import/loop` accept, in bytes
    /// (`--loop-import-max-bytes`); larger: `BAD_USER_INPUT` with reason `TOO_LARGE`.
    public var maxImportBytes: Int
    /// The most files an archive may hold (`--loop-import-max-files`); more: `BAD_USER_INPUT`
    /// with reason `TOO_LARGE`. Loop writes two per habit and three more.
    public var maxFiles: Int
    /// The most events one transaction of an import stores (`--loop-import-events-per-transaction`):
    /// the habits go in a first transaction, their events in as many more as needed, so the
    /// database's one writer is never held for long (about 0.1 s for 1000 events).
    public var eventsPerTransaction: Int
    /// How many times its own size an archive may unpack to (its CSV files compress well, a
    /// zip bomb far better): past ``maxImportBytes`` × this, `TOO_LARGE`.
    public static let unpackedSizeFactor = 16

    /// The most bytes an archive's CSV files may unpack to: ``maxImportBytes`` × ``unpackedSizeFactor``.
    public var maxUnpackedBytes: Int { maxImportBytes * Self.unpackedSizeFactor }

    /// The limits; 2 MiB by default, like `--max-upload-bytes` (Loop's export of ten habits over
    /// ten years is about 1.3 MB of CSV, a few hundred kilobytes zipped), 1,003 files (the export
    /// of 500 habits, the most a user may have by default), and 1000 events a transaction.
    public init(maxImportBytes: Int = 2 << 20, maxFiles: Int = 1003, eventsPerTransaction: Int = 1000) {
        precondition(eventsPerTransaction > 0, "a transaction stores at least one event")
        self.maxImportBytes = maxImportBytes
        self.maxFiles = maxFiles
        self.eventsPerTransaction = eventsPerTransaction
    }
}
