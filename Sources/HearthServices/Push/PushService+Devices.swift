import HearthStore

extension PushService {
    /// What names one device to a push service: a browser's Web Push endpoint, or an app
    /// install's FCM registration token.
    enum DeviceAddress {
        /// A Web Push subscription's endpoint.
        case webPush(endpoint: String)
        /// An FCM registration token.
        case fcm(token: String)
    }

    /// Removes `address` from every account but `owner`'s, with what was queued for it there
    /// (`push_messages`, `fcm_messages`: their rows cascade), before `owner` registers it.
    ///
    /// A device has one push address however many people sign in on it: when the family's shared
    /// tablet or a phone signs out and another member signs in, the new account registers the same
    /// endpoint or token. Left with the first account, that account's notices (its chores' titles,
    /// claims) would keep reaching the device the next person holds.
    static func releaseFromOtherAccounts(_ address: DeviceAddress, _ owner: OwnerScope) throws {
        switch address {
        case .webPush(let endpoint):
            try owner.execute("DELETE FROM push_subscriptions WHERE endpoint = ? AND user_id <> {owner}", [endpoint])
        case .fcm(let token):
            try owner.execute("DELETE FROM fcm_registrations WHERE token = ? AND user_id <> {owner}", [token])
        }
    }
}
