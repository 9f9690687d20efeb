import FoundationEssentials
@testable import HearthServices
import Testing

/// What a push about a notice carries (``PushNoticePayload``): the fields, and the title cut at
/// the 3,993-byte edge.
struct PushNoticePayloadTests {
    private func notice(title: String, kind: NoticeKind = .reminder) -> Notice {
        Notice(
            id: "ntf_0194a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", userID: "u", kind: kind, title: title, body: "Due in 30 minutes.",
            dueAt: Date(timeIntervalSince1970: 1_796_000_400), householdID: "hh_1", choreID: "cho_1", instanceID: "chi_1",
            tag: "0194a1b2c3d47e5f8a9b0c1d2e3f4a5b", createdAt: Date(timeIntervalSince1970: 1_796_000_000))
    }

    private func payload(title: String) -> PushNoticePayload {
        .notification(notice(title: title), householdName: "Flat", timeZone: "Europe/Berlin")
    }

    @Test func aNoticeCarriesItsFieldsAndTheClaimAction() {
        let fields = payload(title: "Dishes").fields
        #expect(fields == [
            "type": "notification", "notificationId": "ntf_0194a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "kind": "REMINDER",
            "tag": "0194a1b2c3d47e5f8a9b0c1d2e3f4a5b", "title": "Dishes", "body": "Due in 30 minutes.", "dueAt": "2026-11-30T01:00:00Z",
            "timeZone": "Europe/Berlin", "householdId": "hh_1", "householdName": "Flat", "choreId": "cho_1", "instanceId": "chi_1",
            "deepLink": "hearth://chore/chi_1", "claimMutation": "claimChore", "claimInstanceId": "chi_1",
        ])
        let assigned = PushNoticePayload.notification(notice(title: "x", kind: .assigned), householdName: nil, timeZone: nil).fields
        #expect(assigned["claimMutation"] == nil && assigned["householdName"] == nil, "no claim for an assignment; no empty fields")
        #expect(PushNoticePayload.dismissal(notice(title: "Dishes")).fields == [
            "type": "dismiss", "notificationId": "ntf_0194a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "kind": "REMINDER",
            "tag": "0194a1b2c3d47e5f8a9b0c1d2e3f4a5b", "instanceId": "chi_1", "householdId": "hh_1",
        ])
    }

    @Test func aTitleIsCutOnlyBeyondTheLimitAndOnACharacterBoundary() throws {
        let overhead = payload(title: "").json.count
        let fitting = String(repeating: "a", count: PushNoticePayload.maximumBytes - overhead)
        #expect(payload(title: fitting).json.count == PushNoticePayload.maximumBytes)
        #expect(payload(title: fitting).fields["title"] == fitting, "exactly at the limit: whole")

        let cut = payload(title: fitting + "a")
        #expect(cut.json.count == PushNoticePayload.maximumBytes, "one byte over: the longest prefix that fits with its ellipsis")
        #expect(cut.fields["title"] == String(fitting.dropLast(3)) + "…", "the 3-byte ellipsis replaces 4 bytes of title")

        // Four-byte characters and escaped quotes: never half a character, never over.
        for title in [String(repeating: "🧹", count: 1200), String(repeating: "\"", count: 2500), String(repeating: "👩‍👩‍👧", count: 300)] {
            let fitted = payload(title: title)
            #expect(fitted.json.count <= PushNoticePayload.maximumBytes && fitted.json.count > PushNoticePayload.maximumBytes - 40, "\(fitted.json.count)")
            let kept = try #require(fitted.fields["title"]).dropLast()
            #expect(title.hasPrefix(kept), "a prefix of whole characters")
            #expect(try JSONDecoder().decode([String: String].self, from: Data(fitted.json)) == fitted.fields, "valid JSON")
        }
    }
}
