import Foundation
import GraphQL
@testable import HearthAPI
import Testing

/// ``HearthSchema/isLiveSubscription(fieldName:arguments:)``, which decides whether a device subscribing
/// after a shared subscription's first response may join it: every `Subscription` field of `schema.graphql`
/// is classified, and the two that replay history (a resumed `choreEvents`, `syncDeltas`) are never joined late.
@Suite struct LiveSubscriptionsTests {
    private static let schema: Schema = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sdl = (try? String(contentsOf: root.appendingPathComponent("schema.graphql"), encoding: .utf8)) ?? ""
        return try! HearthSchema.build(sdl: sdl)
    }()

    @Test func everySubscriptionFieldSaysWhetherItReplays() throws {
        let fields = Set(try #require(Self.schema.subscriptionType).fields.keys)
        #expect(!fields.isEmpty)
        #expect(Set(HearthSchema.subscriptionReplays.keys) == fields)
    }

    @Test func resumedChoreEventsAndSyncDeltasReplayAndTheOthersAreLive() {
        func isLive(_ field: String, _ arguments: OrderedMap<String, JSON> = [:]) -> Bool {
            HearthSchema.isLiveSubscription(fieldName: field, arguments: Arguments(arguments))
        }
        #expect(isLive("choreEvents", ["householdId": "hh_1"]))
        #expect(isLive("choreEvents", ["householdId": "hh_1", "after": .null]))
        #expect(!isLive("choreEvents", ["householdId": "hh_1", "after": "42"]))
        #expect(!isLive("syncDeltas"))
        #expect(!isLive("syncDeltas", ["since": "c_1"]))
        #expect(isLive("serverEvents") && isLive("leaderboardChanged", ["householdId": "hh_1"]) && isLive("notifications"))
        #expect(!isLive("noSuchField"))
    }
}
