import Foundation
import GraphQL
import TestPython
import Testing

/// Web Push through the binary (issue 18, FR-49's Web Push channel): subscriptions and their
/// refusals, delivery to a loopback push service that decrypts each push with the reference
/// implementation (`http_ece`) and checks its VAPID token (`py_vapid`, PyJWT), the `TTL`,
/// `Urgency` and `Topic` headers, the 3,993-byte edge, removal of subscriptions the service
/// reports gone, retries after a 5xx (the test clock, no sleeps), and the outbound address guard.
@Suite struct WebPushTests {
    /// The server's arguments with `service` as a trusted push service on the loopback interface.
    private static func arguments(_ service: LoopbackPushService, allowingLoopback: Bool = true) -> [String] {
        ServerProcess.householdArguments + [
            "--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d", "--outbound-ca-file", service.authorityFile,
            "--vapid-subject", "mailto:ops@example.org",
        ] + (allowingLoopback ? ["--outbound-allow-loopback"] : [])
    }

    /// Runs `body` with a loopback push service, a server trusting it, and Ana signed up.
    private static func withPushServer(
        _ allowingLoopback: Bool = true, _ extra: [String] = [], _ body: (LoopbackPushService, ServerProcess, ServerProcess.Person) throws -> Void
    ) throws {
        let service = try LoopbackPushService()
        defer { service.stop() }
        let server = try ServerProcess(arguments(service, allowingLoopback: allowingLoopback) + extra)
        defer { server.remove() }
        try body(service, server, try server.person("ana"))
    }

    @Test func FR49_subscriptionsAreRegisteredListedReplayedAndRemoved() throws {
        try Self.withPushServer(true, ["--max-push-subscriptions-per-user", "2"]) { service, server, ana in
            let configuration = try server.graphQL("{ pushConfiguration { vapidPublicKey maxPayloadBytes } }")
            let key = try #require(configuration.data?["pushConfiguration"]?["vapidPublicKey"]?.stringValue, "signed out: \(configuration.json)")
            #expect(key.count == 87 && key.hasPrefix("B"), "a base64url uncompressed P-256 point: \(key)")
            #expect(configuration.data?["pushConfiguration"]?["maxPayloadBytes"] == 3993)

            let first = try server.registerPush(service.endpoint("ok", "laptop"), p256dh: service.p256dh, auth: service.auth, as: ana, clientMutationID: "m1")
            let id = try #require(first.data?["registerPushSubscription"]?["pushSubscription"]?["id"]?.stringValue, "\(first.json)")
            #expect(id.hasPrefix("psh_"))
            let replay = try server.registerPush(service.endpoint("ok", "other"), p256dh: service.p256dh, auth: service.auth, as: ana, clientMutationID: "m1")
            #expect(replay.data?["registerPushSubscription"]?["pushSubscription"]?["id"]?.stringValue == id, "a replay: \(replay.json)")
            let again = try server.registerPush(service.endpoint("ok", "laptop"), p256dh: service.p256dh, auth: service.auth, as: ana)
            #expect(again.data?["registerPushSubscription"]?["pushSubscription"]?["id"]?.stringValue == id, "the same endpoint: \(again.json)")
            #expect(try server.pushSubscriptionIDs(of: ana) == [id])
            let node = try server.graphQL("query($id: ID!) { node(id: $id) { ... on PushSubscription { endpoint } } }", variables: ["id": .string(id)], token: ana.token)
            #expect(node.data?["node"]?["endpoint"]?.stringValue == service.endpoint("ok", "laptop"))
            let ben = try server.person("ben")
            let foreign = try server.graphQL("query($id: ID!) { node(id: $id) { id } }", variables: ["id": .string(id)], token: ben.token)
            #expect(foreign.data?["node"] == .null, "another user's subscription is not theirs to see")

            // The limit, at its edge.
            _ = try server.registerPush(service.endpoint("ok", "phone"), of: service, as: ana)
            let third = try server.registerPush(service.endpoint("ok", "tablet"), p256dh: service.p256dh, auth: service.auth, as: ana)
            #expect(third.errorCode == "CONFLICT" && third.errorReason == "LIMIT_REACHED", "\(third.json)")

            let unregister = "mutation($input: UnregisterPushSubscriptionInput!) { unregisterPushSubscription(input: $input) { unregisteredPushSubscriptionId } }"
            let byBen = try server.graphQL(unregister, variables: ServerProcess.input(["pushSubscriptionId": .string(id)]), token: ben.token)
            #expect(byBen.errorCode == "NOT_FOUND", "\(byBen.json)")
            let removed = try server.graphQL(unregister, variables: ServerProcess.input(["pushSubscriptionId": .string(id)]), token: ana.token)
            #expect(removed.data?["unregisterPushSubscription"]?["unregisteredPushSubscriptionId"]?.stringValue == id, "\(removed.json)")
            #expect(try server.pushSubscriptionIDs(of: ana).count == 1)
        }
    }

    @Test func FR49_registrationRefusesWhatIsNoPublicPushService() throws {
        try Self.withPushServer(false, ["--max-push-endpoint-bytes", "256"]) { service, server, ana throws in
            func refusal(_ endpoint: String, p256dh: String? = nil, auth: String? = nil) throws -> (String?, String?) {
                let response = try server.registerPush(endpoint, p256dh: p256dh ?? service.p256dh, auth: auth ?? service.auth, as: ana)
                #expect(response.errorCode == "BAD_USER_INPUT", "\(endpoint): \(response.json)")
                return (response.errorField, response.json["errors"]?[0]?["extensions"]?["reason"]?.stringValue)
            }
            #expect(try refusal("http://push.example.org/x") == ("input.endpoint", "INVALID_FORMAT"))
            for address in ["127.0.0.1", "10.0.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1", "169.254.169.254", "0.0.0.0", "224.0.0.1",
                            "[::1]", "[fc00::1]", "[fe80::1]", "[ff02::1]", "[::ffff:127.0.0.1]", "[::ffff:10.1.2.3]"] {
                #expect(try refusal("https://\(address)/push") == ("input.endpoint", "NOT_ALLOWED"), "\(address)")
            }
            let longest = "https://push.example.org/" + String(repeating: "a", count: 256 - 25)
            #expect(try server.registerPush(longest, p256dh: service.p256dh, auth: service.auth, as: ana).errorCode == nil, "256 bytes are allowed")
            #expect(try refusal(longest + "a") == ("input.endpoint", "TOO_LONG"))
            #expect(try refusal("https://push.example.org/x", p256dh: String(service.p256dh.dropLast(2)) + "AA") == ("input.keys.p256dh", "INVALID_FORMAT"))
            #expect(try refusal("https://push.example.org/x", auth: "AAAA") == ("input.keys.auth", "INVALID_FORMAT"))
        }
    }

    @Test func FR49_aPushArrivesEncryptedSignedWithVAPIDAndWithItsHeaders() throws {
        try Self.withPushServer { service, server, ana in
            _ = try server.registerPush(service.endpoint("ok"), of: service, as: ana)
            let key = try server.graphQL("{ pushConfiguration { vapidPublicKey } }").data?["pushConfiguration"]?["vapidPublicKey"]?.stringValue

            let payload = #"{"title":"Dishes","due":"2026-12-02T18:00:00Z","household":"Home","actions":["claim"]}"#
            #expect(try server.push(payload, to: ana, ttl: 600, urgency: "high", topic: "chore_0194-dishes").status == 201)
            let request = try service.nextRequest()
            #expect(request.error == nil, "\(request.error ?? "")")
            #expect(request.plaintext == payload, "http_ece decrypts what was sent")
            #expect(request.contentEncoding == "aes128gcm")
            #expect(request.ttl == "600" && request.urgency == "high" && request.topic == "chore_0194-dishes")
            #expect(request.vapidSignatureValid, "py_vapid verifies the token with the k key")
            #expect(request.vapidAlgorithm == "ES256" && request.vapidType == "JWT")
            #expect(request.audience == "https://127.0.0.1:\(service.port)", "aud is the endpoint's origin")
            #expect(request.subject == "mailto:ops@example.org")
            #expect(request.publicKey == key, "k is the published key")
            let expiry = try #require(request.expiresAt)
            #expect(expiry > Date().timeIntervalSince1970 && expiry <= Date().timeIntervalSince1970 + 24 * 3600, "exp within 24 hours")
            try server.waitForDueJobs()
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM push_messages") == "0", "a delivered push leaves no queued row")

            // The payload limit at its edge: 3,993 bytes go, one more does not.
            let largest = String(repeating: "x", count: 3993)
            #expect(try server.push(largest, to: ana).status == 201)
            #expect(try service.nextRequest().plaintext == largest)
            let tooLarge = try server.push(largest + "x", to: ana)
            #expect(tooLarge.status == 400 && tooLarge.text.contains("payload TOO_LARGE"), "\(tooLarge.text)")
            let badTopic = try server.push("x", to: ana, topic: String(repeating: "t", count: 33))
            #expect(badTopic.status == 400 && badTopic.text.contains("topic INVALID_FORMAT"), "\(badTopic.text)")
            #expect(try server.push("x", to: ana, topic: String(repeating: "t", count: 32)).status == 201, "32 characters are a topic")
            #expect(try service.nextRequest().topic == String(repeating: "t", count: 32))
        }
    }

    @Test func FR49_subscriptionsThePushServiceReportsGoneAreRemoved() throws {
        try Self.withPushServer { service, server, ana in
            let gone = try server.registerPush(service.endpoint("gone"), of: service, as: ana)
            let missing = try server.registerPush(service.endpoint("missing"), of: service, as: ana)
            let kept = try server.registerPush(service.endpoint("ok"), of: service, as: ana)
            #expect(try Set(server.pushSubscriptionIDs(of: ana)) == [gone, missing, kept])
            #expect(try server.push("hello", to: ana).status == 201)
            let statuses = try (0..<3).map { _ in try service.nextRequest().status }
            #expect(Set(statuses) == [410, 404, 201])
            try server.waitForDueJobs()
            #expect(try server.pushSubscriptionIDs(of: ana) == [kept], "410 and 404 remove the subscription")
            #expect(server.log.contains("push.outcome=subscription_removed"))
        }
    }

    @Test func FR49_aPushTheServiceCannotTakeNowIsRetriedWithBackoff() throws {
        try Self.withPushServer { service, server, ana in
            _ = try server.registerPush(service.endpoint("busy"), of: service, as: ana)
            #expect(try server.push("try again", to: ana, topic: "retry").status == 201)
            #expect(try service.nextRequest().status == 503)
            try server.waitForDueJobs()
            #expect(try server.databaseText("SELECT state || ' ' || attempts FROM jobs WHERE kind = 'push.deliver'") == "pending 1", "waiting to retry")
            try server.moveClock(to: Date().addingTimeInterval(3600))
            try server.waitForDueJobs()
            let retried = try service.nextRequest()
            #expect(retried.status == 201 && retried.plaintext == "try again" && retried.topic == "retry")
            #expect(try server.databaseText("SELECT state || ' ' || attempts FROM jobs WHERE kind = 'push.deliver'") == "done 2")
        }
    }

    @Test func FR49_aNewerPushWithTheSameTopicReplacesTheQueuedOne() throws {
        try Self.withPushServer { service, server, ana in
            _ = try server.registerPush(service.endpoint("busy"), of: service, as: ana)
            #expect(try server.push("due at six", to: ana, topic: "dishes").status == 201)
            #expect(try service.nextRequest().plaintext == "due at six")
            try server.waitForDueJobs()
            // The first push waits for its retry; a newer one with its topic replaces it.
            #expect(try server.push("claimed by Ben", to: ana, topic: "dishes").status == 201)
            let replacing = try service.nextRequest()
            #expect(replacing.status == 201 && replacing.plaintext == "claimed by Ben" && replacing.topic == "dishes")
            try server.moveClock(to: Date().addingTimeInterval(3600))
            try server.waitForDueJobs()
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM push_messages") == "0")
            #expect(try server.databaseColumn("SELECT state FROM jobs WHERE kind = 'push.deliver'") == ["done", "done"], "the replaced push's job ends without sending")
        }
    }

    @Test func FR49_theOutboundGuardRefusesAnEndpointWhoseNameResolvesToLoopback() throws {
        try Self.withPushServer(false) { service, server, ana in
            // A name passes registration (it is resolved at each delivery); `localhost` resolves to loopback.
            _ = try server.registerPush("https://localhost:\(service.port)/push/ok/x", of: service, as: ana)
            #expect(try server.push("never sent", to: ana).status == 201)
            try server.waitForDueJobs()
            let job = try server.databaseText("SELECT state || ': ' || last_error FROM jobs WHERE kind = 'push.deliver'")
            #expect(job?.hasPrefix("dead: refused to connect") == true && job?.contains("loopback") == true, "\(job ?? "-")")
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM push_messages") == "0", "a push given up leaves no queued row")
        }
    }
}
