import HearthDomain

/// Why a service operation (accounts, households, onboarding) was refused. ``code`` is what clients branch on (it becomes the
/// GraphQL `extensions.code`); the message is for people and never contains a secret.
public struct ServiceError: Error, Sendable, Equatable {
    /// The outcome, to branch on.
    public enum Code: String, Sendable, Equatable {
        /// The operation needs a signed-in user, or the credentials presented are not valid.
        case unauthenticated = "UNAUTHENTICATED"
        /// The signed-in user may not do this.
        case forbidden = "FORBIDDEN"
        /// Input failed validation (``ServiceError/problems`` says where).
        case badUserInput = "BAD_USER_INPUT"
        /// The username or email address belongs to another account, or the change conflicts
        /// with the account's state.
        case conflict = "CONFLICT"
        /// Too many attempts; ``ServiceError/retryAfter`` says when to try again.
        case rateLimited = "RATE_LIMITED"
        /// The object does not exist or is not the caller's.
        case notFound = "NOT_FOUND"
        /// The account's email address must be confirmed first.
        case emailNotConfirmed = "EMAIL_NOT_CONFIRMED"
        /// A service the operation depends on (an identity provider's signing keys) cannot be
        /// reached; retrying later may succeed.
        case unavailable = "UNAVAILABLE"
        /// The server's terms of service changed (or were never accepted): read them with
        /// `terms` and accept them with `acceptTerms` before anything else.
        case termsAcceptanceRequired = "TERMS_ACCEPTANCE_REQUIRED"
        /// Adding a child under 13 (or of unknown age) needs a verifiable parental consent
        /// record first (`recordParentalConsent`).
        case consentRequired = "CONSENT_REQUIRED"
        /// The operation changes how the account is secured and needs recent proof of who the
        /// caller is (``ServiceError/methods`` says which proofs are accepted): a stolen access
        /// token alone must not be enough.
        case reauthenticationRequired = "REAUTHENTICATION_REQUIRED"
        /// A resume cursor older than the change log keeps (`--retain-change-log`): changes
        /// after it were pruned, so the client fetches the current state again and continues
        /// from that state's cursor.
        case cursorExpired = "CURSOR_EXPIRED"
    }

    /// Finer detail for `unauthenticated` and token errors, to branch on when it matters
    /// (a client refreshes on `TOKEN_EXPIRED` but signs out on `SESSION_REVOKED`).
    public enum Reason: String, Sendable, Equatable {
        /// Email or password wrong (never says which).
        case invalidCredentials = "INVALID_CREDENTIALS"
        /// The server's administrator disabled the account (`hearth admin disable`): it cannot
        /// sign in or refresh until it is enabled again.
        case accountDisabled = "ACCOUNT_DISABLED"
        /// No credentials were presented.
        case signedOut = "SIGNED_OUT"
        /// The access token is past its `exp`: refresh it.
        case tokenExpired = "TOKEN_EXPIRED"
        /// The token is malformed, forged or from another server.
        case tokenInvalid = "TOKEN_INVALID"
        /// The access token was replaced by a refresh.
        case tokenSuperseded = "TOKEN_SUPERSEDED"
        /// The session was signed out, revoked, or ended by a password reset.
        case sessionRevoked = "SESSION_REVOKED"
        /// The session reached its end.
        case sessionExpired = "SESSION_EXPIRED"
        /// A refresh token was presented after it had been spent: the session is revoked.
        case refreshTokenReused = "REFRESH_TOKEN_REUSED"
        /// An emailed link's token is unknown, spent or expired.
        case linkInvalid = "LINK_INVALID"
        /// Sign-in with this provider is not configured on this server.
        case providerDisabled = "PROVIDER_DISABLED"
        /// The provider's ID token does not verify (signature, issuer, audience, lifetime or nonce).
        case providerTokenInvalid = "PROVIDER_TOKEN_INVALID"
        /// The provider's signing keys could not be fetched.
        case providerUnavailable = "PROVIDER_UNAVAILABLE"
        /// The provider did not vouch for an email address, so no account can be created from it.
        case providerEmailUnverified = "PROVIDER_EMAIL_UNVERIFIED"
        /// The provider identity is already linked to another account.
        case identityLinkedElsewhere = "IDENTITY_LINKED_ELSEWHERE"
        /// The account already has an identity of this provider (unlink it first).
        case providerAlreadyLinked = "PROVIDER_ALREADY_LINKED"
        /// Removing this sign-in method would leave the account with no way to sign in.
        case lastSignInMethod = "LAST_SIGN_IN_METHOD"
        /// The household would be left without an admin: promote another member first.
        case lastAdmin = "LAST_ADMIN"
        /// The person is already a member of the household.
        case alreadyMember = "ALREADY_MEMBER"
        /// `CONFLICT`: an invitation to this address is already waiting for an answer: send it
        /// again (`resendInvitation`) instead.
        case alreadyInvited = "ALREADY_INVITED"
        /// The invitation was sent to another address than the signed-in account's.
        case invitationForAnotherAddress = "INVITATION_FOR_ANOTHER_ADDRESS"
        /// The invitation is past its expiry: ask for it to be sent again.
        case invitationExpired = "INVITATION_EXPIRED"
        /// `FORBIDDEN`: this server admits no new accounts (`--registration closed`).
        case registrationClosed = "REGISTRATION_CLOSED"
        /// `FORBIDDEN`: this server admits new accounts by invitation only (`--registration
        /// invite-only`) and none was presented.
        case invitationRequired = "INVITATION_REQUIRED"
        /// The `clientMutationId` was already used by this user for a different mutation.
        case clientMutationIdReused = "CLIENT_MUTATION_ID_REUSED"
        /// `FORBIDDEN` by the household's chore-creation policy (FR-25): the caller is neither an
        /// admin nor admitted by it.
        case choreCreationPolicy = "CHORE_CREATION_POLICY"
        /// `FORBIDDEN` by a chore's editors rule (FR-25): the caller is neither an admin nor admitted by it.
        case choreEditors = "CHORE_EDITORS"
        /// `FORBIDDEN` because only the household's admins may do this: whatever needs the admin
        /// role (``ServiceError/adminsOnly``), and for chores setting permission rules, deleting
        /// chores, managing tags, saving presets, deciding completions, undoing another's.
        case adminsOnly = "ADMINS_ONLY"
        /// `FORBIDDEN` by a chore's (or step's) completion rule (FR-25, FR-26): the member is
        /// neither an admin, nor assigned, nor admitted by it; or a completion recorded for a child
        /// by someone who may not complete the chore themselves.
        case choreCompleters = "CHORE_COMPLETERS"
        /// `CONFLICT`: the step is locked until the step before it is done (FR-38).
        case stepLocked = "STEP_LOCKED"
        /// `CONFLICT`: the chore instance was archived (a one-off chore past its due day): it can no
        /// longer be completed. An instance of a deleted chore answers `NOT_FOUND` with reason
        /// ``deleted`` instead (deletes win).
        case instanceClosed = "INSTANCE_CLOSED"
        /// `CONFLICT`: nothing of the chore instance is completed, so there is nothing to undo.
        case notCompleted = "NOT_COMPLETED"
        /// `FORBIDDEN`: the completion is older than the undo window; only admins may undo it now.
        case undoWindowPassed = "UNDO_WINDOW_PASSED"
        /// `CONFLICT`: the change would take a member's token balance below zero (a reward
        /// costing more than they have, a payout or correction of more than they have).
        case insufficientTokens = "INSUFFICIENT_TOKENS"
        /// `CONFLICT`: the reward's stock is used up.
        case outOfStock = "OUT_OF_STOCK"
        /// `CONFLICT`: the request or completion was already approved or rejected (or needs no
        /// approval).
        case alreadyReviewed = "ALREADY_REVIEWED"
        /// `FORBIDDEN`: the reward is only for some members, and not for this one.
        case notEligible = "NOT_ELIGIBLE"
        /// `FORBIDDEN` by who may ask for a reward for someone else: admins for anyone, adults
        /// (parents, co-parents) for a child or supervised member only.
        case redeemForOthers = "REDEEM_FOR_OTHERS"
        /// `CONFLICT`: a configured limit is reached: a user's households; a household's members
        /// (invitations included), pending invitations, unused parental consents, chores, tags,
        /// presets and offered rewards (or those of the owner's personal chores); a member's
        /// pending reward requests. The message says which; removing one (or waiting for a
        /// decision) makes room.
        case limitReached = "LIMIT_REACHED"
        /// `CONFLICT`: someone claimed the chore instance first (FR-52); ``ServiceError/related``
        /// names the claimant (`claimant`: `id`, `displayName`).
        case alreadyClaimed = "ALREADY_CLAIMED"
        /// `FORBIDDEN`: another member claimed the chore instance; only they (or an admin) complete
        /// or release it. ``ServiceError/related`` names the claimant.
        case claimedByOther = "CLAIMED_BY_OTHER"
        /// `CONFLICT`: nobody claimed the chore instance, so there is nothing to release.
        case notClaimed = "NOT_CLAIMED"
        /// `CONFLICT`: the chore instance is not one to claim: a personal chore's, or one member's
        /// own instance of a `GROUP` or `ALL_MEMBERS` chore.
        case notClaimable = "NOT_CLAIMABLE"
        /// `CONFLICT`: the chore instance is done (or waits for approval): there is nothing left to claim.
        case alreadyCompleted = "ALREADY_COMPLETED"
        /// `CONFLICT`: the chore instance is paused while the member it is for is away (vacation mode,
        /// FR-22): nobody claims it until it resumes (it may still be completed).
        case instancePaused = "INSTANCE_PAUSED"
        /// `CONFLICT`: the caller is on vacation from the chore's household (FR-19): they hold
        /// nothing there meanwhile, so they claim nothing (they may still complete).
        case memberAway = "MEMBER_AWAY"

        // Sharing personal chores (FR-40 – FR-42).
        /// `FORBIDDEN`: the chore is shared with the caller, read-only: only its owner edits,
        /// completes, claims or deletes it.
        case sharedReadOnly = "SHARED_READ_ONLY"

        // Following (US 05).
        /// `CONFLICT`: the caller already follows the user they asked to follow.
        case alreadyFollowing = "ALREADY_FOLLOWING"
        /// `CONFLICT`: the caller already asked to follow the user, who has not answered yet.
        case alreadyRequested = "ALREADY_REQUESTED"

        // Offline clients (issue 17).
        /// `NOT_FOUND`: the object was deleted (on this device or another) and the caller could
        /// see it: deletes win over edits, so the client drops the change (``Tombstones``).
        case deleted = "DELETED"
    }

    /// The outcome.
    public var code: Code
    /// The detail, when there is one.
    public var reason: Reason?
    /// A sentence for the user.
    public var message: String
    /// Field problems, for `badUserInput` and `conflict` on a field.
    public var problems: [FieldProblem] = []
    /// Objects the error names, by their part in it (`claimant` for ``Reason/alreadyClaimed``):
    /// each as string fields such as `id` and `displayName`, so a client can act without parsing
    /// the message.
    public var related: [String: [String: String]] = [:]
    /// Seconds until a retry may succeed, for `rateLimited`.
    public var retryAfter: Int?
    /// For `reauthenticationRequired`: the sign-in methods whose fresh proof is accepted
    /// (`PASSWORD`: the current password; a provider: a fresh ID token of the linked identity,
    /// or signing in again with it).
    /// The limit a refusal is about, where a client may show it (a photo's most bytes for
    /// `TOO_LARGE`): `extensions.limit`.
    public var limit: Int?
    /// The line of an uploaded file at fault (a calendar file's), counting from 1: `extensions.line`.
    public var line: Int?
    public var methods: [SignInMethod] = []

    /// Creates an error.
    public init(_ code: Code, reason: Reason? = nil, _ message: String, problems: [FieldProblem] = [], retryAfter: Int? = nil) {
        self.code = code
        self.reason = reason
        self.message = message
        self.problems = problems
        self.retryAfter = retryAfter
    }

    /// Invalid input, from the problems found.
    public static func invalid(_ problems: InputProblems) -> ServiceError {
        ServiceError(.badUserInput, problems[0].message, problems: problems.problems)
    }

    /// No signed-in user.
    public static let signedOut = ServiceError(.unauthenticated, reason: .signedOut, "Sign in to do this.")

    /// Wrong email or password, worded the same for both.
    public static let invalidCredentials = ServiceError(
        .unauthenticated, reason: .invalidCredentials, "The email address or password is not correct.")

    /// The account was disabled by the server's administrator: told only to whoever proved
    /// the account's credentials (a right password, a provider's token, a refresh token).
    public static let accountDisabled = ServiceError(
        .unauthenticated, reason: .accountDisabled, "This account is disabled. Ask the administrator of this server.")

    /// An emailed link that does not work (any reason: unknown, used, expired).
    public static let linkInvalid = ServiceError(
        .badUserInput, reason: .linkInvalid, "This link is no longer valid. Ask for a new one.")

    /// Recent authentication is missing: prove it with one of `methods`.
    public static func reauthenticationRequired(_ methods: [SignInMethod], _ message: String) -> ServiceError {
        var error = ServiceError(.reauthenticationRequired, message)
        error.methods = methods
        return error
    }

    /// Too many attempts.
    public static func rateLimited(retryAfter seconds: Double) -> ServiceError {
        let whole = max(1, Int(seconds.rounded(.up)))
        return ServiceError(.rateLimited, "Too many attempts. Try again in \(whole) seconds.", retryAfter: whole)
    }
}

extension InputProblems {
    fileprivate subscript(index: Int) -> FieldProblem { problems[index] }
}
