extension DecimalAmount {
    /// The largest amount written in the `Decimal` format (9 digits before the point, 4 after),
    /// so every amount computed and stored can be read back.
    public static let largest = DecimalAmount(tenThousandths: 9_999_999_999_999)

    /// What `tokens` tokens are worth at this rate, exactly (a token's value times a whole
    /// number: no rounding); `nil` when `tokens` is negative or the value is beyond ``largest``.
    public func value(of tokens: Int) -> DecimalAmount? {
        guard tokens >= 0 else { return nil }
        let (product, overflow) = tenThousandths.multipliedReportingOverflow(by: Int64(tokens))
        guard !overflow, product <= Self.largest.tenThousandths else { return nil }
        return DecimalAmount(tenThousandths: product)
    }
}
