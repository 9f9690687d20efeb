import FoundationEssentials

/// What a push about a ``Notice`` carries, for Web Push (a JSON object, encrypted) and FCM (the
/// message's `data`): one flat object of string fields, so both channels carry the same fields
/// and an app reads them the same way. At most ``maximumBytes`` as JSON (RFC 8291's plaintext
/// limit, under FCM's 4 KiB): a title too long for it is cut, on a character boundary, with `…`.
///
/// A notice (`type` `notification`): `notificationId`, `kind` (`REMINDER`, `RELEASED`,
/// `ASSIGNED`, `CHANGED`), `tag`, `title`, `body`, `dueAt` (RFC 3339, UTC) and `timeZone` (the
/// household's, or the user's for a personal chore), `householdId` and `householdName`,
/// `choreId`, `instanceId`, `deepLink`, and for a claimable instance the claim action:
/// `claimMutation` (`claimChore`) with `claimInstanceId`. Fields without a value are left out.
///
/// A withdrawal (`type` `dismiss`): `notificationId`, `kind`, `tag`, `instanceId` and
/// `householdId`: close what shows with that tag.
struct PushNoticePayload: Equatable {
    /// The longest payload, in bytes of JSON.
    static let maximumBytes = 3993
    /// What the claim action calls.
    static let claimMutation = "claimChore"

    /// The fields, by name.
    private(set) var fields: [String: String]

    /// The payload announcing `notice`, with its household's `householdName` and the `timeZone` its due time is shown in.
    static func notification(_ notice: Notice, householdName: String?, timeZone: String?) -> PushNoticePayload {
        var fields = common(notice, type: "notification")
        fields["title"] = notice.title
        fields["body"] = notice.body
        fields["dueAt"] = notice.dueAt.map { $0.formatted(.iso8601) }
        fields["timeZone"] = timeZone
        fields["householdName"] = householdName
        fields["choreId"] = notice.choreID
        fields["deepLink"] = notice.deepLink
        if notice.actions.contains(.claim) {
            fields["claimMutation"] = claimMutation
            fields["claimInstanceId"] = notice.instanceID
        }
        var payload = PushNoticePayload(fields: fields)
        payload.fitTitle()
        return payload
    }

    /// The payload withdrawing `notice`.
    static func dismissal(_ notice: Notice) -> PushNoticePayload {
        PushNoticePayload(fields: common(notice, type: "dismiss"))
    }

    private static func common(_ notice: Notice, type: String) -> [String: String] {
        var fields = ["type": type, "notificationId": notice.id, "kind": notice.kind.rawValue.uppercased(), "tag": notice.tag]
        fields["instanceId"] = notice.instanceID
        fields["householdId"] = notice.householdID
        return fields
    }

    /// The payload as JSON, keys sorted.
    var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A dictionary of strings always encodes.
        return (try? encoder.encode(fields)).map(Array.init) ?? []
    }

    /// Cuts the title to its longest prefix of whole characters that, ending with `…`, keeps the
    /// JSON within ``maximumBytes`` (a binary search: escaping makes the bytes per character vary).
    private mutating func fitTitle() {
        guard json.count > Self.maximumBytes, let title = fields["title"] else { return }
        let characters = Array(title)
        var fitting = 0
        var tooLong = characters.count
        while tooLong - fitting > 1 {
            let middle = (fitting + tooLong) / 2
            fields["title"] = String(characters[..<middle]) + "…"
            if json.count <= Self.maximumBytes { fitting = middle } else { tooLong = middle }
        }
        fields["title"] = String(characters[..<fitting]) + "…"
    }
}
