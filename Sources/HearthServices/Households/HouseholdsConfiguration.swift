import HearthDomain

/// Limits and lifetimes of households, membership and onboarding. Read once at start from
/// flags and environment (HearthApp's `ServeSettings`) and passed down.
public struct HouseholdsConfiguration: Sendable {
    /// The most households one account may belong to (creating or joining beyond it is a `CONFLICT`).
    public var maximumHouseholdsPerUser = 20
    /// The most members (invited ones included) a household may have.
    public var maximumMembersPerHousehold = 50
    /// The most invitations a household may have pending.
    public var maximumPendingInvitations = 50
    /// How long an invitation link works (FR-ONBOARD-4: 14 days).
    public var invitationLifetime: Duration = .seconds(14 * 24 * 3600)
    /// The current version of the terms of service; accounts that accepted an older one (or
    /// none) must accept it before anything else.
    public var termsVersion = "2026-11-01"
    /// Where the terms are published, if anywhere.
    public var termsURL: String?
    /// The values an admin may give `currencyPerToken` (FR-ONBOARD-5).
    public var currencyPerTokenRange = TokenEconomy.defaultCurrencyPerTokenRange
    /// The most entries of each cache of household reads kept while nothing commits (viewers'
    /// memberships, member pages, household screens' text; ``MarkScopedCache``); 0 reads every time.
    public var keptReadEntries = 10_000
    /// The most bytes kept of pages of members, and, apart, of household screens' JSON text with
    /// the pages it was made of (written back while nothing commits, or while they read the
    /// same); 0 keeps neither.
    public var keptTextBytes = 32 << 20

    /// The defaults.
    public init() {}
}
