extension Int {
    /// The sum, or `Int.max` where it would overflow: costs multiplied through fragments and
    /// list sizes can be made astronomically large by a hostile document.
    func addingClamped(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }

    /// The product, or `Int.max` where it would overflow.
    func multipliedClamped(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? .max : product
    }
}
