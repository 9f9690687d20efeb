extension GlobalID {
    /// The type of object a ``GlobalID`` names, spelled as the id's prefix (its raw value).
    ///
    /// Prefixes are short, lowercase ASCII letters, unique, and **stable forever**: ids are
    /// stored with their prefix and clients keep them, so a prefix is never renamed, reused
    /// for another type, or removed while objects of its type may exist. A new stored type
    /// adds a case with a new prefix.
    ///
    /// | prefix | type | | prefix | type (reserved for the issues that add it) |
    /// |---|---|---|---|---|
    /// | `usr` | user (`User`) | | | |
    /// | `ses` | session (`Session`) | | | |
    /// | `avt` | avatar (served at `/avatars/<id>`) | | | |
    /// | `hh` | household (`Household`) | | | |
    /// | `mem` | member (`Member`) | | | |
    /// | `inv` | invitation (`Invitation`) | | | |
    /// | `cns` | parental consent (`ParentalConsent`) | | | |
    /// | `dep` | member departure record | | | |
    /// | `chr` | chore (`Chore`) | | |
    /// | `stp` | step of a chore (`ChoreStep`) | | |
    /// | `tag` | tag (`Tag`) | | |
    /// | `prs` | chore preset (`ChorePreset`) | | |
    /// | `chi` | chore instance (`ChoreInstance`, derived: ``ChoreInstanceID``) | | |
    /// | `cmp` | chore completion (`ChoreCompletion`) | | |
    /// | `rwd` | reward (`Reward`) | | | |
    /// | `rdm` | request for a reward (`RewardRedemption`) | | | |
    /// | `led` | token ledger entry (`TokenLedgerEntry`) | | | |
    /// | `vac` | a member's vacation (`Vacation`) | | | |
    /// | `shr` | share of personal chores (`ChoreShare`) | | | |
    /// | `hab` | habit (`Habit`) | | | |
    /// | `hev` | habit event (`HabitEvent`) | | | |
    /// | `pho` | photo of a habit event (`HabitPhoto`) | | | |
    /// | `fol` | follow between two users (`Follow`) | | | |
    /// | `psh` | Web Push subscription (`PushSubscription`) | | | |
    /// | `icl` | calendar imported from an .ics file (`ImportedCalendar`) | | | |
    /// | `iev` | event of an imported calendar (`ImportedEvent`) | | | |
    /// | `ntf` | notification (`Notification`) | | | |
    /// | `avl` | a user's availability event (`AvailabilityEvent`) | | | |
    /// | | | | `job` | scheduled job |
    ///
    /// The reserved prefixes are not cases yet: an id with one is malformed until its type
    /// exists. Pick new prefixes outside both columns.
    public enum Kind: String, CaseIterable, Sendable {
        /// An account (`users`).
        case user = "usr"
        /// A signed-in device (`sessions`).
        case session = "ses"
        /// A profile picture (`avatars`).
        case avatar = "avt"
        /// A household (`households`).
        case household = "hh"
        /// A person in a household, joined or invited (`members`).
        case member = "mem"
        /// A pending invitation (`invitations`).
        case invitation = "inv"
        /// A verifiable parental consent record (`parental_consents`).
        case parentalConsent = "cns"
        /// The record of a member leaving or being removed (`member_departures`).
        case memberDeparture = "dep"
        /// A chore definition, of a household or personal (`chores`).
        case chore = "chr"
        /// One named step of a multi-step chore (`chore_steps`).
        case choreStep = "stp"
        /// A tag of a household or of one user's personal chores (`tags`).
        case tag = "tag"
        /// A chore preset: built into the binary, or saved by a household (`chore_presets`).
        case chorePreset = "prs"
        /// One occurrence of a chore, for one member or shared (`chore_instances`); its id is
        /// derived from the chore, the occurrence and the member (``ChoreInstanceID``).
        case choreInstance = "chi"
        /// A completion of a chore instance or of one of its steps (`chore_completions`).
        case choreCompletion = "cmp"
        /// A reward of a household's store (`rewards`).
        case reward = "rwd"
        /// A member's request for a reward (`reward_redemptions`).
        case redemption = "rdm"
        /// One entry of a member's token ledger (`token_ledger`).
        case ledgerEntry = "led"
        /// One member's vacation from one household (`member_vacations`).
        case vacation = "vac"
        /// A share of personal chores with an account or a household (`chore_shares`).
        case choreShare = "shr"
        /// A user's habit with its weekly plan (`habits`).
        case habit = "hab"
        /// One doing of a habit, with optional comment, photo and place (`habit_events`).
        case habitEvent = "hev"
        /// A photo of a habit event (`habit_photos`, served at `/habit-photos/<id>`).
        case habitPhoto = "pho"
        /// One user following another, requested or accepted (`follows`).
        case follow = "fol"
        /// A push subscription: a browser's Web Push subscription (`push_subscriptions`) or a native app's FCM registration (`fcm_registrations`).
        case pushSubscription = "psh"
        /// A calendar a user imported from an .ics file (`imported_calendars`).
        case importedCalendar = "icl"
        /// One event (or override of an occurrence) of an imported calendar (`imported_events`).
        case importedEvent = "iev"
        /// A notice made for one user: a reminder, a chore assigned or changed (`notifications`).
        case notification = "ntf"
        /// A user's busy or free time, single or recurring (`availability_events`).
        case availabilityEvent = "avl"
        /// A user's connection to their Google Calendar account (FR-62).
        case googleConnection = "gco"
        /// A home-screen widget's credential (`widget_tokens`, FR-65).
        case widgetToken = "wgt"

        /// Whether objects of this kind may have a bare-UUID id, issued before ids carried their
        /// type (every kind that existed then). A kind added later has none, so a bare UUID is
        /// never looked up in its table.
        public var mayHaveLegacyIDs: Bool {
            switch self {
            case .user, .session, .avatar, .household, .member, .invitation, .parentalConsent, .memberDeparture: true
            case .chore, .choreStep, .tag, .chorePreset, .choreInstance, .choreCompletion: false
            case .reward, .redemption, .ledgerEntry: false
            case .vacation: false
            case .choreShare: false
            case .habit, .habitEvent, .habitPhoto, .follow: false
            case .pushSubscription, .importedCalendar, .importedEvent, .notification, .availabilityEvent, .googleConnection: false
            case .widgetToken: false
            }
        }
    }
}
