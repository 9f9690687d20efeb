import FoundationEssentials
import Support
import GraphQL
import Net

/// `hearth explore`: an interactive GraphQL explorer for the terminal, built on introspection.
enum ExploreCommand: Command {
    static let name = "explore"
    static let summary = "Explore a server's GraphQL API interactively, with completion"
    static let usage = """
    Usage: hearth explore --url URL [--token TOKEN]

    Introspects URL, then reads GraphQL documents and explorer commands (:describe, :types,
    :schema, :history, :help, :quit). In a terminal it offers a line editor with Tab
    completion of fields, arguments and types, and history kept in ~/.hearth_history (or
    $HEARTH_HISTORY). With standard input not a terminal it reads documents and commands
    line by line, for scripts. Exit status 2 when the server cannot be reached.
    """
    static let options: [OptionSpec] = GraphQLEndpoint.options

    static func run(_ options: ParsedOptions, environment: [String: String]) throws -> Int32 {
        let endpoint = try GraphQLEndpoint(options)
        let schema: Schema
        do {
            schema = try RemoteSchema.fetch(from: endpoint)
        } catch let error as NetworkError {
            StandardStreams.writeError("hearth explore: \(error)\n")
            return 2
        } catch {
            StandardStreams.writeError("hearth explore: \(error)\n")
            return 1
        }
        let execute = { (document: String) -> String in run(document, at: endpoint) }
        if let terminal = RawTerminal() {
            runInteractive(terminal, schema: schema, url: endpoint.url, history: HistoryFile(environment: environment), execute: execute)
        } else {
            runPiped(ExploreSession(schema: schema, execute: execute))
        }
        return 0
    }

    /// The text the explorer shows for running `document`: the pretty result, or why there is none.
    private static func run(_ document: String, at endpoint: GraphQLEndpoint) -> String {
        do throws(NetworkError) {
            return try endpoint.execute(document).printable
        } catch {
            return "error: \(error)\n"
        }
    }

    /// Reads lines from a pipe or file: no prompts, no raw mode, no history file.
    private static func runPiped(_ initial: ExploreSession) {
        var session = initial
        while let line = readLine(strippingNewline: true) {
            switch session.submit(line) {
            case .output(let text): print(text, terminator: "")
            case .needsMore: continue
            case .quit: return
            }
        }
        if !session.pendingLines.isEmpty {
            StandardStreams.writeError("hearth explore: the input ended inside a document (unbalanced braces)\n")
        }
    }

    private static func runInteractive(
        _ terminal: RawTerminal, schema: Schema, url: HTTPURL, history file: HistoryFile,
        execute: @escaping (String) -> String
    ) {
        let stored = file.load()
        var session = ExploreSession(schema: schema, history: stored, execute: execute)
        var editor = LineEditor(history: stored)
        var decoder = KeyDecoder()
        terminal.enable()
        defer { terminal.restore() }
        terminal.write("Connected to \(url). :help lists the commands, Tab completes, Ctrl-D leaves.\n")
        func redraw() {
            let tail = editor.text.count - editor.textBeforeCursor.count
            terminal.write("\r" + session.prompt + editor.text + "\u{1B}[K" + (tail > 0 ? "\u{1B}[\(tail)D" : ""))
        }
        redraw()
        while let bytes = terminal.read() {
            for key in decoder.feed(bytes) {
                switch editor.handle(key) {
                case .redraw:
                    redraw()
                case .none:
                    break
                case .submit(let line):
                    terminal.write("\n")
                    switch session.submit(line) {
                    case .output(let text):
                        terminal.write(text)
                        file.save(session.history)
                    case .needsMore:
                        break
                    case .quit:
                        file.save(session.history)
                        return
                    }
                    redraw()
                case .complete:
                    complete(&editor, session: session, terminal: terminal)
                    redraw()
                case .cancel:
                    terminal.write("^C\n")
                    session.cancelDocument()
                    redraw()
                case .endOfInput:
                    terminal.write("\n")
                    return
                case .clearScreen:
                    terminal.write("\u{1B}[H\u{1B}[2J")
                    redraw()
                }
            }
        }
    }

    /// Completes the word before the cursor: inserts the only candidate, or what all
    /// candidates share, or lists them when that adds nothing.
    private static func complete(_ editor: inout LineEditor, session: ExploreSession, terminal: RawTerminal) {
        let completion = session.complete(editor.textBeforeCursor)
        guard !completion.candidates.isEmpty else { return }
        let typed = String(editor.textBeforeCursor.suffix(completion.replacing))
        if completion.candidates.count == 1 {
            editor.complete(replacing: completion.replacing, with: completion.candidates[0])
        } else if completion.commonPrefix.count > typed.count {
            editor.complete(replacing: completion.replacing, with: completion.commonPrefix)
        } else {
            terminal.write("\n" + completion.candidates.joined(separator: "  ") + "\n")
        }
    }
}
