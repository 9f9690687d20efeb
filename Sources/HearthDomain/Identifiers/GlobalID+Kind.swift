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
    /// | `usr` | user (`User`) | | `chr` | chore |
    /// | `ses` | session (`Session`) | | `chi` | chore instance (one occurrence) |
    /// | `avt` | avatar (served at `/avatars/<id>`) | | `cmp` | chore completion |
    /// | `hh` | household (`Household`) | | `hab` | habit |
    /// | `mem` | member (`Member`) | | `hev` | habit event |
    /// | `inv` | invitation (`Invitation`) | | `pho` | photo |
    /// | `cns` | parental consent (`ParentalConsent`) | | `fol` | follow |
    /// | `dep` | member departure record | | `shr` | share |
    /// | `rwd` | reward (`Reward`) | | | |
    /// | `rdm` | request for a reward (`RewardRedemption`) | | | |
    /// | `led` | token ledger entry (`TokenLedgerEntry`) | | | |
    /// | | | | `psh` | push subscription |
    /// | | | | `ntf` | notification |
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
        /// A reward of a household's store (`rewards`).
        case reward = "rwd"
        /// A member's request for a reward (`reward_redemptions`).
        case redemption = "rdm"
        /// One entry of a member's token ledger (`token_ledger`).
        case ledgerEntry = "led"

        /// Whether objects of this kind may have a bare-UUID id, issued before ids carried their
        /// type (every kind that existed then). A kind added later has none, so a bare UUID is
        /// never looked up in its table.
        public var mayHaveLegacyIDs: Bool {
            switch self {
            case .user, .session, .avatar, .household, .member, .invitation, .parentalConsent, .memberDeparture: true
            case .reward, .redemption, .ledgerEntry: false
            }
        }
    }
}
