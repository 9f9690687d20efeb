import HearthDomain

/// One page of the preset library (FR-43): the household's saved presets first, then the
/// built-in ones, each group by title; a cursor is a preset's id.
public struct PresetPage: Sendable {
    /// The most presets one page holds, and the page size when `first` is not given.
    public static let maximumSize = 100

    /// The presets of the page, in order.
    public var presets: [ChorePreset]
    /// Whether presets follow the page.
    public var hasNextPage: Bool
    /// Whether presets precede it.
    public var hasPreviousPage: Bool
    /// How many presets match in all.
    public var totalCount: Int

    /// `presets` after the preset `after` (nil: from the start), at most `first`.
    /// - Returns: `nil` when `after` is not among `presets`.
    init?(_ presets: [ChorePreset], first: Int, after: String?) {
        var start = 0
        if let after {
            guard let index = presets.firstIndex(where: { $0.id == after }) else { return nil }
            start = index + 1
        }
        self.presets = Array(presets[start...].prefix(first))
        hasNextPage = start + first < presets.count
        hasPreviousPage = start > 0
        totalCount = presets.count
    }
}
