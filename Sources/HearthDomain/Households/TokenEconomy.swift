import Support

/// How the tokens of a chore are split among the members involved (FR-ONBOARD-5). Stored as
/// the raw value.
public enum EarningsSplit: String, Sendable, CaseIterable, Codable {
    /// The default: the assignee earns them; an unassigned chore's tokens go to whoever completes it.
    case fallback
    /// Split equally among everyone who took part.
    case equal
    /// Whoever completes the chore earns them all, whoever was assigned.
    case completer
}

/// The token economy's defaults and limits (FR-ONBOARD-5).
public enum TokenEconomy {
    /// What one token is worth in a new household: `0.10` ("10 tokens = $1.00").
    public static let defaultCurrencyPerToken = DecimalAmount(tenThousandths: 1_000)
    /// The range `currencyPerToken` may be set to unless the server is configured otherwise: 0.01 to 100.00.
    public static let defaultCurrencyPerTokenRange = DecimalAmount(tenThousandths: 100)...DecimalAmount(tenThousandths: 1_000_000)
}

/// An ISO 4217 currency code in circulation, such as `USD`: three uppercase letters from an
/// embedded list, so a typo (`UDS`) or a withdrawn currency (`DEM`) is refused.
public struct CurrencyCode: Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public let code: String

    /// The code `text` (trimmed), when it is an active ISO 4217 currency written in uppercase.
    /// - Throws: ``FieldProblem`` `UNKNOWN_VALUE` for `field`.
    public init(_ text: String, field: String) throws(FieldProblem) {
        let trimmed = text.trimmingWhitespace()
        guard Self.active.contains(trimmed) else {
            throw FieldProblem(field: field, reason: .unknownValue, message: "Choose an ISO 4217 currency code such as USD or EUR.")
        }
        code = trimmed
    }

    /// The code.
    public var description: String { code }

    /// The currencies in circulation (ISO 4217 list one, 2025), without fund codes (`USN`,
    /// `CLF`, …), precious metals (`XAU`) and special drawing rights (`XDR`): a household's
    /// tokens are worth money people spend.
    public static let active: Set<String> = Set(
        """
        AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF
        CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL
        HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD
        MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG
        QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD
        TWD TZS UAH UGX USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG
        """.split(whereSeparator: \.isWhitespace).map(String.init))
}
