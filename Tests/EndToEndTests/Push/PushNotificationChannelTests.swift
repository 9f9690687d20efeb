import Foundation
import GraphQL
import TestPython
import Testing

/// The push channel through the binary (issue 18, FR-49 – FR-53): a reminder reaches every
/// eligible member's browser as a Web Push the reference implementation (`http_ece`) decrypts,
/// with the documented payload, `Topic` the notice's tag and its urgency and TTL; a claim sends
/// the others a `dismiss` push with the same topic, a release notifies them again; FCM messages
/// to a stand-in that verifies the service account's RS256 assertion with `cryptography`, with an
/// `UNREGISTERED` token removed; and `Retry-After` honoured by both (the test clock, no sleeps).
@Suite struct PushNotificationChannelTests {
    /// Runs `body` with a loopback push service, an FCM stand-in, a server trusting both (one CA
    /// file holding both authorities), and the chore family.
    private static func withServer(
        _ extra: [String] = [], _ body: (LoopbackPushService, LoopbackFCMService, ServerProcess, ServerProcess.ChoreFamily) throws -> Void
    ) throws {
        let service = try LoopbackPushService()
        defer { service.stop() }
        let fcm = try LoopbackFCMService()
        defer { fcm.stop() }
        let authorities = FileManager.default.temporaryDirectory.appendingPathComponent("cas-\(UUID().uuidString).pem").path
        let pem = try String(contentsOfFile: service.authorityFile, encoding: .utf8) + String(contentsOfFile: fcm.authorityFile, encoding: .utf8)
        try pem.write(toFile: authorities, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: authorities) }
        let server = try ServerProcess(
            ServerProcess.householdArguments + [
                "--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d", "--outbound-ca-file", authorities,
                "--outbound-allow-loopback", "--vapid-subject", "mailto:ops@example.org",
            ] + fcm.arguments + extra)
        defer { server.remove() }
        try body(service, fcm, server, try server.choreFamily())
    }

    /// A whole minute about `seconds` from now.
    private static func minute(in seconds: Double) -> Date {
        Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 + seconds) / 60).rounded(.down) * 60)
    }

    /// A `SINGLE_ACTION` chore of the family's household (Ana and Ben eligible) due once at `due`
    /// with reminders an hour before and at the due time; its instance's id.
    private static func sharedChore(_ title: String, due: Date, _ server: ServerProcess, _ f: ServerProcess.ChoreFamily) throws -> String {
        let created = try server.createChore([
            "householdId": .string(f.householdID), "title": .string(title), "schedule": ["once": .string(ISO8601DateFormatter().string(from: due))],
            "reminders": [["before": "PT1H"], ["before": "PT0S"]],
        ], as: f.ana)
        let choreID = try #require(created.data?["createChore"]?["chore"]?["id"]?.stringValue, "\(created.json)")
        return try #require(try server.storedInstanceIDs(of: choreID).first)
    }

    /// The decrypted payload of `request` as a JSON object.
    private static func payload(_ request: LoopbackPushService.Request) throws -> [String: String] {
        let text = try #require(request.plaintext, "not decrypted: \(request.error ?? "")")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String], "\(text)")
    }

    /// The next `count` requests of `service`, by the device name ending their path.
    private static func requests(_ count: Int, of service: LoopbackPushService) throws -> [String: LoopbackPushService.Request] {
        var byDevice: [String: LoopbackPushService.Request] = [:]
        for _ in 0..<count {
            let request = try service.nextRequest()
            byDevice[String(request.path.split(separator: "/").last ?? "")] = request
        }
        return byDevice
    }

    @Test func FR_49_FR_51_FR_52_FR_53_remindersReachBrowsersAClaimDismissesTheOthersAReleaseNotifiesAgain() throws {
        try Self.withServer { service, _, server, f in
            _ = try server.registerPush(service.endpoint("ok", "ana"), of: service, as: f.ana)
            _ = try server.registerPush(service.endpoint("ok", "ben"), of: service, as: f.ben)
            let due = Self.minute(in: 2 * 3600)
            let instance = try Self.sharedChore("Bins out", due: due, server, f)
            let zone = try #require(try server.databaseText("SELECT time_zone FROM households WHERE id = '\(f.householdID)'"))

            // An hour before: every eligible member's browser at once (FR-51).
            try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
            try server.waitForDueJobs()
            let reminders = try Self.requests(2, of: service)
            #expect(Set(reminders.keys) == ["ana", "ben"])
            let ana = try #require(reminders["ana"])
            #expect(ana.error == nil && ana.vapidSignatureValid && ana.contentEncoding == "aes128gcm", "\(ana.error ?? "")")
            let shown = try Self.payload(ana)
            let notification = try #require(try server.notifications(of: f.ana).first)
            #expect(shown == [
                "type": "notification", "kind": "REMINDER", "notificationId": try #require(notification["id"]?.stringValue),
                "tag": try #require(notification["tag"]?.stringValue), "title": "Bins out", "body": "Due in 1 hour.",
                "dueAt": ISO8601DateFormatter().string(from: due), "timeZone": zone, "householdId": f.householdID, "householdName": "Flat",
                "choreId": try #require(notification["choreId"]?.stringValue), "instanceId": instance,
                "claimMutation": "claimChore", "claimInstanceId": instance, "deepLink": "hearth://chore/\(instance)",
            ], "the documented payload")
            let tag = try #require(shown["tag"])
            #expect(tag.count == 32 && ana.topic == tag, "Topic is the notice's tag")
            #expect(ana.urgency == "normal", "a reminder before the due time")
            let ttl = try #require(ana.ttl.flatMap(Int.init))
            #expect(ttl > 0 && ttl <= 3600, "until the due time: \(ttl)")
            #expect(try Self.payload(try #require(reminders["ben"]))["tag"] == tag, "one tag per instance")

            // Ben claims: Ana's copy is withdrawn with a dismiss carrying the same Topic (FR-52); Ben's own stays.
            #expect(try server.claimChore(instance, as: f.ben).errorCode == nil)
            try server.waitForDueJobs()
            let dismiss = try service.nextRequest()
            #expect(dismiss.path.hasSuffix("/ana") && dismiss.topic == tag)
            #expect(try Self.payload(dismiss) == [
                "type": "dismiss", "kind": "REMINDER", "notificationId": shown["notificationId"], "tag": tag, "instanceId": instance,
                "householdId": f.householdID,
            ])
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'push.deliver'") == "3", "nothing to Ben, the claimant")

            // Ben releases: Ana is told it is free again, with the claim action (FR-53).
            #expect(try server.releaseChore(instance, as: f.ben).errorCode == nil)
            try server.waitForDueJobs()
            let released = try service.nextRequest()
            let freeAgain = try Self.payload(released)
            #expect(released.path.hasSuffix("/ana") && freeAgain["kind"] == "RELEASED" && freeAgain["claimMutation"] == "claimChore")
            #expect(released.topic == tag)

            // At the due time: urgent, kept for the default notice TTL (a day).
            try server.moveClock(to: due.addingTimeInterval(1))
            try server.waitForDueJobs()
            let atDue = try Self.requests(2, of: service)
            #expect(atDue.values.allSatisfy { $0.urgency == "high" && $0.ttl == "86400" && $0.topic == tag }, "\(atDue.values.map { ($0.urgency, $0.ttl) })")
        }
    }

    @Test func FR_49_aPushServicesRetryAfterDelaysTheNextAttempt() throws {
        try Self.withServer { service, _, server, f in
            _ = try server.registerPush(service.endpoint("later"), of: service, as: f.ana)
            #expect(try server.push("wait for me", to: f.ana).status == 201)
            #expect(try service.nextRequest().status == 429)
            try server.waitForDueJobs()
            // The scheduler's own backoff (30 s at most for a first failure) has passed; Retry-After's 120 s have not.
            try server.moveClock(to: Date().addingTimeInterval(60))
            try server.waitForDueJobs()
            #expect(try server.databaseText("SELECT state || ' ' || attempts FROM jobs WHERE kind = 'push.deliver'") == "pending 1")
            try server.moveClock(to: Date().addingTimeInterval(125))
            try server.waitForDueJobs()
            let retried = try service.nextRequest()
            #expect(retried.status == 201 && retried.plaintext == "wait for me")
            #expect(try server.databaseText("SELECT state || ' ' || attempts FROM jobs WHERE kind = 'push.deliver'") == "done 2")
        }
    }

    @Test func FR_49_FR_52_fcmMessagesAreSentWithTheServiceAccountsTokenAndUnregisteredTokensRemoved() throws {
        try Self.withServer { _, fcm, server, f in
            let configuration = try server.graphQL("{ pushConfiguration { fcmProjectId } }")
            #expect(configuration.data?["pushConfiguration"]?["fcmProjectId"]?.stringValue == LoopbackFCMService.projectID)
            let register = "mutation($input: RegisterFcmTokenInput!) { registerFcmToken(input: $input) { pushSubscription { id kind endpoint } clientMutationId } }"
            func registerToken(_ token: String, as person: ServerProcess.Person) throws -> ServerProcess.GraphQLResponse {
                try server.graphQL(register, variables: ServerProcess.input(["token": .string(token)]), token: person.token)
            }
            let phone = try registerToken("ana-phone", as: f.ana)
            let subscription = try #require(phone.data?["registerFcmToken"]?["pushSubscription"], "\(phone.json)")
            #expect(subscription["kind"] == "FCM" && subscription["endpoint"]?.stringValue == fcm.sendEndpoint)
            #expect(try registerToken("ana-phone", as: f.ana).data?["registerFcmToken"]?["pushSubscription"]?["id"] == subscription["id"], "the same token again")
            _ = try registerToken("later-ana-tablet", as: f.ana)
            _ = try registerToken("unregistered-ben", as: f.ben)
            #expect(try registerToken("has space", as: f.ana).errorField == "input.token")
            #expect(try server.pushSubscriptionIDs(of: f.ana).count == 2 && server.pushSubscriptionIDs(of: f.ben).count == 1)

            let due = Self.minute(in: 2 * 3600)
            let instance = try Self.sharedChore("Dishes", due: due, server, f)
            try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
            try server.waitForDueJobs()
            var sends: [String: LoopbackFCMService.Event] = [:]
            var tokenRequests = 0
            while sends.count < 3 {
                let event = try fcm.nextEvent()
                if event.kind == "token" {
                    tokenRequests += 1
                    #expect(event.assertionValid, "cryptography verifies the RS256 signature with the service account's public key")
                    #expect(event.header["alg"] as? String == "RS256" && event.header["kid"] as? String == "stand-in-key-1")
                    #expect(event.grantType == "urn:ietf:params:oauth:grant-type:jwt-bearer")
                    #expect(event.claims["iss"] as? String == "hearth@\(LoopbackFCMService.projectID).iam.gserviceaccount.com")
                    #expect(event.claims["aud"] as? String == fcm.tokenEndpoint)
                    #expect(event.claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
                    let lifetime = (event.claims["exp"] as? Double ?? 0) - (event.claims["iat"] as? Double ?? 0)
                    #expect(lifetime == 3600)
                } else {
                    sends[event.message["token"] as? String ?? ""] = event
                }
            }
            #expect(tokenRequests >= 1)
            let message = try #require(sends["ana-phone"]?.message)
            #expect(sends["ana-phone"]?.authorized == true && sends["ana-phone"]?.status == 200)
            let data = try #require(message["data"] as? [String: String])
            #expect(data["type"] == "notification" && data["kind"] == "REMINDER" && data["title"] == "Dishes" && data["instanceId"] == instance)
            #expect(data["claimMutation"] == "claimChore" && data["householdName"] == "Flat" && data["deepLink"] == "hearth://chore/\(instance)")
            let tag = try #require(data["tag"])
            #expect((message["android"] as? [String: Any])?["collapse_key"] as? String == tag)
            #expect(((message["apns"] as? [String: Any])?["headers"] as? [String: Any])?["apns-collapse-id"] as? String == tag)
            #expect(sends["unregistered-ben"]?.status == 404 && sends["later-ana-tablet"]?.status == 429)

            // UNREGISTERED removes Ben's token; the tablet waits for FCM's Retry-After (120 s), not the backoff's 30 s.
            try server.waitForDueJobs()
            #expect(try server.pushSubscriptionIDs(of: f.ben).isEmpty)
            #expect(server.log.contains("push.outcome=subscription_removed"))
            try server.moveClock(to: due.addingTimeInterval(-3600 + 60))
            try server.waitForDueJobs()
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'push.fcm' AND state = 'pending'") == "1")
            try server.moveClock(to: due.addingTimeInterval(-3600 + 125))
            try server.waitForDueJobs()
            let retried = try fcm.nextEvent()
            #expect(retried.kind == "send" && retried.status == 200 && (retried.message["data"] as? [String: String])?["tag"] == tag)

            // Ben claims: Ana's devices get the dismiss, collapsing on the same key, with the kept access token.
            #expect(try server.claimChore(instance, as: f.ben).errorCode == nil)
            try server.waitForDueJobs()
            var dismissed: Set<String> = []
            for _ in 0..<2 {
                let event = try fcm.nextEvent()
                #expect(event.kind == "send" && event.authorized, "the access token is kept until it expires")
                let data = event.message["data"] as? [String: String]
                #expect(data?["type"] == "dismiss" && data?["tag"] == tag)
                #expect((event.message["android"] as? [String: Any])?["collapse_key"] as? String == tag)
                dismissed.insert(event.message["token"] as? String ?? "")
            }
            #expect(dismissed == ["ana-phone", "later-ana-tablet"])

            // A minute before the access token expires it is no longer used: Ben's release fetches a new one.
            try server.moveClock(to: due.addingTimeInterval(-30))
            #expect(try server.releaseChore(instance, as: f.ben).errorCode == nil)
            try server.waitForDueJobs()
            var renewed: [LoopbackFCMService.Event] = []
            while renewed.filter({ $0.kind == "send" }).count < 2 { renewed.append(try fcm.nextEvent()) }
            #expect(renewed.first?.kind == "token" && renewed.first?.assertionValid == true, "\(renewed.map(\.kind))")
            #expect(renewed.filter { $0.kind == "send" }.allSatisfy { $0.authorized && ($0.message["data"] as? [String: String])?["kind"] == "RELEASED" })
        }
    }

    @Test func FR_49_anAccessTokenFCMRefusesIsDroppedAndTheMessageRetriedWithANewOne() throws {
        try Self.withServer { _, fcm, server, f in
            _ = try server.graphQL(Self.registerFcmToken, variables: ServerProcess.input(["token": "stale-ana"]), token: f.ana.token)
            let due = Self.minute(in: 2 * 3600)
            _ = try Self.sharedChore("Windows", due: due, server, f)
            try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
            try server.waitForDueJobs()
            let first = [try fcm.nextEvent(), try fcm.nextEvent()]
            #expect(first.map(\.kind) == ["token", "send"] && first[1].status == 401)
            try server.waitForDueJobs()
            #expect(try server.databaseText("SELECT state || ' ' || attempts FROM jobs WHERE kind = 'push.fcm'") == "pending 1", "retried")
            try server.moveClock(to: due.addingTimeInterval(-3600 + 60))
            try server.waitForDueJobs()
            let renewal = try fcm.nextEvent()
            #expect(renewal.kind == "token", "the refused access token is not used again")
            let retried = renewal.kind == "token" ? try fcm.nextEvent() : renewal
            #expect(retried.kind == "send" && retried.status == 200 && retried.authorized)
        }
    }

    /// The `registerFcmToken` document.
    private static let registerFcmToken =
        "mutation($input: RegisterFcmTokenInput!) { registerFcmToken(input: $input) { pushSubscription { id kind } } }"

    @Test func FR_49_aDeviceRegisteredByASecondAccountMovesToIt() throws {
        try Self.withServer { service, _, server, f in
            // Ana's browser and phone; then she signs out on both and Ben signs in: the same endpoint and token.
            let tablet = service.endpoint("ok", "family-tablet")
            _ = try server.registerPush(tablet, of: service, as: f.ana)
            _ = try server.graphQL(Self.registerFcmToken, variables: ServerProcess.input(["token": "family-phone"]), token: f.ana.token)
            #expect(try server.pushSubscriptionIDs(of: f.ana).count == 2)
            #expect(try server.push("before", to: f.ana).text == "1", "Ana's notices reach the tablet while it is hers")
            #expect(try service.nextRequest().path.hasSuffix("/family-tablet"))

            _ = try server.registerPush(tablet, of: service, as: f.ben)
            let moved = try server.graphQL(Self.registerFcmToken, variables: ServerProcess.input(["token": "family-phone"]), token: f.ben.token)
            #expect(moved.data?["registerFcmToken"]?["pushSubscription"]?["kind"] == "FCM", "\(moved.json)")
            #expect(try server.pushSubscriptionIDs(of: f.ana).isEmpty, "the devices are no longer Ana's")
            #expect(try server.pushSubscriptionIDs(of: f.ben).count == 2)
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM push_subscriptions WHERE endpoint = '\(tablet)'") == "1")
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM fcm_registrations WHERE token = 'family-phone'") == "1")
            #expect(try server.push("after", to: f.ana).text == "0", "nothing of Ana's is sent to the tablet any more")
            #expect(try server.push("after", to: f.ben).text == "1")
            let request = try service.nextRequest()
            #expect(request.path.hasSuffix("/family-tablet") && request.plaintext == "after", "\(request)")
        }
    }

    @Test func FR_49_fcmTokensShareTheSubscriptionLimitAndTheLengthLimitAtTheirEdges() throws {
        try Self.withServer(["--max-push-subscriptions-per-user", "2", "--max-push-endpoint-bytes", "256"]) { service, _, server, f in
            func register(_ token: String) throws -> ServerProcess.GraphQLResponse {
                try server.graphQL(Self.registerFcmToken, variables: ServerProcess.input(["token": .string(token)]), token: f.ana.token)
            }
            let browser = try server.registerPush(service.endpoint("ok"), of: service, as: f.ana)
            let tooLong = try register(String(repeating: "t", count: 257))
            #expect(tooLong.errorCode == "BAD_USER_INPUT" && tooLong.errorField == "input.token", "\(tooLong.json)")
            let longest = try register(String(repeating: "t", count: 256))
            let app = try #require(longest.data?["registerFcmToken"]?["pushSubscription"]?["id"]?.stringValue, "256 bytes: \(longest.json)")
            #expect(app.hasPrefix("psh_"))
            let third = try register("one-too-many")
            #expect(third.errorCode == "CONFLICT" && third.errorReason == "LIMIT_REACHED", "Web Push and FCM count together: \(third.json)")

            let listed = try server.graphQL("{ pushSubscriptions { id kind } }", token: f.ana.token).data?["pushSubscriptions"]
            #expect(listed == [["id": .string(browser), "kind": "WEB_PUSH"], ["id": .string(app), "kind": "FCM"]], "oldest first")
            let node = try server.graphQL("query($id: ID!) { node(id: $id) { ... on PushSubscription { kind } } }", variables: ["id": .string(app)], token: f.ana.token)
            #expect(node.data?["node"]?["kind"] == "FCM")
            let foreign = try server.graphQL("query($id: ID!) { node(id: $id) { id } }", variables: ["id": .string(app)], token: f.ben.token)
            #expect(foreign.data?["node"] == .null)
            let unregister = "mutation($input: UnregisterPushSubscriptionInput!) { unregisterPushSubscription(input: $input) { unregisteredPushSubscriptionId } }"
            #expect(try server.graphQL(unregister, variables: ServerProcess.input(["pushSubscriptionId": .string(app)]), token: f.ben.token).errorCode == "NOT_FOUND")
            let removed = try server.graphQL(unregister, variables: ServerProcess.input(["pushSubscriptionId": .string(app)]), token: f.ana.token)
            #expect(removed.data?["unregisterPushSubscription"]?["unregisteredPushSubscriptionId"]?.stringValue == app, "\(removed.json)")
            #expect(try server.pushSubscriptionIDs(of: f.ana) == [browser])
        }
    }

    @Test func FR_49_fcmMessagesQueuedBeforeTheServiceAccountWasRemovedAreGivenUpSayingWhy() throws {
        let fcm = try LoopbackFCMService()
        defer { fcm.stop() }
        let arguments = ServerProcess.householdArguments + [
            "--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d", "--outbound-ca-file", fcm.authorityFile,
        ]
        let first = try ServerProcess(arguments + fcm.arguments)
        var removed = false
        defer { if !removed { first.remove() } }
        let ana = try first.person("ana")
        _ = try first.graphQL(Self.registerFcmToken, variables: ServerProcess.input(["token": "later-ana"]), token: ana.token)
        // A personal chore's reminder: FCM answers 429, the message waits for its retry.
        let due = Self.minute(in: 2 * 3600)
        _ = try first.chore("Plants", in: nil, as: ana, [
            "schedule": ["once": .string(ISO8601DateFormatter().string(from: due))], "reminders": [["before": "PT1H"]],
        ])
        try first.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try first.waitForDueJobs()
        var sent = try fcm.nextEvent()
        if sent.kind == "token" { sent = try fcm.nextEvent() }
        #expect(sent.status == 429 && (sent.message["data"] as? [String: String])?["title"] == "Plants")
        try first.waitForDueJobs()
        #expect(first.stop() == 0)

        let restarted = try ServerProcess(directory: first.directory, arguments: arguments)
        removed = true
        defer { restarted.remove() }
        try restarted.moveClock(to: due.addingTimeInterval(-3600 + 200))
        try restarted.waitForDueJobs()
        let job = try restarted.databaseText("SELECT state || ': ' || last_error FROM jobs WHERE kind = 'push.fcm'")
        #expect(job == "dead: FCM is not configured: the server has no --fcm-service-account", "\(job ?? "-")")
        #expect(try restarted.databaseText("SELECT CAST(count(*) AS TEXT) FROM fcm_messages") == "0", "a message given up leaves no queued row")
    }

    @Test func FR_49_withoutAServiceAccountThereIsNoFCM() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let configuration = try server.graphQL("{ pushConfiguration { fcmProjectId } }")
        #expect(configuration.data?["pushConfiguration"]?["fcmProjectId"] == .null, "\(configuration.json)")
        let refused = try server.graphQL(Self.registerFcmToken, variables: ServerProcess.input(["token": "ana-phone"]), token: ana.token)
        #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "PROVIDER_DISABLED", "\(refused.json)")
    }
}
