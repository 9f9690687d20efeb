import Foundation
import GraphQL
import HearthHTTP
import Testing
import TestPython

/// Exports and Loop Habit Tracker imports through the binary.
extension ServerProcess {
    /// `GET /export/<file>` as `person`.
    func export(_ file: String, as person: Person?) throws -> HTTPTestClient.Response {
        try get("/export/\(file)", headers: person.map { "Authorization: Bearer \($0.token)\r\n" } ?? "")
    }

    /// `POST /import/loop` of `archive` as `person`.
    func importLoop(_ archive: [UInt8], as person: Person, contentType: String = "application/zip") throws -> HTTPTestClient.Response {
        let client = try connect()
        defer { client.close() }
        try client.send(Array(
            "POST /import/loop HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\nContent-Type: \(contentType)\r\nAuthorization: Bearer \(person.token)\r\nContent-Length: \(archive.count)\r\n\r\n".utf8)
            + archive)
        return try client.readResponse()
    }

    /// `importLoopHabits` as a GraphQL multipart request uploading `archive`.
    func importLoopHabits(_ archive: [UInt8], as person: Person, clientMutationID: String? = nil) throws -> GraphQLResponse {
        let boundary = "----hearthLoopImport0b9c"
        let query = """
            mutation($input: ImportLoopHabitsInput!) { importLoopHabits(input: $input) { clientMutationId result {
                habitsCreated createdHabitIds habitsUnchanged eventsCreated eventsUnchanged eventsSkipped
                skipped { habitName date reason eventsSkipped } adjustments { habitName reason storedAs count } }
                habits { id title reason startsOn plan visibility } } }
            """
        var input: OrderedMap<String, JSON> = ["file": .null]
        if let clientMutationID { input["clientMutationId"] = .string(clientMutationID) }
        let operations = JSON.object(["query": .string(query), "variables": .object(["input": .object(input)])]).serialized()
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"operations\"\r\n\r\n".utf8) + operations
        body += Array("\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"map\"\r\n\r\n{\"0\": [\"variables.input.file\"]}\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"0\"; filename=\"Loop Habits CSV 2025-01-01.zip\"\r\nContent-Type: application/zip\r\n\r\n".utf8)
        body += archive + Array("\r\n--\(boundary)--\r\n".utf8)
        let client = try connect()
        defer { client.close() }
        try client.send(Array(
            "POST /graphql HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary=\(boundary)\r\nApollo-Require-Preflight: true\r\nAuthorization: Bearer \(person.token)\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
            + body)
        let response = try client.readResponse()
        return GraphQLResponse(status: response.status, json: try JSON(parsing: response.body))
    }

    /// The fixture `Tests/Fixtures/LoopHabitTracker` zipped as Loop's `HabitsCSVExporter` zips it
    /// (deflated, no folder entries, in the order it writes the files: `Habits.csv`, each habit's
    /// `Scores.csv` and `Checkmarks.csv`, the top-level `Scores.csv` and `Checkmarks.csv`), by
    /// Python's `zipfile`; `leaving` names files to leave out, `adding` files to add at the end.
    static func loopFixtureArchive(leaving left: [String] = [], adding added: [String: String] = [:]) throws -> [UInt8] {
        let root = TestPython.packageRoot.appendingPathComponent("Tests/Fixtures/LoopHabitTracker").path
        let script = """
            import io, json, os, sys, zipfile
            root, added, left = sys.argv[1], json.loads(sys.argv[2]), set(sys.argv[3:])
            folders = sorted(name for name in os.listdir(root) if os.path.isdir(os.path.join(root, name)))
            paths = ["Habits.csv"] + [folder + "/" + name for folder in folders for name in ("Scores.csv", "Checkmarks.csv")]
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
                for path in paths + ["Scores.csv", "Checkmarks.csv"]:
                    if path not in left:
                        archive.write(os.path.join(root, path), path)
                for path, text in added.items():
                    archive.writestr(path, text)
            sys.stdout.buffer.write(out.getvalue())
            """
        let addedJSON = String(decoding: try JSONSerialization.data(withJSONObject: added), as: UTF8.self)
        let outcome = try TestPython.run(["-c", script, root, addedJSON] + left)
        try #require(outcome.status == 0, "\(outcome.errors)")
        return Array(outcome.standardOutput)
    }
}
