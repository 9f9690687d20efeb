/// Where an event is published and what a subscriber listens to: a household, a user,
/// or the server itself.
///
/// A topic is its string ``key`` (`household:<id>`, `user:<id>`, `followers:<id>`,
/// `share:<id>`, `server`), so it is
/// stored as-is in the change log and can travel through systems that only know
/// strings, such as a PostgreSQL `NOTIFY` payload.
public struct Topic: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The topic's stable text form.
    public let key: String

    /// A topic from its key, as stored in the change log or received from another instance.
    public init(key: String) {
        self.key = key
    }

    /// Changes to one household: its members, chores, claims, leaderboard.
    public static func household(_ id: String) -> Topic {
        Topic(key: "household:" + id)
    }

    /// Changes that concern one user wherever they happen: notifications, their devices, their
    /// follows, their private habits, their personal chores.
    public static func user(_ id: String) -> Topic {
        Topic(key: "user:" + id)
    }

    /// Changes one user shows their accepted followers, and sees themselves: their habits visible
    /// to followers and those habits' events (a habit made private is recorded here once more, so
    /// followers learn it is gone). Offline sync reads it for the owner and each follower.
    public static func followers(_ userID: String) -> Topic {
        Topic(key: "followers:" + userID)
    }

    /// Changes one share of personal chores shows its recipients (FR-40 – FR-42): the share, and
    /// the changes of the chores it covers, their instances and completions, each recorded here
    /// once more besides on the owner's topic (``ShareSyncScopes``). Offline sync reads it for every
    /// account the share reaches; its owner reads their own topic instead.
    public static func share(_ shareID: String) -> Topic {
        Topic(key: "share:" + shareID)
    }

    /// Events about the server process: started, heartbeats.
    public static let server = Topic(key: "server")

    public var description: String { key }

    public static func < (lhs: Topic, rhs: Topic) -> Bool {
        lhs.key < rhs.key
    }
}
