extension DecimalAmount {
    /// What `tokens` tokens are worth at this rate, exactly (a token's value times a whole
    /// number: no rounding); `nil` when `tokens` is negative or the product overflows.
    public func value(of tokens: Int) -> DecimalAmount? {
        guard tokens >= 0 else { return nil }
        let (product, overflow) = tenThousandths.multipliedReportingOverflow(by: Int64(tokens))
        return overflow ? nil : DecimalAmount(tenThousandths: product)
    }
}
