import Foundation
import GraphQL
import TestPython
import Testing

/// Home-screen widgets (issue 19, FR-65, FR-66) through the binary, with the test clock: today's feed
/// and its ETag against every kind of write, widget tokens and their reach, each outcome of a one-tap
/// action link, and the change event on the stream.
@Suite struct WidgetTests {
    /// The entries of a feed document.
    static func entries(_ document: JSON) -> [JSON] {
        guard case .array(let entries)? = document["entries"] else { return [] }
        return entries
    }

    /// The entry titled `title` of `person`'s feed read with `token`.
    static func entry(_ title: String, in server: ServerProcess, token: String) throws -> JSON {
        try #require(entries(try server.widgetDocument(token: token).json).first { $0["title"]?.stringValue == title }, "no \(title)")
    }

    @Test func FR65_theFeedIsTodaysChoresAndItsETagChangesExactlyWhenItsContentDoes() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments + ["--widget-feed-max-entries", "3"])
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T06:00:00Z")
        let family = try server.choreFamily()
        let ana = family.ana
        try server.setTimeZone("Europe/Berlin", of: ana)
        _ = try server.chore("Water the plants", in: nil, as: ana, ["schedule": ["once": "2027-03-01T11:00:00Z"]])
        let dishes = try server.chore("Dishes", in: family.householdID, as: ana, ["schedule": ["once": "2027-03-01T17:00:00Z"]])
        // 00:30 in Berlin: tomorrow there, though still 1 March in UTC.
        _ = try server.chore("Bins", in: family.householdID, as: ana, ["schedule": ["once": "2027-03-01T23:30:00Z"]])
        _ = try server.chore("Laundry", in: family.caraHouseholdID, as: family.cara, ["schedule": ["once": "2027-03-01T12:00:00Z"]])
        let widget = try server.widgetToken(as: ana)

        let (document, etag) = try server.widgetDocument(token: widget.secret)
        #expect(document["day"] == "2027-03-01" && document["timeZone"] == "Europe/Berlin" && document["hasMore"] == false)
        #expect(document["household"]?["name"] == "Flat" && document["household"]?["id"]?.stringValue == family.householdID)
        let entries = Self.entries(document)
        #expect(entries.map { $0["title"]?.stringValue } == ["Water the plants", "Dishes"])
        let dishesID = try #require(dishes["id"]?.stringValue)
        let row = try #require(entries.last)
        #expect(row["choreId"]?.stringValue == dishesID && row["status"] == "PENDING" && row["dueAt"] == "2027-03-01T17:00:00.000Z")
        #expect(row["householdId"]?.stringValue == family.householdID && row["householdName"] == "Flat" && row["hasSteps"] == false)
        #expect(entries.first?["householdId"] == .null && entries.first?["householdName"] == .null)
        #expect(row["appUrl"]?.stringValue == "hearth://chore/\(dishesID)")
        #expect(row["webUrl"]?.stringValue == "\(ServerProcess.householdBaseURL)/chore/\(dishesID)")
        #expect(row["completeUrl"]?.stringValue?.hasPrefix("\(ServerProcess.householdBaseURL)/widget/actions/v1.complete.\(ana.userID).") == true)

        // The deep link's web fallback: a page that opens the app, showing nothing of the chore.
        let page = try server.get("/chore/\(dishesID)")
        #expect(page.status == 200 && page.text.contains("href=\"hearth://chore/\(dishesID)\"") && !page.text.contains("Dishes"))
        #expect(try server.get("/chore/not-a-chore").status == 404)

        // The same content as a GraphQL field, with the same ETag.
        let graph = try server.graphQL("{ widgetFeed { etag day household { name } entries { title completeUrl status } hasMore } }", token: ana.token)
        #expect(graph.data?["widgetFeed"]?["etag"]?.stringValue == etag, "\(graph.json)")
        #expect(graph.data?["widgetFeed"]?["entries"]?[1]?["completeUrl"] == row["completeUrl"])

        // Polling: 304 while nothing changed, whatever else is written.
        let unchanged = try server.widgetFeed(token: widget.secret, headers: "If-None-Match: \(etag)\r\n")
        #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.headers["ETag"] == etag)
        _ = try server.chore("Laundry again", in: family.caraHouseholdID, as: family.cara, ["schedule": ["once": "2027-03-01T13:00:00Z"]])
        _ = try server.chore("Windows", in: family.householdID, as: ana, ["schedule": ["once": "2027-03-03T10:00:00Z"]])
        #expect(try server.updateChore(["choreId": .string(dishesID), "description": "The pots too"], as: ana).errorCode == nil)
        #expect(try server.widgetFeed(token: widget.secret, headers: "If-None-Match: \(etag)\r\n").status == 304)

        // Renaming, adding and completing each change it.
        #expect(try server.updateChore(["choreId": .string(dishesID), "title": "Dishes and pots"], as: ana).errorCode == nil)
        let renamed = try server.widgetFeed(token: widget.secret, headers: "If-None-Match: \(etag)\r\n")
        let renamedTag = try #require(renamed.headers["ETag"])
        #expect(renamed.status == 200 && renamedTag != etag)
        #expect(try server.widgetTitles(token: widget.secret) == ["Water the plants", "Dishes and pots"])
        _ = try server.chore("Feed the cat", in: nil, as: ana, ["schedule": ["once": "2027-03-01T20:00:00Z"]])
        let added = try server.widgetDocument(token: widget.secret)
        #expect(added.etag != renamedTag && Self.entries(added.json).count == 3 && added.json["hasMore"] == false)
        // One more than --widget-feed-max-entries: the earliest three, and hasMore.
        _ = try server.chore("Call grandma", in: nil, as: ana, ["schedule": ["once": "2027-03-01T21:00:00Z"]])
        let full = try server.widgetDocument(token: widget.secret)
        #expect(Self.entries(full.json).map { $0["title"]?.stringValue } == ["Water the plants", "Dishes and pots", "Feed the cat"])
        #expect(full.json["hasMore"] == true && full.etag != added.etag)
        let instanceID = try #require(row["instanceId"]?.stringValue)
        #expect(try server.completeChore(instanceID, as: ana).data?["completeChore"]?["outcome"] == "COMPLETED")
        let completed = try server.widgetDocument(token: widget.secret)
        let done = try #require(Self.entries(completed.json).first { $0["instanceId"]?.stringValue == instanceID })
        #expect(completed.etag != full.etag && done["status"] == "COMPLETED" && done["completeUrl"] == .null)
    }

    @Test func FR65_aWidgetTokenReadsTheFeedAndNothingElseUntilItIsRevoked() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--widget-max-tokens", "2"])
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        _ = try server.createHousehold("Flat", as: ana)
        #expect(try server.widgetFeed(token: nil).status == 401)
        #expect(try server.widgetFeed(token: "hwt_" + String(repeating: "A", count: 43)).status == 401)

        let kitchen = try server.widgetToken(as: ana, label: "Kitchen iPad")
        #expect(try server.widgetFeed(token: kitchen.secret).status == 200)
        // Listed with the sessions, the secret never again.
        let listed = try server.graphQL("{ widgetTokens { id label createdAt } sessions { id } }", token: ana.token)
        #expect(listed.data?["widgetTokens"]?[0]?["id"]?.stringValue == kitchen.id && listed.data?["widgetTokens"]?[0]?["label"] == "Kitchen iPad")
        #expect(!"\(listed.json)".contains(kitchen.secret))
        // The API refuses it: no mutation, no query.
        let mutation = try server.graphQL("mutation { createWidgetToken(input: {}) { token } }", token: kitchen.secret)
        #expect(mutation.errorCode == "UNAUTHENTICATED", "\(mutation.json)")
        #expect(try server.graphQL("{ me { id } }", token: kitchen.secret).errorCode == "UNAUTHENTICATED")

        // --widget-max-tokens 2: a second is made, a third refused; a label over 100 characters too. Nothing is made then.
        let fridge = try server.widgetToken(as: ana, label: "Fridge")
        let third = try server.graphQL("mutation { createWidgetToken(input: {label: \"Hall\"}) { token } }", token: ana.token)
        #expect(third.errorCode == "CONFLICT" && third.errorReason == "LIMIT_REACHED", "\(third.json)")
        let long = try server.graphQL(
            "mutation($input: CreateWidgetTokenInput!) { createWidgetToken(input: $input) { token } }",
            variables: ServerProcess.input(["label": .string(String(repeating: "x", count: 101))]), token: ben.token)
        #expect(long.errorCode == "BAD_USER_INPUT" && long.errorExtensions?["field"] == "input.label", "\(long.json)")
        #expect(try server.graphQL("{ widgetTokens { id } }", token: ben.token).data?["widgetTokens"] == .array([]))
        #expect(try server.graphQL("{ widgetTokens { id } }", token: ana.token).data?["widgetTokens"]?[1] != nil)

        // Only its owner revokes it, and it is refused from the next request on.
        let revoke = "mutation($input: RevokeWidgetTokenInput!) { revokeWidgetToken(input: $input) { widgetToken { id label } } }"
        let byBen = try server.graphQL(revoke, variables: ServerProcess.input(["widgetTokenId": .string(kitchen.id)]), token: ben.token)
        #expect(byBen.errorCode == "NOT_FOUND")
        #expect(try server.widgetFeed(token: kitchen.secret).status == 200)
        let queued = ServerProcess.input(["widgetTokenId": .string(kitchen.id), "clientMutationId": "revoke-1"])
        let revoked = try server.graphQL(revoke, variables: queued, token: ana.token)
        #expect(revoked.data?["revokeWidgetToken"]?["widgetToken"]?["id"]?.stringValue == kitchen.id, "\(revoked.json)")
        #expect(try server.widgetFeed(token: kitchen.secret).status == 401)
        #expect(try server.widgetFeed(token: fridge.secret).status == 200)
        // An offline queue's replay answers the first result; revoking it anew finds nothing.
        let replayed = try server.graphQL(revoke, variables: queued, token: ana.token)
        #expect(replayed.data?["revokeWidgetToken"]?["widgetToken"]?["label"] == "Kitchen iPad", "\(replayed.json)")
        let again = try server.graphQL(revoke, variables: ServerProcess.input(["widgetTokenId": .string(kitchen.id)]), token: ana.token)
        #expect(again.errorCode == "NOT_FOUND")
        #expect(try server.widgetFeed(token: fridge.secret).status == 200)

        // Security before the terms: an account that has not accepted them lists and revokes its tokens, and nothing more.
        let dan = try server.person("dan", acceptingTerms: false)
        #expect(try server.graphQL("{ widgetTokens { id } }", token: dan.token).errorCode == nil)
        #expect(try server.graphQL(revoke, variables: ServerProcess.input(["widgetTokenId": .string(fridge.id)]), token: dan.token).errorCode == "NOT_FOUND")
        #expect(try server.graphQL("{ widgetFeed { etag } }", token: dan.token).errorCode == "TERMS_ACCEPTANCE_REQUIRED")
    }

    @Test func FR65_aNewTermsVersionGatesTheHTTPFeedAndActionsAsItGatesWidgetFeed() throws {
        let first = try ServerProcess(ServerProcess.householdArguments + ["--terms-version", "v1"])
        defer { first.remove() }
        let ana = try first.person("ana")
        let widget = try first.widgetToken(as: ana)
        #expect(try first.widgetFeed(token: widget.secret).status == 200)
        #expect(first.stop() == 0)
        let server = try ServerProcess(directory: first.directory, arguments: ServerProcess.householdArguments + ["--terms-version", "v2"])
        defer { server.remove() }

        // The widget token and the access token alike: 403 with the code the widget shows, nothing completed.
        for token in [widget.secret, ana.token] {
            let refused = try server.widgetFeed(token: token)
            #expect(refused.status == 403 && refused.headers["ETag"] == nil, "\(refused.status) \(refused.text)")
            let error = try JSON(parsing: refused.body)["errors"]?[0]
            #expect(error?["extensions"]?["code"] == "TERMS_ACCEPTANCE_REQUIRED" && error?["message"]?.stringValue?.contains("terms") == true)
        }
        let action = try server.widgetActionResponse("\(ServerProcess.householdBaseURL)/widget/actions/any", token: widget.secret)
        #expect(action.status == 403 && action.json?["errors"]?[0]?["extensions"]?["code"] == "TERMS_ACCEPTANCE_REQUIRED", "\(action)")
        // Accepted in the app: the same token reads the feed again.
        try server.acceptCurrentTerms(ana)
        #expect(try server.widgetFeed(token: widget.secret).status == 200)
    }

    @Test func FR65_aWidgetTokensLastUseIsRecordedAtMostOncePerTouchInterval() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments + ["--widget-token-touch-interval", "5m"])
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T06:00:00Z")
        let ana = try server.person("ana")
        let widget = try server.widgetToken(as: ana)
        // The test clock runs on from where it is moved to: the recorded times are compared to the second.
        func lastUsed() throws -> String? {
            let listed = try server.graphQL("{ widgetTokens { lastUsedAt } }", token: ana.token)
            return listed.data?["widgetTokens"]?[0]?["lastUsedAt"]?.stringValue.map { String($0.prefix(19)) }
        }
        #expect(try lastUsed() == nil, "never used yet")
        #expect(try server.widgetFeed(token: widget.secret).status == 200)
        #expect(try lastUsed() == "2027-03-01T06:00:00")
        // Within the interval: no write, the recorded time stays.
        try server.moveClock(to: "2027-03-01T06:04:59Z")
        #expect(try server.widgetFeed(token: widget.secret).status == 200)
        #expect(try lastUsed() == "2027-03-01T06:00:00")
        // Just past it: recorded again.
        try server.moveClock(to: "2027-03-01T06:05:01Z")
        #expect(try server.widgetFeed(token: widget.secret).status == 200)
        #expect(try lastUsed() == "2027-03-01T06:05:01")
        // An access token on the widget routes is no widget token's use.
        try server.moveClock(to: "2027-03-01T06:11:00Z")
        #expect(try server.widgetFeed(token: ana.token).status == 200)
        #expect(try lastUsed() == "2027-03-01T06:05:01")
    }

    @Test func FR66_actionLinksCompleteOnceByCompleteChoresRulesAndRefuseTamperedExpiredAndOthersLinks() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T06:00:00Z")
        let family = try server.choreFamily()
        var ana = family.ana
        _ = try server.chore("Dishes", in: family.householdID, as: ana, ["schedule": ["once": "2027-03-01T17:00:00Z"]])
        _ = try server.chore(
            "Inspection", in: family.householdID, as: ana, ["schedule": ["once": "2027-03-01T18:00:00Z"], "requiresApproval": true])
        _ = try server.chore("Evening walk", in: nil, as: ana, ["schedule": ["once": "2027-03-01T22:00:00Z"]])
        let anaWidget = try server.widgetToken(as: ana)
        let benWidget = try server.widgetToken(as: family.ben)
        let dishes = try Self.entry("Dishes", in: server, token: anaWidget.secret)
        let dishesLink = try #require(dishes["completeUrl"]?.stringValue)
        let instanceID = try #require(dishes["instanceId"]?.stringValue)
        func completions() throws -> String? { try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chore_completions") }

        // Refused, and nothing changes: a GET (link previews), no credential, another account's
        // credential, a changed tag, another instance's id under this tag.
        #expect(try server.widgetAction(dishesLink, token: anaWidget.secret, method: "GET").status == 405)
        #expect(try server.widgetAction(dishesLink, token: nil).status == 401)
        #expect(try server.widgetAction(dishesLink, token: benWidget.secret) == (403, "FORBIDDEN"))
        let tampered = String(dishesLink.dropLast()) + (dishesLink.last == "A" ? "B" : "A")
        #expect(try server.widgetAction(tampered, token: anaWidget.secret) == (403, "FORBIDDEN"))
        let walk = try Self.entry("Evening walk", in: server, token: anaWidget.secret)
        let walkID = try #require(walk["instanceId"]?.stringValue)
        #expect(try server.widgetAction(dishesLink.replacingOccurrences(of: instanceID, with: walkID), token: anaWidget.secret) == (403, "FORBIDDEN"))
        #expect(try completions() == "0")

        // Valid, for an instance of a household other than the active one by now: completed without switching.
        _ = try server.join(ana, family.caraHouseholdID, invitedBy: family.cara)
        let switched = try server.graphQL(
            "mutation($input: SetActiveHouseholdInput!) { setActiveHousehold(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["householdId": .string(family.caraHouseholdID)]), token: ana.token)
        #expect(switched.errorCode == nil, "\(switched.json)")
        #expect(try server.widgetAction(dishesLink, token: anaWidget.secret) == (200, "COMPLETED"))
        #expect(try completions() == "1")
        #expect(try server.widgetDocument(token: anaWidget.secret).json["household"]?["name"] == "Cara's", "still the active household")
        #expect(try server.databaseText("SELECT status FROM chore_instances WHERE id = '\(instanceID)'") == "completed")
        // Replayed: the answer says so, and nothing changes twice.
        #expect(try server.widgetAction(dishesLink, token: anaWidget.secret) == (409, "ALREADY_DONE"))
        #expect(try completions() == "1")

        // A chore that needs approval, completed by a member: waiting for an admin.
        let inspection = try Self.entry("Inspection", in: server, token: benWidget.secret)
        let inspectionLink = try #require(inspection["completeUrl"]?.stringValue)
        #expect(try server.widgetAction(inspectionLink, token: benWidget.secret) == (200, "PENDING_APPROVAL"))
        #expect(try Self.entry("Inspection", in: server, token: benWidget.secret)["status"] == "PENDING_APPROVAL")
        #expect(try server.widgetAction(inspectionLink, token: benWidget.secret) == (409, "ALREADY_DONE"))
        #expect(try completions() == "2")

        // completeChore's permission rules, as they are when the link is followed: only admins may now.
        _ = try server.chore("Windows", in: family.householdID, as: ana, ["schedule": ["once": "2027-03-01T19:00:00Z"]])
        let windows = try Self.entry("Windows", in: server, token: benWidget.secret)
        let windowsLink = try #require(windows["completeUrl"]?.stringValue)
        let restricted = try server.updateChore(
            ["choreId": try #require(windows["choreId"]), "completers": ["roles": ["ADMIN"]]], as: ana)
        #expect(restricted.errorCode == nil, "\(restricted.json)")
        let refused = try server.widgetActionResponse(windowsLink, token: benWidget.secret)
        #expect(refused.status == 403 && refused.json?["status"] == "FORBIDDEN" && refused.json?["reason"] == "CHORE_COMPLETERS", "\(refused)")
        #expect(try completions() == "2")

        // A chore with steps has no one-tap link (one tap cannot say which step): the widget opens the app.
        _ = try server.chore("Laundry", in: nil, as: ana, [
            "schedule": ["once": "2027-03-01T20:00:00Z"], "steps": [["title": "Wash"], ["title": "Hang up"]],
        ])
        let laundry = try Self.entry("Laundry", in: server, token: anaWidget.secret)
        #expect(laundry["hasSteps"] == true && laundry["completeUrl"] == .null && laundry["status"] == "PENDING")

        // Expired at the end of its day (UTC for Ana): 410 the next morning, with the widget token still good.
        let walkLink = try #require(walk["completeUrl"]?.stringValue)
        try server.moveClock(to: "2027-03-02T00:00:01Z", signingIn: &ana)
        #expect(try server.widgetAction(walkLink, token: anaWidget.secret) == (410, "EXPIRED"))
        #expect(try server.widgetAction(walkLink, token: ana.token) == (410, "EXPIRED"), "an access token works as well")
        #expect(try completions() == "2")
    }

    @Test func FR65_theStreamTellsWhenTheFeedChangesAndOnlyThen() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T06:00:00Z")
        let family = try server.choreFamily()
        let dishes = try server.chore("Dishes", in: family.householdID, as: family.ana, ["schedule": ["once": "2027-03-01T17:00:00Z"]])
        let etag = try server.widgetDocument(token: try server.widgetToken(as: family.ana).secret).etag
        let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """

            FEED = "subscription { widgetFeedChanged { etag entries { title status } } }"
            CREATE = "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }"
            UPDATE = "mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { id } } }"
            SEEN = []
            def describe(reply):
                # Whether the etag is new (neither the one before subscribing nor one delivered), then the entries.
                feed = reply["payload"]["data"]["widgetFeedChanged"]
                fresh = feed["etag"] not in [ETAG] + SEEN
                SEEN.append(feed["etag"])
                return " ".join([str(fresh)] + [f"{e['title']}/{e['status']}" for e in feed["entries"]])
            async def main(ana, household, chore):
                ws = await connected(ana)
                await subscribe_to(ws, "w", FEED, {})
                # Writes on the feed's topics that leave it as it was deliver nothing...
                await call(CREATE, {"input": {"householdId": household, "title": "Windows", "schedule": {"once": "2027-03-05T10:00:00Z"}}}, ana)
                await call(UPDATE, {"input": {"choreId": chore, "description": "The pots too"}}, ana)
                # ...so the first delivery is the rename.
                await call(UPDATE, {"input": {"choreId": chore, "title": "Dishes and pots"}}, ana)
                print(describe(await message(ws)))
                await call(CREATE, {"input": {"title": "Feed the cat", "schedule": {"once": "2027-03-01T20:00:00Z"}}}, ana)
                print(describe(await message(ws)))
                await ws.close()
            ETAG = sys.argv[5]
            asyncio.run(main(*sys.argv[2:5]))
            """, ["http://127.0.0.1:\(server.port)", family.ana.token, family.householdID, try #require(dishes["id"]?.stringValue), etag])
        #expect(lines == ["True Dishes and pots/PENDING", "True Dishes and pots/PENDING Feed the cat/PENDING"])
    }
}
