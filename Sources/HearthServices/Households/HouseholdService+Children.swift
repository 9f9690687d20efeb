import FoundationEssentials
import HearthDomain
import HearthStore

/// A verifiable parental consent as stored in `parental_consents` (FR-ONBOARD-3, COPPA): who
/// consented, how, to what and when. It holds no data about the child.
public struct ParentalConsentRecord: Sendable, Hashable, Decodable {
    /// The consent's opaque id, which `addMember` takes.
    public var id: String
    /// The household the child joins.
    public var householdID: String
    /// The account of the admin who consented.
    public var consentedBy: String
    /// How the consent was verified.
    public var method: ConsentMethod
    /// Whether the child gets their own login later or is supervised.
    public var path: ChildProfilePath
    /// The statement the parent confirmed.
    public var attestation: String
    /// The terms version shown with it.
    public var termsVersion: String
    /// When it was given.
    public var consentedAt: Date
    /// When a member was added under it; `nil` while it is unused.
    public var usedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id
        case householdID = "household_id"
        case consentedBy = "consented_by"
        case method, path, attestation
        case termsVersion = "terms_version"
        case consentedAt = "consented_at"
        case usedAt = "used_at"
    }

    /// The columns, in the order ``CodingKeys`` reads them.
    static let columns = "id, household_id, consented_by, method, path, attestation, terms_version, consented_at, used_at"
}

/// Children and shadow members behind the parental consent gate (FR-ONBOARD-3, COPPA).
///
/// The gate: a child or shadow under 13, or whose age is not given, is added only with a
/// consent recorded first by `recordParentalConsent` in the same household, on the matching
/// path, and not used for another member. The consent is checked before anything is written,
/// in the transaction that would add the member, so a refused call leaves no trace at all: no
/// member row, no change-log event, no analytics, no replay record. The database refuses such
/// a member too (a `CHECK` on `members`).
///
/// Consent errors, for clients to branch on:
/// - no `consentID` where one is needed: `CONSENT_REQUIRED`;
/// - a `consentID` that is unknown or of another household: `BAD_USER_INPUT` on
///   `input.consentId`, reason `UNKNOWN_VALUE` (the same answer for both, so ids of other
///   households reveal nothing);
/// - a consent already used for a member, or on the other path (`OWN_ACCOUNT` is for
///   `CHILD`, `SUPERVISED` for `SHADOW`): `BAD_USER_INPUT` on `input.consentId`, reason
///   `NOT_ALLOWED`.
extension HouseholdService {
    // MARK: - Consent

    /// Records a parent's verifiable consent to add one child under 13 or of unknown age to
    /// `householdID`. Admins only; the consent is theirs. Each consent serves one child.
    ///
    /// Consents are captured offline and synced (onboarding.md): a phone makes the consent's id
    /// (`id`), so the `addMember` it queues after it can name the consent before either reached
    /// the server; a replay, or a retry with the same `id`, answers the first record.
    /// - Parameters:
    ///   - attestation: The statement the parent confirmed, as shown: 1–2000 characters after trimming.
    ///   - termsVersion: The terms shown with it: the server's current version.
    ///   - id: The id the client made for the consent offline (`cns_<uuid>`); the server makes one when absent.
    /// - Throws: `BAD_USER_INPUT` (attestation empty or too long; `input.termsVersion`
    ///   `UNKNOWN_VALUE` for any version but the current one), `NOT_FOUND` (reason `DELETED` for a
    ///   household that was deleted), `FORBIDDEN`; `CONFLICT` when the household already holds as
    ///   many unused consents as it could have members; for `id`, as
    ///   ``ClientIDs/claim(_:_:field:_:at:)`` (the same id again answers the first consent).
    public func recordParentalConsent(
        householdID: String, method: ConsentMethod, path: ChildProfilePath, attestation: String, termsVersion: String,
        id: String? = nil, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> ParentalConsentRecord {
        var problems = ProblemCollector()
        let statement = problems.check { () throws(FieldProblem) in
            try ConsentAttestation.validated(attestation, field: "input.attestation")
        }
        if termsVersion != configuration.termsVersion {
            problems.add(FieldProblem(
                field: "input.termsVersion", reason: .unknownValue,
                message: "Show the current terms (version \(configuration.termsVersion)) with the consent."))
        }
        try problems.throwIfAny()
        let now = clock.storedNow
        let recorded = try await mutate(
            "recordParentalConsent", by: viewer, replaying: clientMutationID, about: householdID, at: now
        ) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let access = scope.access
            let consentID: String
            switch try ClientIDs.claim(id, .parentalConsent, OwnerScope(Owner(viewer), database), at: now) {
            case .existing(let made): return ConsentReference(householdID: access.householdID, consentID: made)
            case .create(let new): consentID = new
            }
            let unused = try scope.scalar(
                Int.self, "SELECT count(*) FROM parental_consents WHERE household_id = {household} AND used_at IS NULL") ?? 0
            if unused >= configuration.maximumMembersPerHousehold {
                throw ServiceError(.conflict, reason: .limitReached, "This household has \(unused) unused consents. Add the children they were given for first.")
            }
            try scope.execute(
                """
                INSERT INTO parental_consents (id, household_id, consented_by, method, path, attestation, terms_version, consented_at)
                VALUES (?, {household}, ?, ?, ?, ?, ?, ?)
                """,
                [consentID, access.userID, method.rawValue, path.rawValue, statement!, termsVersion, now])
            try analytics.record(
                .childConsentCaptured, actorID: access.userID, householdID: access.householdID,
                properties: ["consentRef": analytics.reference(consentID), "path": path.rawValue], at: now, in: database)
            return ConsentReference(householdID: access.householdID, consentID: consentID)
        }
        // A replay answers the consent it stored, whose household may have been deleted since.
        return try await Tombstones.answer(about: recorded.consentID, viewer: viewer, in: pool) {
            try await pool.readPreferringCallingThread { database in
                let scope = try HouseholdScope.check(viewer: viewer, householdID: recorded.householdID, requiring: .admin, in: database)
                guard let consent = try scope.decodeOne(
                    ParentalConsentRecord.self,
                    "SELECT \(ParentalConsentRecord.columns) FROM parental_consents WHERE id = ? AND household_id = {household}",
                    [recorded.consentID])
                else { throw ServiceError.householdNotFound }
                return consent
            }
        }
    }

    /// The consent a `recordParentalConsent` result names, as ``MutationReplay`` stores it.
    private struct ConsentReference: Codable {
        var householdID: String
        var consentID: String
    }

    /// The consent `consentID` of the household of `scope`, when it may admit a member of
    /// `kind`: unused, and on the path of that kind. Every path that gives a member a consent
    /// goes through here, which is what keeps a consent to its own household (a trigger did
    /// until migration 0010).
    /// - Throws: `BAD_USER_INPUT` on `input.consentId`: `UNKNOWN_VALUE` when no such consent
    ///   is in that household, `NOT_ALLOWED` when it is used or on the other path.
    private func usableConsent(_ consentID: String, for kind: MemberKind, _ scope: HouseholdScope) throws -> ParentalConsentRecord {
        func refused(_ reason: FieldProblem.Reason, _ message: String) -> ServiceError {
            ServiceError.invalid(InputProblems([FieldProblem(field: "input.consentId", reason: reason, message: message)]))
        }
        guard GlobalID.mayName(.parentalConsent, consentID), let consent = try scope.decodeOne(
            ParentalConsentRecord.self,
            "SELECT \(ParentalConsentRecord.columns) FROM parental_consents WHERE id = ? AND household_id = {household}",
            [consentID])
        else { throw refused(.unknownValue, "No such parental consent in this household. Record the consent first.") }
        if consent.usedAt != nil {
            throw refused(.notAllowed, "This consent was already used for a member; each consent serves one child. Record a new one.")
        }
        if consent.path.memberKind != kind {
            throw refused(.notAllowed, consent.path == .ownAccount
                ? "This consent is for a child with their own login (kind CHILD), not a supervised member."
                : "This consent is for a supervised member (kind SHADOW), not a child with their own login.")
        }
        return consent
    }

    /// Marks `consent` used by the member being added or updated, in the caller's transaction.
    private func use(_ consent: ParentalConsentRecord, at now: Date, _ scope: HouseholdScope) throws {
        try scope.execute("UPDATE parental_consents SET used_at = ? WHERE id = ? AND household_id = {household}", [now, consent.id])
    }

    // MARK: - Adding children and shadows

    /// What `addMember` is given.
    public struct NewMember: Sendable {
        /// ``MemberKind/child`` or ``MemberKind/shadow``; adults are invited instead.
        public var kind: MemberKind
        /// The name shown in the household, 1–80 characters after trimming.
        public var displayName: String
        /// The age in years (0–130); `nil` when unknown, which counts as under 13.
        public var age: Int?
        /// The consent from ``recordParentalConsent(householdID:method:path:attestation:termsVersion:viewer:)``;
        /// needed under 13 or when `age` is `nil`, used (and so spent) whenever given.
        public var consentID: String?
        /// The id the client made for the member offline (`mem_<uuid>`, ``ClientIDs``); the server makes one when absent.
        public var id: String?

        /// Creates the request.
        public init(kind: MemberKind, displayName: String, age: Int? = nil, consentID: String? = nil, id: String? = nil) {
            self.id = id
            self.kind = kind
            self.displayName = displayName
            self.age = age
            self.consentID = consentID
        }
    }

    /// Adds a child or shadow to `householdID` without an invitation (FR-ONBOARD-3): an active
    /// member without an account, role member. Admins only. See the type's discussion for the
    /// consent gate.
    /// - Throws: `BAD_USER_INPUT` (kind not child or shadow, name, age outside 0–130, and the
    ///   consent problems), `CONSENT_REQUIRED`, `NOT_FOUND`, `FORBIDDEN`, `CONFLICT` at the
    ///   members-per-household limit or for a reused `clientMutationID`; for `request.id`, as
    ///   ``ClientIDs/claim(_:_:field:_:at:)`` (the same id again answers the first member).
    public func addMember(
        householdID: String, _ request: NewMember, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> AccessibleMember {
        var problems = ProblemCollector()
        if request.kind.isAdult {
            problems.add(FieldProblem(
                field: "input.kind", reason: .notAllowed,
                message: "Adults join by invitation: use inviteMember or inviteCoParent. Add only CHILD or SHADOW members here."))
        }
        let name = problems.check { () throws(FieldProblem) in try DisplayText.name(request.displayName, field: "input.displayName") }
        if let problem = Self.ageProblem(request.age) { problems.add(problem) }
        try problems.throwIfAny()
        let now = clock.storedNow
        let added = try await mutate("addMember", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, requiring: .admin, in: database)
            let access = scope.access
            let memberID: String
            switch try ClientIDs.claim(request.id, .member, OwnerScope(Owner(viewer), database), at: now) {
            case .existing(let made): return MemberReference(householdID: access.householdID, memberID: made)
            case .create(let new): memberID = new
            }
            // Every check before the first write: a refusal stores nothing of the child.
            let consent = try request.consentID.map { try usableConsent($0, for: request.kind, scope) }
            if consent == nil, ChildAge.needsConsent(kind: request.kind, age: request.age) {
                throw ServiceError.consentRequired
            }
            try ensureRoomForAnotherMember(scope)
            if let consent { try use(consent, at: now, scope) }
            try scope.execute(
                """
                INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, age, consent_id, joined_at, updated_at)
                VALUES (?, {household}, NULL, ?, 'member', 'active', ?, ?, ?, ?, ?)
                """,
                [memberID, request.kind.rawValue, name!, request.age, consent?.id, now, now])
            try record(.memberJoined, HouseholdChange(householdID: access.householdID, memberID: memberID), in: database)
            try analytics.record(
                .memberInvited, actorID: access.userID, householdID: access.householdID,
                properties: ["kind": request.kind.rawValue], at: now, in: database)
            return MemberReference(householdID: access.householdID, memberID: memberID)
        }
        return try await accessibleMember(added, viewer: viewer)
    }

    /// Refuses a new member beyond the members-per-household limit (invited ones count,
    /// departed ones do not).
    private func ensureRoomForAnotherMember(_ scope: HouseholdScope) throws {
        let count = try MemberRecord.countPresent(scope)
        if count >= configuration.maximumMembersPerHousehold {
            throw ServiceError(.conflict, reason: .limitReached, "This household has \(count) members, the most allowed. Remove one first.")
        }
    }

    /// The problem with `age` on `input.age`, if it is outside 0–130.
    private static func ageProblem(_ age: Int?) -> FieldProblem? {
        guard let age, !(0...ChildAge.maximum).contains(age) else { return nil }
        return FieldProblem(field: "input.age", reason: .outOfRange, message: "An age is between 0 and \(ChildAge.maximum).")
    }

    // MARK: - Editing members

    /// Edits member `memberID`: anyone their own display name; admins the display name of any
    /// member without an account of their own, and the age of children and shadows. Making a
    /// child or shadow younger than 13 (or their age unknown) when they have no consent needs
    /// `consentID`, which is then used for them.
    /// - Parameters:
    ///   - displayName: The new name; `nil` keeps it.
    ///   - age: `nil` keeps the age, `.some(nil)` makes it unknown, `.some(n)` sets it.
    ///   - consentID: A consent for a member who has none; refused for a member who has one.
    /// - Throws: `BAD_USER_INPUT` (name, age outside 0–130, an age for an adult, the consent
    ///   problems of ``addMember(householdID:_:viewer:clientMutationID:)``; `input.memberId` for one
    ///   who has left), `CONSENT_REQUIRED`,
    ///   `NOT_FOUND` (no such member in the caller's households), `FORBIDDEN` (someone else's
    ///   account, or not an admin), `CONFLICT` for a reused `clientMutationID`.
    public func updateMember(
        id memberID: String, displayName: String? = nil, age: Int?? = nil, consentID: String? = nil, viewer: Viewer,
        clientMutationID: String? = nil
    ) async throws -> AccessibleMember {
        var problems = ProblemCollector()
        let name = displayName.flatMap { given in
            problems.check { () throws(FieldProblem) in try DisplayText.name(given, field: "input.displayName") }
        }
        if case .some(let newAge) = age, let problem = Self.ageProblem(newAge) { problems.add(problem) }
        try problems.throwIfAny()
        let now = clock.storedNow
        let updated = try await mutate("updateMember", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let scope = try HouseholdScope.check(viewer: viewer, owning: .members, id: memberID, notFound: .memberNotFound, in: database)
            let access = scope.access
            let member = try MemberRecord.findPresent(id: memberID, scope)
            let isOwnRecord = member.id == access.memberID
            guard isOwnRecord || (access.isAdmin && member.userID == nil) else {
                throw access.isAdmin
                    ? ServiceError(.forbidden, "Members with an account edit their own name.")
                    : ServiceError(.forbidden, reason: .adminsOnly, "Only the household's admins can edit other members.")
            }
            let ageIsEditable = !member.kind.isAdult && !isOwnRecord
            if age != nil, !ageIsEditable {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.age", reason: .notAllowed,
                    message: "Only an admin sets an age, and only a child's or a supervised member's.")]))
            }
            var consent: ParentalConsentRecord?
            if let consentID, consentID != member.consentID {
                guard ageIsEditable, member.consentID == nil else {
                    throw ServiceError.invalid(InputProblems([FieldProblem(
                        field: "input.consentId", reason: .notAllowed,
                        message: "This member needs no new consent.")]))
                }
                consent = try usableConsent(consentID, for: member.kind, scope)
            }
            let newAge = age ?? member.age
            if member.consentID == nil, consent == nil, ChildAge.needsConsent(kind: member.kind, age: newAge) {
                throw ServiceError.consentRequired
            }
            if let consent { try use(consent, at: now, scope) }
            try scope.execute(
                """
                UPDATE members SET display_name = ?, age = ?, consent_id = ?, updated_at = ?
                WHERE id = ? AND household_id = {household}
                """,
                [name ?? member.displayName, newAge, consent?.id ?? member.consentID, now, member.id])
            try record(
                .memberUpdated, HouseholdChange(householdID: access.householdID, memberID: member.id, userID: member.userID),
                in: database)
            return MemberReference(householdID: access.householdID, memberID: member.id)
        }
        return try await accessibleMember(updated, viewer: viewer)
    }
}

extension ServiceError {
    /// A child or shadow under 13, or of unknown age, without a parental consent.
    public static let consentRequired = ServiceError(
        .consentRequired,
        "A child under 13, or whose age is not given, needs a parent's verifiable consent first: record it with recordParentalConsent and pass its id as consentId.")
}
