/// Turns the bytes a terminal in raw mode sends into editor keys: UTF-8 characters, control
/// characters and the VT100/xterm escape sequences of the arrow, Home, End and Delete keys.
/// Bytes of an incomplete sequence wait for the next `feed`.
struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Decodes as many keys as the bytes received so far complete. Unknown sequences are dropped.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [EditorKey] {
        pending.append(contentsOf: bytes)
        var keys: [EditorKey] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = decode(at: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key at `index` and its length in bytes; nil when more bytes are needed.
    private func decode(at index: Int) -> (EditorKey?, Int)? {
        let byte = pending[index]
        switch byte {
        case 0x01: return (.controlA, 1)
        case 0x03: return (.controlC, 1)
        case 0x04: return (.controlD, 1)
        case 0x05: return (.controlE, 1)
        case 0x08, 0x7F: return (.backspace, 1)
        case 0x09: return (.tab, 1)
        case 0x0A, 0x0D: return (.enter, 1)
        case 0x0B: return (.controlK, 1)
        case 0x0C: return (.controlL, 1)
        case 0x15: return (.controlU, 1)
        case 0x17: return (.controlW, 1)
        case 0x1B: return decodeEscape(at: index)
        case 0x00..<0x20: return (nil, 1)
        default: return decodeUTF8(at: index)
        }
    }

    private func decodeEscape(at index: Int) -> (EditorKey?, Int)? {
        guard index + 1 < pending.count else { return nil }
        let introducer = pending[index + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (nil, 2) }
        // CSI parameters are digits and semicolons, ended by a final byte 0x40...0x7E.
        var end = index + 2
        while end < pending.count, (0x30...0x3F).contains(pending[end]) { end += 1 }
        guard end < pending.count else { return nil }
        let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        switch (pending[end], parameters) {
        case (UInt8(ascii: "A"), _): return (.up, length)
        case (UInt8(ascii: "B"), _): return (.down, length)
        case (UInt8(ascii: "C"), _): return (.right, length)
        case (UInt8(ascii: "D"), _): return (.left, length)
        case (UInt8(ascii: "H"), _): return (.home, length)
        case (UInt8(ascii: "F"), _): return (.end, length)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
        case (UInt8(ascii: "~"), "3"): return (.delete, length)
        default: return (nil, length)
        }
    }

    private func decodeUTF8(at index: Int) -> (EditorKey?, Int)? {
        let byte = pending[index]
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= pending.count else { return nil }
        let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
        guard let character = text.first, text != "\u{FFFD}" || byte == 0xEF else { return (nil, length) }
        return (.character(character), length)
    }
}
