import Foundation
import GraphQL
import TestPython
import Testing

/// Calendar feeds through the binary (issue 18, FR-61): subscribing to a feed URL served by a
/// loopback HTTPS server that reports each request with its conditions, refreshes through the
/// durable scheduler moved by the test clock (If-None-Match and If-Modified-Since, 304 keeping the
/// events, a changed feed replacing them, failures recorded and backed off, 410 and repeated 404
/// killing the feed with a notice), the fetch limits at their edges, the outbound address guard
/// (redirects to private addresses, loopback without the flag), events with unsupported recurrence
/// skipped and reported, and imported calendars as nodes of the owner's sync scope.
@Suite struct CalendarFeedTests {
    /// The server's arguments with `feeds` trusted, on the loopback interface unless refused.
    private static func arguments(_ feeds: LoopbackFeedServer, allowingLoopback: Bool = true) -> [String] {
        ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d", "--outbound-ca-file", feeds.authorityFile]
            + (allowingLoopback ? ["--outbound-allow-loopback"] : [])
    }

    /// Runs `body` with a feed server, a server trusting it, and Ana signed up.
    private static func withFeedServer(
        allowingLoopback: Bool = true, _ extra: [String] = [], _ body: (LoopbackFeedServer, ServerProcess, ServerProcess.Person) throws -> Void
    ) throws {
        let feeds = try LoopbackFeedServer()
        defer { feeds.stop() }
        let server = try ServerProcess(arguments(feeds, allowingLoopback: allowingLoopback) + extra)
        defer { server.remove() }
        try body(feeds, server, try server.person("ana"))
    }

    /// A feed: a weekly shift (4 times from 4 January 2027) and an hourly event the engine skips (line 15).
    static let firstVersion = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hearth tests//Feed//EN",
        "BEGIN:VEVENT", "UID:shift@feed", "SUMMARY:Shift", "DTSTART:20270104T080000Z", "DTEND:20270104T160000Z", "RRULE:FREQ=WEEKLY;COUNT=4", "END:VEVENT",
        "BEGIN:VEVENT", "UID:hourly@feed", "SUMMARY:Every hour", "DTSTART:20270104T080000Z", "RRULE:FREQ=HOURLY;COUNT=3", "END:VEVENT",
        "END:VCALENDAR",
    ]

    /// The same feed changed: the shift renamed and shortened to two weeks, a dentist appointment added.
    static let secondVersion = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Hearth tests//Feed//EN",
        "BEGIN:VEVENT", "UID:shift@feed", "SUMMARY:Late shift", "DTSTART:20270104T120000Z", "DTEND:20270104T200000Z", "RRULE:FREQ=WEEKLY;COUNT=2",
        "END:VEVENT",
        "BEGIN:VEVENT", "UID:dentist@feed", "SUMMARY:Dentist", "DTSTART:20270106T090000Z", "DURATION:PT1H", "END:VEVENT",
        "END:VCALENDAR",
    ]

    /// The summaries and starts of `person`'s imported events in January 2027.
    private static func january(_ server: ServerProcess, _ person: ServerProcess.Person) throws -> [String] {
        let answer = try server.importedCalendarEvents(from: "2027-01-01T00:00:00Z", to: "2027-02-01T00:00:00Z", as: person)
        let events = try #require(answer.data?["importedCalendarEvents"]?.elements, "\(answer.json)")
        return events.map { "\($0["summary"]?.stringValue ?? "?") \($0["startsAt"]?.stringValue ?? "?")" }
    }

    @Test func FR61_aFeedIsSubscribedRefreshedConditionallyAndReplaced() throws {
        try Self.withFeedServer { feeds, server, ana in
            try feeds.serve("work", lines: Self.firstVersion)
            let webcal = feeds.url("/feeds/work").replacingOccurrences(of: "https://", with: "webcal://")
            let subscribed = try server.subscribeCalendarFeed(webcal, name: "Work", as: ana)
            let calendar = try #require(subscribed.data?["subscribeCalendarFeed"]?["calendar"], "\(subscribed.json)")
            let id = try #require(calendar["id"]?.stringValue)
            #expect(calendar["sourceUrl"]?.stringValue == feeds.url("/feeds/work"), "webcal:// is fetched as https://")
            #expect(calendar["feedStatus"] == "ACTIVE" && calendar["eventCount"] == 1 && calendar["lastRefreshError"] == .null)
            let skipped = try #require(calendar["skippedEvents"]?.elements)
            #expect(skipped.count == 1 && skipped.first?["uid"] == "hourly@feed" && skipped.first?["line"] == 15, "\(skipped)")
            #expect(skipped.first?["reason"]?.stringValue?.contains("HOURLY") == true)
            let first = try feeds.nextRequest()
            #expect(first.status == 200 && first.ifNoneMatch == nil && first.ifModifiedSince == nil, "\(first)")
            let upload = try server.importCalendar(Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8), name: "work", as: ana)
            #expect(upload.errorField == "input.name" && upload.errorReason == "TAKEN", "an upload cannot replace a feed's events: \(upload.json)")
            #expect(try Self.january(server, ana) == [
                "Shift 2027-01-04T08:00:00.000Z", "Shift 2027-01-11T08:00:00.000Z", "Shift 2027-01-18T08:00:00.000Z", "Shift 2027-01-25T08:00:00.000Z",
            ])

            // An hour later the scheduler refreshes it, conditionally: 304 keeps the events.
            let start = Date()
            let etag = try #require(try server.databaseText("SELECT etag FROM imported_calendars WHERE id = '\(id)'"))
            _ = try server.moveClock(to: start.addingTimeInterval(3700))
            try server.waitForDueJobs()
            let second = try feeds.nextRequest()
            #expect(second.status == 304 && second.ifNoneMatch == etag && second.ifModifiedSince == LoopbackFeedServer.lastModified, "\(second)")
            #expect(try Self.january(server, ana).count == 4)
            let afterNotModified = try #require(try server.importedCalendar(id, as: ana))
            #expect(afterNotModified["lastRefreshedAt"] != calendar["lastRefreshedAt"] && afterNotModified["feedStatus"] == "ACTIVE")
            #expect(afterNotModified["importedAt"] == calendar["importedAt"], "a 304 stores nothing")

            // The feed changes: the next refresh replaces the events.
            try feeds.serve("work", lines: Self.secondVersion)
            _ = try server.moveClock(to: start.addingTimeInterval(7400))
            try server.waitForDueJobs()
            let third = try feeds.nextRequest()
            #expect(third.status == 200 && third.ifNoneMatch == etag, "\(third)")
            #expect(try Self.january(server, ana) == ["Late shift 2027-01-04T12:00:00.000Z", "Dentist 2027-01-06T09:00:00.000Z", "Late shift 2027-01-11T12:00:00.000Z"])
            let replaced = try #require(try server.importedCalendar(id, as: ana))
            #expect(replaced["eventCount"] == 2 && replaced["skippedEvents"]?.elements?.isEmpty == true, "\(replaced)")

            // A failure is recorded, the events kept, and the next refresh backs off.
            try feeds.answer("work", status: 500)
            let failed = try server.refreshImportedCalendar(id, as: ana)
            let failing = try #require(failed.data?["refreshImportedCalendar"]?["calendar"], "\(failed.json)")
            #expect(failing["feedStatus"] == "FAILING" && failing["lastRefreshError"]?.stringValue?.contains("500") == true, "\(failing)")
            #expect(try feeds.nextRequest().status == 500)
            #expect(try Self.january(server, ana).count == 3, "the events of the last success stay")

            // 410: the feed is dead, no refresh is scheduled, and Ana is told.
            try feeds.answer("work", status: 410)
            _ = try server.moveClock(to: start.addingTimeInterval(11_100))
            try server.waitForDueJobs()
            #expect(try feeds.nextRequest().status == 410)
            let dead = try #require(try server.importedCalendar(id, as: ana))
            #expect(dead["feedStatus"] == "DEAD" && dead["nextRefreshAt"] == .null, "\(dead)")
            #expect(try server.databaseText("SELECT CAST(COUNT(*) AS TEXT) FROM jobs WHERE kind = 'calendar.feed_refresh' AND state = 'pending'") == "0")
            let notices = try server.notifications(of: ana)
            #expect(notices.first?["kind"] == "CALENDAR_FEED_DEAD" && notices.first?["title"]?.stringValue?.contains("Work") == true, "\(notices)")
            #expect(try Self.january(server, ana).count == 3, "a dead feed's events stay")

            // Refreshed by hand once it works again, it lives: the stored validators still match (304).
            try feeds.answer("work", status: nil)
            let revived = try #require(try server.refreshImportedCalendar(id, as: ana).data?["refreshImportedCalendar"]?["calendar"])
            #expect(revived["feedStatus"] == "ACTIVE" && revived["nextRefreshAt"] != .null && revived["lastRefreshError"] == .null, "\(revived)")
            #expect(try feeds.nextRequest().status == 304)

            // 404 three times in a row (--calendar-feed-missing-limit) is dead too.
            try feeds.answer("work", status: 404)
            for expected in ["FAILING", "FAILING", "DEAD"] {
                let answer = try server.refreshImportedCalendar(id, as: ana)
                #expect(answer.data?["refreshImportedCalendar"]?["calendar"]?["feedStatus"]?.stringValue == expected, "\(answer.json)")
                #expect(try feeds.nextRequest().status == 404)
            }

            // The calendar is Ana's alone.
            let ben = try server.person("ben")
            #expect(try server.importedCalendar(id, as: ben) == .null)
            #expect(try server.refreshImportedCalendar(id, as: ben).errorCode == "NOT_FOUND")
        }
    }

    @Test func FR61_feedFetchLimitsHoldAtTheirEdges() throws {
        let arguments = [
            "--calendar-import-max-bytes", "2048", "--calendar-feed-max-redirects", "2", "--calendar-feed-timeout", "1s",
            "--calendar-feed-max-per-user", "2", "--calendar-feed-max-url-bytes", "300",
        ]
        try Self.withFeedServer(arguments) { feeds, server, ana in
            func refusal(_ url: String) throws -> (code: String?, field: String?, reason: String?, limit: JSON?, message: String) {
                let answer = try server.subscribeCalendarFeed(url, as: ana)
                return (answer.errorCode, answer.errorField, answer.errorReason, answer.errorExtensions?["limit"],
                        answer.json["errors"]?[0]?["message"]?.stringValue ?? "")
            }
            // Exactly the limit is fetched; one byte more is refused, naming the limit.
            let header = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20270104T080000Z\r\nSUMMARY:"
            let footer = "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let padding = String(repeating: "a", count: 2048 - header.utf8.count - footer.utf8.count)
            try feeds.serve("edge", bytes: Array((header + padding + footer).utf8))
            try feeds.serve("over", bytes: Array((header + padding + "a" + footer).utf8))
            let edge = try server.subscribeCalendarFeed(feeds.url("/feeds/edge"), name: "Edge", as: ana)
            #expect(edge.data?["subscribeCalendarFeed"]?["calendar"]?["eventCount"] == 1, "2,048 bytes are fetched: \(edge.json)")
            #expect(try feeds.nextRequest().status == 200)
            let over = try refusal(feeds.url("/feeds/over"))
            #expect(over.code == "BAD_USER_INPUT" && over.field == "input.url" && over.reason == "TOO_LARGE" && over.limit == 2048, "\(over)")
            #expect(over.message.contains("2048 bytes"), "\(over)")
            #expect(try feeds.nextRequest().status == 200)

            // Two redirects are followed; a third is one too many.
            let redirected = try server.subscribeCalendarFeed(feeds.url("/redirect/2/edge"), name: "Redirected", as: ana)
            #expect(redirected.data?["subscribeCalendarFeed"]?["calendar"]?["eventCount"] == 1, "\(redirected.json)")
            #expect(try (0..<3).map { _ in try feeds.nextRequest().status } == [302, 302, 200])
            let tooMany = try refusal(feeds.url("/redirect/3/edge"))
            #expect(tooMany.reason == "OUT_OF_RANGE" && tooMany.limit == 2, "\(tooMany)")
            #expect(try (0..<3).map { _ in try feeds.nextRequest().status } == [302, 302, 302])

            // A redirect to a private address, or to plain http, is refused before connecting.
            for target in ["https://10.0.0.1/feed.ics", "https://192.168.1.1/feed.ics", "https://[fd00::1]/feed.ics", "http://127.0.0.1:\(feeds.port)/feeds/edge"] {
                let refused = try refusal(feeds.url("/redirect-to?" + target))
                #expect(refused.code == "BAD_USER_INPUT" && refused.reason == "NOT_ALLOWED", "\(target): \(refused)")
                #expect(try feeds.nextRequest().status == 302)
            }

            // No answer within --calendar-feed-timeout; a feed that answers 404.
            let slow = try server.subscribeCalendarFeed(feeds.url("/slow/edge"), as: ana)
            #expect(slow.errorCode == "UNAVAILABLE", "\(slow.json)")
            #expect(try refusal(feeds.url("/feeds/missing")).reason == "UNKNOWN_VALUE")
            // The slow request is reported once Hearth has given up and closed it (status 0), in either order with the 404.
            let answered = try (0..<2).map { _ in try feeds.nextRequest() }
            #expect(Set(answered.map(\.path)) == ["/slow/edge", "/feeds/missing"], "\(answered)")
            #expect(answered.contains { $0.path == "/slow/edge" && $0.status == 0 } && answered.contains { $0.status == 404 }, "\(answered)")

            // URLs refused as written: another scheme, credentials, too long.
            #expect(try refusal("ftp://example.org/feed.ics").reason == "INVALID_FORMAT")
            #expect(try refusal("http://example.org/feed.ics").reason == "INVALID_FORMAT")
            #expect(try refusal("https://ana:secret@example.org/feed.ics").reason == "NOT_ALLOWED")
            // --calendar-feed-max-url-bytes 300: a URL of 300 bytes is fetched (this one answers 404), 301 bytes are refused.
            let longest = feeds.url("/feeds/") + String(repeating: "l", count: 300 - feeds.url("/feeds/").utf8.count)
            #expect(longest.utf8.count == 300)
            let atLimit = try refusal(longest)
            #expect(atLimit.reason == "UNKNOWN_VALUE" && atLimit.message.contains("404"), "300 bytes are fetched: \(atLimit)")
            #expect(try feeds.nextRequest().status == 404)
            let tooLong = try refusal(longest + "l")
            #expect(tooLong.code == "BAD_USER_INPUT" && tooLong.field == "input.url" && tooLong.reason == "TOO_LONG" && tooLong.limit == 300, "\(tooLong)")

            // A file the parser refuses names its line.
            try feeds.serve("broken", lines: ["BEGIN:VCALENDAR", "BEGIN:VEVENT", "UID:x", "DTSTART:2027", "END:VEVENT", "END:VCALENDAR"])
            let broken = try server.subscribeCalendarFeed(feeds.url("/feeds/broken"), as: ana)
            #expect(broken.errorReason == "INVALID_FORMAT" && broken.json["errors"]?[0]?["extensions"]?["line"] == 4, "\(broken.json)")
            #expect(try feeds.nextRequest().status == 200)

            // Two feeds are the most (--calendar-feed-max-per-user 2).
            let third = try server.subscribeCalendarFeed(feeds.url("/feeds/edge"), name: "Third", as: ana)
            #expect(third.errorCode == "CONFLICT" && third.errorReason == "LIMIT_REACHED", "\(third.json)")
        }
    }

    @Test func FR61_aPermanentRedirectMovesTheFeedATemporaryOneDoesNot() throws {
        try Self.withFeedServer { feeds, server, ana in
            try feeds.serve("new", lines: Self.firstVersion)
            var ids: [Int: String] = [:]
            for status in [301, 302, 307, 308] {
                try feeds.serve("old\(status)", lines: Self.firstVersion)
                let subscribed = try server.subscribeCalendarFeed(feeds.url("/feeds/old\(status)"), name: "Old \(status)", as: ana)
                ids[status] = try #require(subscribed.data?["subscribeCalendarFeed"]?["calendar"]?["id"]?.stringValue, "\(subscribed.json)")
                #expect(try feeds.nextRequest().status == 200)
                // The feed moves: its old URL redirects to the new one.
                try feeds.answer("old\(status)", status: status, location: "/feeds/new")
            }
            for status in [301, 302, 307, 308] {
                let refreshed = try server.refreshImportedCalendar(try #require(ids[status]), as: ana)
                let calendar = try #require(refreshed.data?["refreshImportedCalendar"]?["calendar"], "\(refreshed.json)")
                #expect(try (0..<2).map { _ in try feeds.nextRequest().path } == ["/feeds/old\(status)", "/feeds/new"])
                let expected = [301, 308].contains(status) ? feeds.url("/feeds/new") : feeds.url("/feeds/old\(status)")
                #expect(calendar["sourceUrl"]?.stringValue == expected, "\(status): \(calendar)")
                #expect(calendar["feedStatus"] == "ACTIVE" && calendar["eventCount"] == 1, "\(calendar)")
            }
            // The moved feeds are fetched at their new URL straight away; the others still through the redirect.
            _ = try server.refreshImportedCalendar(try #require(ids[308]), as: ana)
            #expect(try feeds.nextRequest().path == "/feeds/new")
            _ = try server.refreshImportedCalendar(try #require(ids[307]), as: ana)
            #expect(try (0..<2).map { _ in try feeds.nextRequest().path } == ["/feeds/old307", "/feeds/new"])

            // Subscribing through a permanent redirect stores where it leads.
            let through = try server.subscribeCalendarFeed(feeds.url("/feeds/old301"), name: "Through", as: ana)
            #expect(through.data?["subscribeCalendarFeed"]?["calendar"]?["sourceUrl"]?.stringValue == feeds.url("/feeds/new"), "\(through.json)")
            #expect(try (0..<2).map { _ in try feeds.nextRequest().status } == [301, 200])
        }
    }

    @Test func FR61_feedsOnOneHostAreFetchedNoCloserThanTheHostInterval() throws {
        try Self.withFeedServer(["--calendar-feed-host-interval", "30m"]) { feeds, server, ana in
            var ids: [String: String] = [:]
            for name in ["one", "two"] {
                try feeds.serve(name, lines: Self.firstVersion)
                let subscribed = try server.subscribeCalendarFeed(feeds.url("/feeds/\(name)"), name: name, as: ana)
                ids[name] = try #require(subscribed.data?["subscribeCalendarFeed"]?["calendar"]?["id"]?.stringValue, "\(subscribed.json)")
                #expect(try feeds.nextRequest().status == 200)
            }
            func lastRefreshed(_ name: String) throws -> JSON? { try server.importedCalendar(ids[name] ?? "", as: ana)?["lastRefreshedAt"] }
            let subscribedAt = try ["one": lastRefreshed("one"), "two": lastRefreshed("two")]

            // Both come due together an hour later: one is fetched, the other gets the host's next turn, 30 minutes on.
            let moved = try server.moveClock(to: Date().addingTimeInterval(3700))
            try server.waitForDueJobs()
            let first = try feeds.nextRequest()
            #expect(first.status == 304, "\(first)")
            let waiting = first.path == "/feeds/one" ? "two" : "one"
            let waitingID = try #require(ids[waiting])
            let calendar = try #require(try server.importedCalendar(waitingID, as: ana))
            #expect(calendar["lastRefreshedAt"] == subscribedAt[waiting], "not fetched: \(calendar)")
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let turn = try #require(fractional.date(from: calendar["nextRefreshAt"]?.stringValue ?? ""), "\(calendar)")
            #expect((1800.0..<1815.0).contains(turn.timeIntervalSince(moved)), "its turn: \(turn) after \(moved)")
            #expect(try server.databaseText(
                "SELECT CAST(COUNT(*) AS TEXT) FROM jobs WHERE kind = 'calendar.feed_refresh' AND state = 'pending' AND dedupe_key LIKE '\(waitingID)@%'") == "1",
                "rescheduled on the durable scheduler (the job due an hour after subscribing is done)")

            // Just before its turn it still waits; at its turn it is fetched.
            _ = try server.moveClock(to: turn.addingTimeInterval(-5))
            try server.waitForDueJobs()
            #expect(try lastRefreshed(waiting) == subscribedAt[waiting])
            _ = try server.moveClock(to: turn)
            try server.waitForDueJobs()
            let second = try feeds.nextRequest()
            #expect(second.path == "/feeds/\(waiting)" && second.status == 304, "\(second)")
            #expect(try lastRefreshed(waiting) != subscribedAt[waiting])
        }
    }

    @Test func FR61_loopbackFeedsNeedTheFlagAndImportedCalendarsSync() throws {
        try Self.withFeedServer(allowingLoopback: false) { feeds, server, ana in
            try feeds.serve("work", lines: Self.firstVersion)
            for url in [feeds.url("/feeds/work"), "https://localhost:\(feeds.port)/feeds/work", "https://[::1]:\(feeds.port)/feeds/work"] {
                let refused = try server.subscribeCalendarFeed(url, as: ana)
                #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == "NOT_ALLOWED", "\(url): \(refused.json)")
                #expect(refused.json["errors"]?[0]?["message"]?.stringValue?.contains("loopback") == true, "\(refused.json)")
            }

            // An uploaded file skips an event with BYHOUR and reports it; the rest is imported.
            let cursor = try server.syncCursor(as: ana)
            let file = Array((Self.firstVersion.joined(separator: "\r\n") + "\r\n").utf8)
            let imported = try server.graphQLUpload(
                "mutation($input: ImportCalendarInput!) { importCalendar(input: $input) { calendar { id eventCount skippedEvents { uid line reason } } } }",
                input: ["name": "Work"], file: file, token: ana.token, field: "file")
            let calendar = try #require(imported.data?["importCalendar"]?["calendar"], "\(imported.json)")
            let id = try #require(calendar["id"]?.stringValue)
            #expect(calendar["eventCount"] == 1 && calendar["skippedEvents"]?[0]?["uid"] == "hourly@feed", "\(calendar)")
            #expect(try Self.january(server, ana).count == 4)
            let uploaded = try #require(try server.importedCalendar(id, as: ana))
            #expect(uploaded["__typename"] == "ImportedCalendar" && uploaded["sourceUrl"] == .null && uploaded["feedStatus"] == .null, "\(uploaded)")
            #expect(try server.refreshImportedCalendar(id, as: ana).errorReason == "NOT_ALLOWED", "an upload has nothing to fetch")

            // The import and the deletion reach Ana's sync stream (scope user:<ana>), as a node and a tombstone.
            let upserts = try server.allChanges(since: cursor, as: ana)
            #expect(upserts.changes.contains { $0.id == id && $0.operation == "UPSERT" && $0.typename == "ImportedCalendar" }, "\(upserts.changes)")
            let resync = try server.allChanges(since: nil, as: ana)
            #expect(resync.changes.contains { $0.id == id && $0.operation == "UPSERT" }, "a full resync holds it")
            let deleted = try server.graphQL(
                "mutation($input: DeleteImportedCalendarInput!) { deleteImportedCalendar(input: $input) { deletedCalendarId } }",
                variables: ServerProcess.input(["id": .string(id)]), token: ana.token)
            #expect(deleted.data?["deleteImportedCalendar"]?["deletedCalendarId"]?.stringValue == id, "\(deleted.json)")
            let tombstones = try server.allChanges(since: upserts.cursor, as: ana)
            #expect(tombstones.changes.contains { $0.id == id && $0.operation == "DELETE" && $0.typename == "ImportedCalendar" }, "\(tombstones.changes)")
        }
    }
}
