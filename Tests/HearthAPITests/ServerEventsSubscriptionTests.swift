import Foundation
import GraphQL
import HearthAPI
import HearthServices
import Support
import TestFixtures
import Testing

/// `Subscription.serverEvents` of the real `schema.graphql`, over an in-process bus, through
/// `GraphQLService.operate` (the path the WebSocket endpoint takes).
@Suite struct ServerEventsSubscriptionTests {
    private static let sdl: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("schema.graphql"), encoding: .utf8)) ?? ""
    }()

    private static let query = "subscription { serverEvents { sequence kind at startedAt heartbeat missedEvents } }"

    private let bus = InProcessEventBus()
    private let startedAt = Date(timeIntervalSince1970: 1_780_000_000)

    /// Calls `body` with the service of the real schema (its account fields over a temporary database).
    private func withService(_ body: (GraphQLService) async throws -> Void) async throws {
        try await HouseholdsHarness.with { harness in
            try await body(try HearthSchema.service(
                sdl: Self.sdl, serverInfo: ServerInfo(version: "test", startedAt: WallClock.Instant(seconds: 0)), events: bus,
                accounts: harness.accounts.service, households: harness.service, chores: harness.chores, limits: GraphQLLimits(), logger: .disabled))
        }
    }

    private func event(_ sequence: Int64, heartbeat: Int) throws -> Event {
        Event(
            sequence: sequence, topic: .server, kind: heartbeat == 0 ? .serverStarted : .serverHeartbeat,
            payload: try EventPayload(ServerStatus(startedAt: startedAt, heartbeat: heartbeat)),
            committedAt: startedAt.addingTimeInterval(Double(heartbeat) + 0.25))
    }

    private func subscribe(_ service: GraphQLService, query: String = Self.query) async throws -> MaskedResponseStream {
        guard case .stream(let stream) = await service.operate(GraphQLRequest(query: query), requestID: "r1", context: ()) else {
            throw GraphQLError(message: "not a stream")
        }
        return stream
    }

    @Test func deliversEachServerEventAsAResponse() async throws {
        try await withService { service in
            let stream = try await subscribe(service)
            bus.publish([try event(7, heartbeat: 0), try event(9, heartbeat: 1)])
            var iterator = stream.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            let second = try #require(try await iterator.next())
            #expect(String(decoding: first.serialized(), as: UTF8.self) == #"""
                {"data":{"serverEvents":{"sequence":"7","kind":"STARTED","at":"2026-05-28T20:26:40.250Z",\#
                "startedAt":"2026-05-28T20:26:40.000Z","heartbeat":0,"missedEvents":false}}}
                """#)
            #expect(second.data?["serverEvents"]?["kind"] == "HEARTBEAT")
            #expect(second.data?["serverEvents"]?["sequence"] == "9")
        }
    }

    @Test func cancellingTheConsumerReleasesTheBusSubscriber() async throws {
        try await withService { service in
            let stream = try await subscribe(service)
            #expect(bus.subscriberCount == 1)
            let consumer = Task {
                var count = 0
                for try await _ in stream { count += 1 }
                return count
            }
            bus.publish([try event(1, heartbeat: 0)])
            consumer.cancel()
            _ = try await consumer.value
            #expect(bus.subscriberCount == 0)
        }
    }

    @Test func droppingAnUnconsumedStreamReleasesTheBusSubscriber() async throws {
        try await withService { service in
            do {
                let stream = try await subscribe(service)
                withExtendedLifetime(stream) { #expect(bus.subscriberCount == 1) }
            }
            #expect(bus.subscriberCount == 0)
        }
    }

    @Test func aSubscriberThatFellBehindLearnsItMissedEvents() async throws {
        try await withService { service in
            let stream = try await subscribe(service)
            let published = HearthSchema.subscriptionBufferSize + 10
            bus.publish(try (1...published).map { try event(Int64($0), heartbeat: $0) })
            bus.publish([try event(Int64(published + 1), heartbeat: published + 1)])
            var iterator = stream.makeAsyncIterator()
            let first = try #require(try await iterator.next())
            let second = try #require(try await iterator.next())
            #expect(first.data?["serverEvents"]?["missedEvents"] == true)
            #expect(second.data?["serverEvents"]?["missedEvents"] == false)
        }
    }

    @Test func queriesAndMutationsGiveOneOutcomeAndRequestErrorsStopSubscriptions() async throws {
        try await withService { service in
            guard case .single(let outcome) = await service.operate(
                GraphQLRequest(query: "{ serverInfo { version } }"), requestID: "r2", context: ())
            else {
                Issue.record("a query is not a stream")
                return
            }
            #expect(String(decoding: outcome.result.serialized(), as: UTF8.self) == #"{"data":{"serverInfo":{"version":"test"}}}"#)
            guard case .single(let refused) = await service.operate(
                GraphQLRequest(query: "subscription { serverEvents { nope } }"), requestID: "r3", context: ())
            else {
                Issue.record("an invalid subscription is not a stream")
                return
            }
            #expect(refused.result.errors.first?.extensions["code"] == "GRAPHQL_VALIDATION_FAILED")
            #expect(bus.subscriberCount == 0)
        }
    }

    @Test func subscriptionsAreStillRefusedOverHTTP() async throws {
        try await withService { service in
            let outcome = await service.execute(
                GraphQLRequest(query: Self.query), allowsMutations: true, requestID: "r4", context: ())
            #expect(outcome.result.errors.first?.message.contains("WebSocket") == true)
            #expect(bus.subscriberCount == 0)
        }
    }
}
