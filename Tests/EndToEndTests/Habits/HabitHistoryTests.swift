import Foundation
import GraphQL
import TestPython
import Testing

/// The habit history through the binary (issue 16, US 04.01 – 04.03, US 06.02), named by user
/// story: newest first with stable cursors, by habit, by a whole word of the comments (never as
/// FTS5 query syntax), and as GeoJSON checked by a real parser against RFC 7946.
@Suite struct HabitHistoryTests {
    private static func server() throws -> ServerProcess {
        try ServerProcess(ServerProcess.householdArguments)
    }

    @Test func US_04_01_01_theHistoryListsYourEventsNewestFirstWithStableCursors() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        for (day, comment) in [("2026-01-05", "a"), ("2026-01-07", "c"), ("2026-01-05", "b"), ("2026-01-06", "d"), ("2026-01-07", "e")] {
            _ = try server.habitEvent(of: runID, as: ana, ["occurredOn": .string(day), "comment": .string(comment)])
        }
        _ = try server.habitEvent(of: try server.habit("Swim", as: ben), as: ben, ["comment": "bens"])
        // By day, then the later recorded first.
        #expect(try server.historyComments(as: ana) == ["e", "c", "d", "b", "a"])
        let first = try server.habitHistory(first: 2, as: ana)
        let page = try #require(first.data?["habitHistory"], "\(first.json)")
        #expect(page["totalCount"] == 5 && page["pageInfo"]?["hasNextPage"] == true && page["pageInfo"]?["hasPreviousPage"] == false)
        let cursor = try #require(page["pageInfo"]?["endCursor"]?.stringValue)
        // An event recorded meanwhile does not move the next page.
        _ = try server.habitEvent(of: runID, as: ana, ["occurredOn": "2026-01-08", "comment": "new"])
        let second = try server.habitHistory(first: 2, after: cursor, as: ana)
        let edges = try #require(second.data?["habitHistory"]?["edges"])
        #expect(edges[0]?["node"]?["comment"] == "d" && edges[1]?["node"]?["comment"] == "b")
        #expect(second.data?["habitHistory"]?["pageInfo"]?["hasPreviousPage"] == true)
        #expect(try server.habitHistory(first: 101, as: ana).errorCode == "BAD_USER_INPUT")
        #expect(try server.habitHistory(after: "bm9wZQ", as: ana).errorReason == "INVALID_FORMAT")
        #expect(try server.historyComments(as: ben) == ["bens"], "only your own events")
    }

    @Test func US_04_02_01_theHistoryIsFilteredToOneHabit() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let readID = try server.habit("Read", as: ana)
        _ = try server.habitEvent(of: runID, as: ana, ["comment": "run 1"])
        _ = try server.habitEvent(of: readID, as: ana, ["comment": "read 1"])
        _ = try server.habitEvent(of: runID, as: ana, ["comment": "run 2"])
        #expect(try server.historyComments(["habitId": .string(runID)], as: ana) == ["run 2", "run 1"])
        #expect(try server.historyComments(["habitId": .string(readID)], as: ana) == ["read 1"])
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.habitHistory(["habitId": .string(runID)], as: ben).errorCode == "NOT_FOUND", "the history is your own")
    }

    @Test func US_04_03_01_theHistoryIsFilteredByAWholeWordOfTheComments() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        for comment in ["Went running", "run!", "Café RUN", "cafe and AND", "5k \"quoted\"", "edited"] {
            _ = try server.habitEvent(of: runID, as: ana, ["occurredOn": "2026-01-05", "comment": .string(comment)])
        }
        _ = try server.habitEvent(of: try server.habit("Run", as: ben), as: ben, ["comment": "run"])
        #expect(try server.historyComments(["commentContains": "Run"], as: ana) == ["Café RUN", "run!"], "whole words, any case")
        #expect(try server.historyComments(["commentContains": "café"], as: ana) == ["Café RUN"], "Unicode case folding; accents kept")
        #expect(try server.historyComments(["commentContains": "AND"], as: ana) == ["cafe and AND"], "an FTS5 operator is a word here")
        #expect(try server.historyComments(["commentContains": "\"quoted\""], as: ana) == ["5k \"quoted\""], "quotes are no syntax")
        #expect(try server.historyComments(["commentContains": "run*"], as: ana) == ["Café RUN", "run!"], "no prefix search")
        #expect(try server.historyComments(["commentContains": "comment:run"], as: ana) == [], "no column filter: a phrase of two words")
        for text in ["\"", "*", "  "] {
            let refused = try server.habitHistory(["commentContains": .string(text)], as: ana)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorExtensions?["field"] == "filter.commentContains")
        }
        // The index follows edits and deletes.
        let edited = try #require(server.habitHistory(["commentContains": "edited"], as: ana).data?["habitHistory"]?["edges"]?[0]?["node"]?["id"]?.stringValue)
        _ = try server.updateHabitEvent(["habitEventId": .string(edited), "comment": "Run again"], as: ana)
        #expect(try server.historyComments(["commentContains": "edited"], as: ana) == [])
        #expect(try server.historyComments(["commentContains": "again"], as: ana) == ["Run again"])
        let counted = try server.habitHistory(["commentContains": "run"], as: ana)
        #expect(counted.data?["habitHistory"]?["totalCount"] == 3)
    }

    @Test func US_06_02_01_theFilteredHistoryIsAGeoJSONMapOverGraphQLAndHTTP() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, _, cara) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let readID = try server.habit("Read", as: ana)
        _ = try server.habitEvent(of: runID, as: ana, ["occurredOn": "2026-01-05", "comment": "Lisbon run", "location": ["latitude": 38.7223, "longitude": -9.1393, "accuracyMeters": 5]])
        _ = try server.habitEvent(of: runID, as: ana, ["occurredOn": "2026-01-06", "comment": "Sydney \"run\"", "location": ["latitude": -33.8688, "longitude": 151.2093]])
        _ = try server.habitEvent(of: runID, as: ana, ["occurredOn": "2026-01-07", "comment": "no place run"])
        _ = try server.habitEvent(of: readID, as: ana, ["occurredOn": "2026-01-07", "comment": "Fiji read", "location": ["latitude": -17.7134, "longitude": 180]])
        let field = try server.graphQL(
            "query($filter: HabitHistoryFilter) { habitHistoryGeoJSON(filter: $filter) }", variables: ["filter": ["habitId": .string(runID)]], token: ana.token)
        let fieldDocument = try #require(field.data?["habitHistoryGeoJSON"]?.stringValue, "\(field.json)")
        let all = try server.get("/habits/history.geojson", headers: "Authorization: Bearer \(ana.token)\r\n")
        #expect(all.status == 200 && all.headers["Content-Type"] == "application/geo+json")
        let runs = try server.get("/habits/history.geojson?habitId=\(runID)&commentContains=run", headers: "Authorization: Bearer \(ana.token)\r\n")
        #expect(runs.status == 200)
        // Checked by Python's json and the rules of RFC 7946 for what a client's map reads.
        let lines = try TestPython.runScript(
            """
            import json, sys
            def check(text):
                document = json.loads(text)
                assert document["type"] == "FeatureCollection", document
                assert isinstance(document["features"], list)
                for feature in document["features"]:
                    assert feature["type"] == "Feature" and isinstance(feature["id"], str)
                    geometry = feature["geometry"]
                    assert geometry["type"] == "Point" and len(geometry["coordinates"]) == 2
                    longitude, latitude = geometry["coordinates"]
                    assert all(isinstance(v, (int, float)) for v in (longitude, latitude))
                    assert -180 <= longitude <= 180 and -90 <= latitude <= 90
                    assert set(feature["properties"]) == {"eventId", "habitId", "habitTitle", "occurredOn", "recordedAt", "comment", "accuracyMeters"}
                def number(value):
                    return None if value is None else float(value)
                return [(f["properties"]["habitTitle"], f["properties"]["occurredOn"], f["properties"]["comment"],
                         [float(v) for v in f["geometry"]["coordinates"]], number(f["properties"]["accuracyMeters"]))
                        for f in document["features"]]
            for path in sys.argv[1:]:
                print(json.dumps(check(open(path, encoding="utf-8").read())))
            """,
            try [fieldDocument, String(decoding: all.body, as: UTF8.self), String(decoding: runs.body, as: UTF8.self)].map { text in
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("habit-map-\(UUID().uuidString).geojson")
                try text.write(to: file, atomically: true, encoding: .utf8)
                return file.path
            })
        #expect(lines == [
            #"[["Run", "2026-01-06", "Sydney \"run\"", [151.2093, -33.8688], null], ["Run", "2026-01-05", "Lisbon run", [-9.1393, 38.7223], 5.0]]"#,
            #"[["Read", "2026-01-07", "Fiji read", [180.0, -17.7134], null], ["Run", "2026-01-06", "Sydney \"run\"", [151.2093, -33.8688], null], ["Run", "2026-01-05", "Lisbon run", [-9.1393, 38.7223], 5.0]]"#,
            #"[["Run", "2026-01-06", "Sydney \"run\"", [151.2093, -33.8688], null], ["Run", "2026-01-05", "Lisbon run", [-9.1393, 38.7223], 5.0]]"#,
        ])
        // Authenticated like every endpoint; a habit not yours is 404; a bad word 400.
        #expect(try server.get("/habits/history.geojson").status == 401)
        #expect(try server.get("/habits/history.geojson?habitId=\(runID)", headers: "Authorization: Bearer \(cara.token)\r\n").status == 404)
        #expect(try server.get("/habits/history.geojson?commentContains=%2A", headers: "Authorization: Bearer \(ana.token)\r\n").status == 400)
        let empty = try server.get("/habits/history.geojson", headers: "Authorization: Bearer \(cara.token)\r\n")
        #expect(String(decoding: empty.body, as: UTF8.self) == #"{"features":[],"type":"FeatureCollection"}"#)
    }
}
