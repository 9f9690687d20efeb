/// The account whose own objects an ``OwnerScope`` reaches: rows that belong to a user rather than
/// to a household (tables with `user_id`: sessions, emailed tokens, provider identities, mutation
/// replays, terms acceptances, avatars, the active household, a user's own memberships; personal
/// chores, habits, follows and shares next).
///
/// Made from proof of who the account is: a ``Viewer`` (an authenticated request) or the access
/// checked for one, a member record read through a household's scope (whose account an admin's
/// change concerns), or, inside the accounts service, the account a credential has just proved
/// (``init(authenticated:)``), or the owner of rows the server's scheduled work handles
/// (``init(scheduledWorkOf:)``). Never from an id a client sent.
struct Owner: ScopeKey, Sendable, Hashable {
    static let marker = "{owner}"
    static let statements = ScopedStatements(marker: marker)

    /// The account.
    let userID: String

    var scopeValue: String { userID }

    /// The signed-in viewer's account.
    init(_ viewer: Viewer) {
        userID = viewer.userID
    }

    /// The account of the viewer `access` was checked for.
    init(_ access: HouseholdAccess) {
        userID = access.userID
    }

    /// The account of `member`, a member of a household the caller has access to; `nil` for a
    /// member without one.
    init?(accountOf member: MemberRecord) {
        guard let userID = member.userID else { return nil }
        self.userID = userID
    }

    /// The account a credential has just proved (a password, a provider's identity token, a
    /// refresh token, an emailed link's token), or one the accounts service found by a verified
    /// address for mail to that address (a password reset request, the sign-in methods a
    /// provider's verified address may learn): for the steps before a viewer exists. Also the
    /// caller's own account as the API shows it (a `User` that is the viewer, or that the
    /// request's credential proved), for the fields only its owner sees.
    init(authenticated userID: String) {
        self.userID = userID
    }

    /// The owner of personal chores shared with the viewer, read from the chore or share row that
    /// ``ChoreShares``' check found shared with them: their rows are read (never written) for the
    /// viewer, one shared chore at a time.
    init(sharing userID: String) {
        self.userID = userID
    }

    /// An account a share of personal chores may reach, read from the share's row (its recipient)
    /// or its household's members: to check the sharing rule (``ChoreShares``) for it when offline
    /// sync records the scopes it gains or loses (``ShareSyncScopes``). Nothing is read for it.
    init(shareRecipient userID: String) {
        self.userID = userID
    }

    /// The owner of rows the server's scheduled work handles, read from the row or from the job
    /// written for it: personal chores it plans (their instances), calendar feeds it refreshes. Work
    /// with no viewer, done for the account that owns the rows.
    init(scheduledWorkOf userID: String) {
        self.userID = userID
    }

    /// An account the server's administrator named by its address on the command line
    /// (`hearth admin disable`, ``AccountAdministration``), or the job such a command wrote for
    /// it: whoever runs the binary on the database's machine can read every row anyway.
    init(administered userID: String) {
        self.userID = userID
    }

    /// The account a push is for, read from the push's queued row or job (written when the
    /// push was enqueued for one of the account's subscriptions): delivery has no viewer.
    init(pushRecipient userID: String) {
        self.userID = userID
    }
}

/// The rows one account owns, in one transaction, named in SQL with `{owner}`
/// (`WHERE user_id = {owner}`).
typealias OwnerScope = ScopedDatabase<Owner>
