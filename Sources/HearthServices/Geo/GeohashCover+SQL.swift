import HearthDomain
import HearthStore

extension GeohashCover {
    /// The cover's ranges as the rows of a SQL `VALUES` list, `(?, ?), (?, ?), …` (a lower and an
    /// upper bound of stored hashes each), with their arguments: what the grid's statements join
    /// events to (`geohash >= lower AND geohash < upper`), so SQLite seeks the index
    /// `habit_events_grid` once per range (`HabitEventsNear`, the history's `near`).
    var rangeRows: (sql: String, arguments: [(any DatabaseValueConvertible)?]) {
        (Array(repeating: "(?, ?)", count: ranges.count).joined(separator: ", "),
         ranges.flatMap { range -> [(any DatabaseValueConvertible)?] in [range.lowerBound, range.storedUpperBound] })
    }
}
