/// A key as the line editor understands it, decoded from terminal input by `KeyDecoder`.
enum EditorKey: Equatable, Sendable {
    /// A printable character.
    case character(Character)
    /// Return or Enter.
    case enter
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// The Delete key.
    case delete
    /// Cursor movement.
    case left, right, home, end
    /// History movement.
    case up, down
    /// Tab: complete.
    case tab
    /// Ctrl-A, Ctrl-E: start and end of the line (like Home and End).
    case controlA, controlE
    /// Ctrl-U, Ctrl-K: delete to the start, to the end of the line.
    case controlU, controlK
    /// Ctrl-W: delete the word before the cursor.
    case controlW
    /// Ctrl-C: abandon the line (or the document being continued).
    case controlC
    /// Ctrl-D: end of input on an empty line, else delete under the cursor.
    case controlD
    /// Ctrl-L: clear the screen.
    case controlL
}

/// What the terminal loop should do after a key.
enum EditorAction: Equatable, Sendable {
    /// Redraw the line.
    case redraw
    /// The user submitted this line.
    case submit(String)
    /// Complete the word before the cursor.
    case complete
    /// Discard the line and any pending continuation lines.
    case cancel
    /// The user ended the input (Ctrl-D on an empty line).
    case endOfInput
    /// Clear the screen and redraw.
    case clearScreen
    /// Nothing changed (e.g. Left at the start of the line).
    case none
}

/// The state of one edited line: its text, the cursor, and browsing through history.
/// No terminal here; the explorer feeds keys and draws `text` and `cursor`.
struct LineEditor: Sendable {
    /// The line's characters.
    private(set) var characters: [Character] = []
    /// The cursor position, from 0 (before the first character) to `characters.count`.
    private(set) var cursor = 0
    /// Earlier submitted lines, oldest first.
    private(set) var history: [String]
    /// The entry shown while browsing history (`history.count` means the line being edited).
    private var historyIndex: Int
    /// The line being edited, kept while browsing history.
    private var draft: [Character] = []

    /// Creates an editor with earlier lines to browse with Up and Down.
    init(history: [String] = []) {
        self.history = history
        historyIndex = history.count
    }

    /// The line's text.
    var text: String { String(characters) }

    /// The text before the cursor.
    var textBeforeCursor: String { String(characters[..<cursor]) }

    /// Applies `key` and says what to do next.
    mutating func handle(_ key: EditorKey) -> EditorAction {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .enter:
            let line = text
            if !line.allSatisfy(\.isWhitespace), history.last != line { history.append(line) }
            reset()
            return .submit(line)
        case .backspace:
            guard cursor > 0 else { return .none }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete:
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .left:
            guard cursor > 0 else { return .none }
            cursor -= 1
        case .right:
            guard cursor < characters.count else { return .none }
            cursor += 1
        case .home, .controlA:
            cursor = 0
        case .end, .controlE:
            cursor = characters.count
        case .controlU:
            characters.removeFirst(cursor)
            cursor = 0
        case .controlK:
            characters.removeLast(characters.count - cursor)
        case .controlW:
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace, !Self.isPunctuation(characters[start - 1]) { start -= 1 }
            if start == cursor, start > 0 { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .up:
            guard historyIndex > 0 else { return .none }
            if historyIndex == history.count { draft = characters }
            historyIndex -= 1
            show(Array(history[historyIndex]))
        case .down:
            guard historyIndex < history.count else { return .none }
            historyIndex += 1
            show(historyIndex == history.count ? draft : Array(history[historyIndex]))
        case .tab:
            return .complete
        case .controlC:
            reset()
            return .cancel
        case .controlD:
            if characters.isEmpty { return .endOfInput }
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .controlL:
            return .clearScreen
        }
        return .redraw
    }

    /// Replaces the `replacing` characters before the cursor with `insertion` (a completion
    /// of the word being typed).
    mutating func complete(replacing count: Int, with insertion: String) {
        let start = max(0, cursor - count)
        characters.replaceSubrange(start..<cursor, with: Array(insertion))
        cursor = start + insertion.count
    }

    private mutating func show(_ line: [Character]) {
        characters = line
        cursor = line.count
    }

    private mutating func reset() {
        characters = []
        cursor = 0
        draft = []
        historyIndex = history.count
    }

    private static func isPunctuation(_ character: Character) -> Bool {
        "{}()[]:,=!$@\"".contains(character)
    }
}
