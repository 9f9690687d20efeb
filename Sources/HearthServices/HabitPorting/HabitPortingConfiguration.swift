/// Limits of importing habits from other trackers.
public struct HabitPortingConfiguration: Sendable, Equatable {
    /// The largest archive `importLoopHabits` and `POST /import/loop` accept, in bytes
    /// (`--loop-import-max-bytes`); larger: `BAD_USER_INPUT` with reason `TOO_LARGE`.
    public var maxImportBytes: Int
    /// How many times its own size an archive may unpack to (its CSV files compress well, a
    /// zip bomb far better): past ``maxImportBytes`` × this, `TOO_LARGE`.
    public static let unpackedSizeFactor = 16

    /// The limits; 2 MiB by default, like `--max-upload-bytes` (Loop's export of ten habits over
    /// ten years is about 1.3 MB of CSV, a few hundred kilobytes zipped).
    public init(maxImportBytes: Int = 2 << 20) {
        self.maxImportBytes = maxImportBytes
    }
}
