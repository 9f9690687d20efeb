import FoundationEssentials
import HearthDomain
import HearthStore

/// A household's token economy (FR-ONBOARD-5), with the range the server allows, so a client
/// can pre-fill the wizard's economy step and bound its picker.
public struct EconomySettings: Sendable, Hashable {
    /// What one token is worth, in ``currencyCode``.
    public var currencyPerToken: DecimalAmount
    /// The ISO 4217 currency code.
    public var currencyCode: String
    /// How tokens of shared work are split.
    public var earningsSplit: EarningsSplit
    /// The values ``currencyPerToken`` may be set to.
    public var allowedCurrencyPerToken: ClosedRange<DecimalAmount>

    /// Creates the settings.
    public init(
        currencyPerToken: DecimalAmount, currencyCode: String, earningsSplit: EarningsSplit,
        allowedCurrencyPerToken: ClosedRange<DecimalAmount>
    ) {
        self.currencyPerToken = currencyPerToken
        self.currencyCode = currencyCode
        self.earningsSplit = earningsSplit
        self.allowedCurrencyPerToken = allowedCurrencyPerToken
    }
}

extension HouseholdService {
    /// The economy of the household `access` grants, as it is now.
    public func economy(_ access: HouseholdAccess) async throws -> EconomySettings {
        economy(of: try await household(access))
    }

    /// The economy stored in `household`.
    public func economy(of household: HouseholdRecord) -> EconomySettings {
        EconomySettings(
            // The columns are written only by this service, from validated values; the
            // fallbacks keep a hand-edited row readable.
            currencyPerToken: DecimalAmount(household.currencyPerToken) ?? TokenEconomy.defaultCurrencyPerToken,
            currencyCode: household.currencyCode,
            earningsSplit: EarningsSplit(rawValue: household.earningsSplit) ?? .fallback,
            allowedCurrencyPerToken: configuration.currencyPerTokenRange)
    }

    /// What `updateEconomySettings` changes; `nil` fields stay as they are.
    public struct EconomyChanges: Sendable {
        /// What one token is worth, within the configured range.
        public var currencyPerToken: DecimalAmount?
        /// An ISO 4217 code in circulation, in uppercase.
        public var currencyCode: String?
        /// The split.
        public var earningsSplit: EarningsSplit?

        /// Creates the request.
        public init(currencyPerToken: DecimalAmount? = nil, currencyCode: String? = nil, earningsSplit: EarningsSplit? = nil) {
            self.currencyPerToken = currencyPerToken
            self.currencyCode = currencyCode
            self.earningsSplit = earningsSplit
        }
    }

    /// Sets the token economy of `householdID` (FR-ONBOARD-5) and completes the checklist's
    /// economy step, also when nothing changes (saving the pre-filled defaults is configuring
    /// them). Admins only. The amount is stored in canonical decimal text (`0.10`).
    /// - Throws: `BAD_USER_INPUT` (`input.currencyPerToken` `OUT_OF_RANGE`, `input.currencyCode`
    ///   `UNKNOWN_VALUE`), `NOT_FOUND`, `FORBIDDEN`, `CONFLICT` for a reused `clientMutationID`.
    public func updateEconomySettings(
        householdID: String, _ changes: EconomyChanges, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleHousehold {
        var problems = ProblemCollector()
        let range = configuration.currencyPerTokenRange
        if let amount = changes.currencyPerToken, !range.contains(amount) {
            problems.add(FieldProblem(
                field: "input.currencyPerToken", reason: .outOfRange,
                message: "A token is worth between \(range.lowerBound) and \(range.upperBound)."))
        }
        let code = changes.currencyCode.flatMap { text in
            problems.check { () throws(FieldProblem) in try CurrencyCode(text, field: "input.currencyCode") }
        }
        try problems.throwIfAny()
        let now = clock.storedNow
        let configured = try await mutate("updateEconomySettings", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let access = scope.access
            let current = economy(of: try HouseholdRecord.find(scope))
            let amount = changes.currencyPerToken ?? current.currencyPerToken
            try scope.execute(
                """
                UPDATE households SET currency_per_token = ?, currency_code = ?, earnings_split = ?, updated_at = ?
                WHERE id = {household}
                """,
                [amount.description, code?.code ?? current.currencyCode, (changes.earningsSplit ?? current.earningsSplit).rawValue, now])
            try markOnboardingStepDone(.economy, scope, at: now)
            try record(.householdUpdated, HouseholdChange(householdID: access.householdID), in: database)
            try analytics.record(
                .economyConfigured, actorID: access.userID, householdID: access.householdID,
                properties: ["currencyPerTokenTier": Self.tier(of: amount)], at: now, in: database)
            return HouseholdReference(householdID: access.householdID)
        }
        return try await household(id: configured.householdID, viewer: viewer)
    }

    /// The coarse tier of a token's value for analytics: never the value itself.
    static func tier(of amount: DecimalAmount) -> String {
        switch amount.tenThousandths {
        case ..<500: "lt_0.05"
        case ..<2_500: "0.05_0.25"
        case ..<10_000: "0.25_1"
        default: "gte_1"
        }
    }
}
