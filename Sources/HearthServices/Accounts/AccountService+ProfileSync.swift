import HearthStore

extension AccountService {
    /// Records, for offline sync, that the owner's name or picture changed, in the caller's
    /// transaction: on their own topic touching their account, and on the topic of the other user
    /// of each of their follows touching that follow (a `Follow` shows both users; the account
    /// itself is no node anyone else may read, so it is named only on the owner's topic). The
    /// households' member objects are recorded by `member.updated` (``recordMemberUpdates``).
    static func recordProfileUpdate(of owner: OwnerScope, on changeLog: ChangeLog) throws {
        let userID = owner.key.userID
        let update = ProfileUpdate(userID: userID)
        try changeLog.record(topic: .user(userID), kind: .userProfileUpdated, payload: update, touching: [userID], in: owner.database)
        let follows = try owner.query(
            "SELECT id, follower_id, followed_id FROM follows WHERE follower_id = {owner} OR followed_id = {owner} ORDER BY id")
        for row in follows {
            let followerID: String = try row["follower_id"], followedID: String = try row["followed_id"]
            try changeLog.record(
                topic: .user(followerID == userID ? followedID : followerID), kind: .userProfileUpdated, payload: update,
                touching: [try row["id"]], in: owner.database)
        }
    }
}
