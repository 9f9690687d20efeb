import HearthDomain

extension MutationInput {
    /// The `Date` field `field` (the scalar has checked it); `nil` when absent or `null`.
    /// - Throws: `BAD_USER_INPUT` (`INVALID_FORMAT`) for a day that does not parse.
    func day(_ field: String) throws -> CalendarDay? {
        guard let text = string(field) else { return nil }
        guard let day = CalendarDay(text) else { throw problem(field, .invalidFormat, "Write a day as YYYY-MM-DD.") }
        return day
    }
}
