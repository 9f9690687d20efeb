import Testing
@testable import HearthApp

struct LineEditorTests {
    private func type(_ text: String, into editor: inout LineEditor) {
        for character in text { _ = editor.handle(.character(character)) }
    }

    @Test func insertsAtTheCursorAndMovesWithArrowsHomeAndEnd() {
        var editor = LineEditor()
        type("{ ab }", into: &editor)
        _ = editor.handle(.left)
        _ = editor.handle(.left)
        type("c", into: &editor)
        #expect(editor.text == "{ abc }")
        _ = editor.handle(.home)
        type("query ", into: &editor)
        _ = editor.handle(.controlE)
        type("!", into: &editor)
        #expect(editor.text == "query { abc }!")
    }

    @Test func deletesWithBackspaceDeleteAndTheControlKeys() {
        var editor = LineEditor()
        type("hello world", into: &editor)
        _ = editor.handle(.backspace)
        #expect(editor.text == "hello worl")
        _ = editor.handle(.controlW)
        #expect(editor.text == "hello ")
        _ = editor.handle(.controlA)
        _ = editor.handle(.delete)
        #expect(editor.text == "ello ")
        _ = editor.handle(.right)
        _ = editor.handle(.controlK)
        #expect(editor.text == "e")
        _ = editor.handle(.controlU)
        #expect(editor.text == "" && editor.cursor == 0)
    }

    @Test func submitsTheLineAndBrowsesHistoryKeepingTheDraft() {
        var editor = LineEditor(history: ["{ a }"])
        type("{ b }", into: &editor)
        #expect(editor.handle(.enter) == .submit("{ b }"))
        type("draft", into: &editor)
        _ = editor.handle(.up)
        #expect(editor.text == "{ b }")
        _ = editor.handle(.up)
        #expect(editor.text == "{ a }")
        #expect(editor.handle(.up) == EditorAction.none)
        _ = editor.handle(.down)
        _ = editor.handle(.down)
        #expect(editor.text == "draft")
    }

    @Test func controlDEndsInputOnlyOnAnEmptyLineAndControlCCancels() {
        var editor = LineEditor()
        #expect(editor.handle(.controlD) == .endOfInput)
        type("ab", into: &editor)
        _ = editor.handle(.home)
        #expect(editor.handle(.controlD) == .redraw)
        #expect(editor.text == "b")
        #expect(editor.handle(.controlC) == .cancel)
        #expect(editor.text == "")
    }

    @Test func completionReplacesTheWordBeforeTheCursor() {
        var editor = LineEditor()
        type("{ ver }", into: &editor)
        for _ in 0..<2 { _ = editor.handle(.left) }
        #expect(editor.handle(.tab) == .complete)
        editor.complete(replacing: 3, with: "version")
        #expect(editor.text == "{ version }")
        #expect(editor.textBeforeCursor == "{ version")
    }
}

struct KeyDecoderTests {
    @Test func decodesControlKeysEscapeSequencesAndUTF8() {
        var decoder = KeyDecoder()
        let keys = decoder.feed(Array("a\u{1B}[A\u{1B}[D\u{1B}[3~\u{1B}OH\u{7F}\t\r\u{04}é".utf8))
        #expect(keys == [.character("a"), .up, .left, .delete, .home, .backspace, .tab, .enter, .controlD, .character("é")])
    }

    @Test func waitsForTheRestOfASplitSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B, UInt8(ascii: "[")]).isEmpty)
        #expect(decoder.feed([UInt8(ascii: "C"), 0xC3]) == [.right])
        #expect(decoder.feed([0xA9]) == [.character("é")])
    }
}
