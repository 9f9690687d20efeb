import HearthDomain
import HearthServices

/// The options of households, membership and onboarding: limits, the invitation lifetime, the
/// current terms of service and the cache of household reads.
enum HouseholdSettings {
    /// The options that set ``HouseholdsConfiguration``.
    static let options: [OptionSpec] = [
        .value("--max-households-per-user", "N", environment: "HEARTH_MAX_HOUSEHOLDS_PER_USER", default: "20",
               help: "The most households one account may belong to."),
        .value("--max-members-per-household", "N", environment: "HEARTH_MAX_MEMBERS_PER_HOUSEHOLD", default: "50",
               help: "The most members (invited ones included) a household may have."),
        .value("--max-pending-invitations", "N", environment: "HEARTH_MAX_PENDING_INVITATIONS", default: "50",
               help: "The most invitations a household may have pending."),
        .value("--invitation-lifetime", "DURATION", environment: "HEARTH_INVITATION_LIFETIME", default: "14d",
               help: "How long an invitation link works."),
        .value("--terms-version", "VERSION", environment: "HEARTH_TERMS_VERSION", default: "2026-11-01",
               help: "The current terms of service; accounts that accepted an older version must accept this one first."),
        .value("--terms-url", "URL", environment: "HEARTH_TERMS_URL",
               help: "Where the terms of service are published (shown to clients)."),
        .value("--min-currency-per-token", "DECIMAL", environment: "HEARTH_MIN_CURRENCY_PER_TOKEN", default: "0.01",
               help: "The smallest value an admin may give one token, in the household's currency."),
        .value("--max-currency-per-token", "DECIMAL", environment: "HEARTH_MAX_CURRENCY_PER_TOKEN", default: "100.00",
               help: "The largest value an admin may give one token, in the household's currency."),
        .value("--household-cache-entries", "N", environment: "HEARTH_HOUSEHOLD_CACHE_ENTRIES", default: "10000",
               help: "The most viewers' memberships, pages of members and household screens' text kept between requests while nothing commits to the database (SQLite only); 0 reads them every time."),
        .value("--household-cache-bytes", "BYTES", environment: "HEARTH_HOUSEHOLD_CACHE_BYTES", default: "32MiB",
               help: "The most bytes of pages of members kept (about 640 per member), and apart of household screens' JSON text with the pages it was made of; 0 keeps neither."),
    ]

    /// The configuration the options give.
    /// - Throws: `UsageError` for a value out of range.
    static func configuration(_ options: ParsedOptions) throws -> HouseholdsConfiguration {
        var configuration = HouseholdsConfiguration()
        configuration.maximumHouseholdsPerUser =
            try options.integer("--max-households-per-user", in: 1...10_000) ?? configuration.maximumHouseholdsPerUser
        configuration.maximumMembersPerHousehold =
            try options.integer("--max-members-per-household", in: 1...10_000) ?? configuration.maximumMembersPerHousehold
        configuration.maximumPendingInvitations =
            try options.integer("--max-pending-invitations", in: 1...10_000) ?? configuration.maximumPendingInvitations
        configuration.invitationLifetime =
            try options.duration("--invitation-lifetime", in: .seconds(1)...(.seconds(365 * 24 * 3600))) ?? configuration.invitationLifetime
        if let version = options.string("--terms-version") {
            guard !version.isEmpty, version.count <= 64 else { throw UsageError(message: "--terms-version: 1-64 characters") }
            configuration.termsVersion = version
        }
        configuration.termsURL = options.string("--terms-url")
        configuration.keptReadEntries =
            try options.integer("--household-cache-entries", in: 0...10_000_000) ?? configuration.keptReadEntries
        configuration.keptTextBytes =
            try options.byteCount("--household-cache-bytes", in: 0...(1 << 40)) ?? configuration.keptTextBytes
        configuration.currencyPerTokenRange = try currencyPerTokenRange(options, default: configuration.currencyPerTokenRange)
        return configuration
    }

    /// The `--min-currency-per-token` … `--max-currency-per-token` range: exact decimals, the
    /// minimum above zero and not above the maximum.
    private static func currencyPerTokenRange(
        _ options: ParsedOptions, default range: ClosedRange<DecimalAmount>
    ) throws -> ClosedRange<DecimalAmount> {
        func amount(_ name: String, _ fallback: DecimalAmount) throws -> DecimalAmount {
            guard let text = options.string(name) else { return fallback }
            guard let amount = DecimalAmount(text), amount.tenThousandths > 0 else {
                throw UsageError(message: "\(name): a positive decimal with up to \(DecimalAmount.fractionDigits) digits after the point, such as 0.01")
            }
            return amount
        }
        let minimum = try amount("--min-currency-per-token", range.lowerBound)
        let maximum = try amount("--max-currency-per-token", range.upperBound)
        guard minimum <= maximum else {
            throw UsageError(message: "--min-currency-per-token must not be above --max-currency-per-token")
        }
        return minimum...maximum
    }
}
