import FoundationEssentials
import HearthStore
import Support

/// The activation events of onboarding.md's analytics table, as stored in `analytics_events.name`.
public enum AnalyticsEventName: String, Sendable, CaseIterable {
    /// The setup wizard was first opened (client-reported); the KPI's denominator.
    case onboardingStarted = "onboarding_started"
    /// A wizard step was passed; property `step`, `stepIndex`.
    case onboardingStepCompleted = "onboarding_step_completed"
    /// A household was created; the primary activation signal.
    case householdCreated = "household_created"
    /// A member was added or invited; property `kind` (`parent`, `shadow`, `child`, `coParent`).
    case memberInvited = "member_invited"
    /// A parental consent record was written; property `path`, and `consentRef` (opaque).
    case childConsentCaptured = "child_consent_captured"
    /// The economy step was saved; property `currencyPerTokenTier` (a coarse tier, never the value).
    case economyConfigured = "economy_configured"
    /// A household's first approved chore completion (recorded by the chores feature); the KPI's numerator.
    case firstChoreCompleted = "first_chore_completed"
    /// Every required wizard step is done; properties `timeToCompleteBucket`, `memberCountBucket`.
    case onboardingCompleted = "onboarding_completed"
    /// A step was skipped ("later"); property `step`.
    case onboardingSkipped = "onboarding_skipped"
}

/// Records activation analytics under onboarding.md's privacy model: internal BI only,
/// event type plus coarse, content-free properties. The rules it enforces:
///
/// - Nothing is recorded unless the account causing the event has consented to analytics
///   (`users.analytics_consented_at`); the check runs in the caller's transaction.
/// - Households, accounts and consent records appear only as references: HMAC-SHA-256 of the
///   id under a server secret, truncated to 128 bits, base64url. Without the secret a
///   reference cannot be tied back to an id, and it is stable, so events of one household
///   can be joined.
/// - No names, addresses, ages or ids of children are ever passed in: properties are small
///   enums and buckets chosen by the callers in this module.
/// - Times are rounded down to the minute.
public struct ActivationAnalytics: Sendable {
    private let key: [UInt8]

    /// A recorder whose references are keyed with `key` (the server's analytics secret).
    public init(key: [UInt8]) {
        precondition(key.count >= 16, "the analytics key has at least 128 bits")
        self.key = key
    }

    /// The reference standing for `id` in analytics rows.
    public func reference(_ id: String) -> String {
        Base64URL.encode(HMACSHA256.authenticationCode(key: key, message: Array(id.utf8)).prefix(16))
    }

    /// Records `event` inside the caller's write transaction if `actorID` has consented to
    /// analytics; returns whether it was recorded.
    /// - Parameters:
    ///   - householdID: The household concerned (stored as its reference).
    ///   - properties: Coarse, content-free values only.
    @discardableResult
    public func record(
        _ event: AnalyticsEventName, actorID: String, householdID: String?, properties: [String: String] = [:],
        at now: Date, in database: Database
    ) throws -> Bool {
        guard try Self.hasConsent(userID: actorID, in: database) else { return false }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let minute = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 60).rounded(.down) * 60)
        try database.execute(
            "INSERT INTO analytics_events (name, household_ref, actor_ref, properties, occurred_at) VALUES (?, ?, ?, ?, ?)",
            [event.rawValue, householdID.map(reference), reference(actorID),
             String(decoding: try encoder.encode(properties), as: UTF8.self), minute])
        return true
    }

    /// Whether `userID` allows analytics.
    static func hasConsent(userID: String, in database: Database) throws -> Bool {
        try database.scalar(String.self, "SELECT analytics_consented_at FROM users WHERE id = ?", [userID]) != nil
    }
}
