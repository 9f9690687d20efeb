import Foundation
import GraphQL
import TestProcess
import Testing

/// `hearth query`, `introspect` and `explore` against the real server (`ServerProcess`), the
/// explorer also in a real pseudo-terminal through tmux. A stand-in endpoint
/// (`FakeGraphQLEndpoint`) remains only for what the server cannot produce: echoing the bearer
/// token, chunked replies, resolver errors on demand and HTTP 418.
@Suite struct DeveloperCLITests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func url(_ server: ServerProcess) -> String { "http://127.0.0.1:\(server.port)/graphql" }

    @Test func queryPrintsThePrettyResultInServerKeyOrderAndExitsZero() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let version = try HearthCommand.run(["version"]).standardOutput.split(separator: " ")[1]
        let outcome = try HearthCommand.run(["query", "--url", Self.url(server), "{ __typename serverInfo { version } }"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == """
            {
              "data": {
                "__typename": "Query",
                "serverInfo": {
                  "version": "\(version)"
                }
              }
            }

            """)
    }

    @Test func queryReadsAChunkedReply() throws {
        let endpoint = try FakeGraphQLEndpoint()
        defer { endpoint.stop() }
        let outcome = try HearthCommand.run(["query", "--url", endpoint.url, "{ serverInfo { version startedAt } }"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains(#""startedAt": "2026-01-01T00:00:00Z""#))
    }

    @Test func queryReadsTheDocumentFromStandardInputAndSendsTokenAndVariables() throws {
        let endpoint = try FakeGraphQLEndpoint()
        defer { endpoint.stop() }
        let whoami = try HearthCommand.run(["query", "-"], environment: ["HEARTH_URL": endpoint.url, "HEARTH_TOKEN": "t0k"],
                                           standardInput: "{ whoami }")
        #expect(whoami.status == 0)
        #expect(whoami.standardOutput.contains(#""whoami": "Bearer t0k""#))
        let echo = try HearthCommand.run([
            "query", "--url", endpoint.url, "--variables", #"{"value": "hi"}"#, "query Q($value: String) { echo(value: $value) }",
        ])
        #expect(echo.standardOutput.contains(#""echo": "hi""#))
    }

    @Test func queryExitsOneWithErrorsOrANon2xxStatusAndStillPrintsTheBody() throws {
        let endpoint = try FakeGraphQLEndpoint()
        defer { endpoint.stop() }
        let failed = try HearthCommand.run(["query", "--url", endpoint.url, "{ fail }"])
        #expect(failed.status == 1)
        #expect(failed.standardOutput.contains(#""message": "boom""#))
        #expect(failed.standardError.contains("boom"))
        let teapot = try HearthCommand.run(["query", "--url", endpoint.url, "{ teapot }"])
        #expect(teapot.status == 1)
        #expect(teapot.standardError.contains("HTTP 418"))
    }

    @Test func queryExitsTwoWhenTheServerRefusesAndSixtyFourForBadVariables() throws {
        let refused = try HearthCommand.run(["query", "--url", "http://127.0.0.1:1/graphql", "{ a }"])
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("cannot connect to http://127.0.0.1:1/graphql: Connection refused"))
        let badVariables = try HearthCommand.run(["query", "--url", "http://127.0.0.1:1/graphql", "--variables", "{oops", "{ a }"])
        #expect(badVariables.status == 64)
        #expect(badVariables.standardError.contains("invalid --variables"))
    }

    @Test func introspectPrintsTheServersSchemaAsSDL() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let outcome = try HearthCommand.run(["introspect", "--url", Self.url(server)])
        #expect(outcome.status == 0)
        let sdl = try String(contentsOf: Self.root.appendingPathComponent("schema.graphql"), encoding: .utf8)
        #expect(Self.sortedDefinitions(outcome.standardOutput) == Self.sortedDefinitions(printSchema(try buildSchema(sdl: sdl))))
    }

    /// The SDL's definitions (separated by blank lines) in sorted order.
    private static func sortedDefinitions(_ sdl: String) -> [String] {
        sdl.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.sorted()
    }

    @Test func exploreReadsCommandsAndDocumentsFromAPipe() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let outcome = try HearthCommand.run(
            ["explore", "--url", Self.url(server)],
            standardInput: ":describe ServerInfo.version\n{ serverInfo {\n  __typename } }\n:quit\n{ never }\n")
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("ServerInfo.version: String!\n\nThe server's version, e.g. `0.1.0`."))
        #expect(outcome.standardOutput.contains(#""__typename": "ServerInfo""#))
        #expect(!outcome.standardOutput.contains("never"))
    }

    @Test func exploreCompletesDescribesRunsAndRestoresTheTerminal() throws {
        let server = try ServerProcess()
        defer { server.remove() }
        let url = Self.url(server)
        let history = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-history-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: history) }
        let terminal = try TmuxSession(command: "HEARTH_HISTORY=\(history) \(ServerProcess.binary) explore --url \(url); stty -a; sleep 600")
        defer { terminal.kill() }
        try terminal.waitFor("hearth> ")

        try terminal.sendKeys(["{ serverInfo { star", "Tab"])
        try terminal.waitFor("hearth> { serverInfo { startedAt")
        try terminal.sendKeys([" } }", "Enter"])
        try terminal.waitFor(#""startedAt": ""#)

        try terminal.sendKeys([":describe ServerInfo.ver", "Tab", "Enter"])
        try terminal.waitFor("The server's version")

        try terminal.sendKeys(["C-d"])
        // The shell runs `stty -a` after the explorer: echo and canonical mode are back on.
        let screen = try terminal.waitFor(" icanon ")
        #expect(screen.contains(" echo "))
        let saved = try String(contentsOfFile: history, encoding: .utf8)
        #expect(saved.contains("{ serverInfo { startedAt } }"))
    }
}

/// A program running in a detached tmux session: a real pseudo-terminal we type into and read.
private struct TmuxSession {
    let name = "hearth-test-\(UUID().uuidString.prefix(8))"

    init(command: String) throws {
        try Self.tmux(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", command])
    }

    func sendKeys(_ keys: [String]) throws {
        for key in keys {
            // Literal text with -l, key names (Tab, Enter, C-d) without.
            let isKeyName = ["Tab", "Enter", "C-d", "C-c", "Up", "Down", "Left", "Right"].contains(key)
            try Self.tmux(["send-keys", "-t", name] + (isKeyName ? [] : ["-l"]) + [key])
        }
    }

    /// Polls the screen until it contains `text`, a bounded number of times.
    @discardableResult
    func waitFor(_ text: String, attempts: Int = 200) throws -> String {
        var screen = ""
        for _ in 0..<attempts {
            screen = try Self.tmux(["capture-pane", "-p", "-J", "-t", name, "-S", "-200"])
            if screen.contains(text) { return screen }
            usleep(50_000)
        }
        Issue.record("the terminal never showed \(text.debugDescription); it shows:\n\(screen)")
        throw CancellationError()
    }

    func kill() {
        _ = try? Self.tmux(["kill-session", "-t", name])
    }

    /// Runs tmux and returns what it printed. Output goes through a file, since the first
    /// command forks the tmux server, which would otherwise inherit (and hold open) a pipe.
    @discardableResult
    private static func tmux(_ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let client = try ChildProcess("tmux", arguments, searchPath: true, standardOutput: .file(outputPath), standardError: .nullDevice)
        client.waitForExit()
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}
