extension TimeZoneRules {
    /// The rules of a TZif file (RFC 8536, versions 1 to 4): its 64-bit data block when it has
    /// one, and the TZ string of its footer for the times after the last transition. Nil when
    /// `bytes` is not a well-formed TZif file.
    public init?(identifier: String, tzif bytes: [UInt8]) {
        var reader = TZifReader(bytes: bytes)
        guard let first = reader.header() else { return nil }
        let block: TZifReader.Block
        if first.version >= 2 {
            // Skip the 32-bit block, which version 2 repeats with 64-bit times.
            guard reader.skip(first.length(timeSize: 4)), let second = reader.header(),
                let data = reader.block(second, timeSize: 8)
            else { return nil }
            block = data
        } else {
            guard let data = reader.block(first, timeSize: 4) else { return nil }
            block = data
        }
        let footer = first.version >= 2 ? reader.footer() : ""
        guard let footer else { return nil }
        self.init(identifier: identifier, block: block, footer: footer)
    }

    private init?(identifier: String, block: TZifReader.Block, footer: String) {
        let types = block.types
        let offsets = block.typeIndices.map { types[$0].offset }
        var limits: [Int] = []
        limits.reserveCapacity(offsets.count)
        for index in offsets.indices {
            let before = index == 0 ? types[0].offset : offsets[index - 1]
            limits.append(block.transitions[index] + max(before, offsets[index]))
        }
        let tail: Tail
        if footer.isEmpty {
            tail = .fixed(offsets.last ?? types[types.count - 1].offset)
        } else {
            guard let rule = PosixTimeZoneRule(footer) else { return nil }
            tail = rule.daylight == nil ? .fixed(rule.standardOffset) : .rule(rule)
        }
        let standard = types.first { !$0.isDaylight }?.offset ?? offsets.first ?? types[0].offset
        self.init(
            storage: Storage(
                identifier: identifier, transitions: block.transitions, offsets: offsets, localLimits: limits,
                offsetBefore: standard, tail: tail))
    }
}

/// Reads the parts of a TZif file (RFC 8536 §3), checking every count against the bytes there are.
private struct TZifReader {
    struct Header {
        let version: Int
        let utcIndicatorCount: Int
        let standardIndicatorCount: Int
        let leapCount: Int
        let transitionCount: Int
        let typeCount: Int
        let characterCount: Int

        /// The size of the data block that follows, with times of `timeSize` bytes.
        func length(timeSize: Int) -> Int {
            transitionCount * (timeSize + 1) + typeCount * 6 + characterCount + leapCount * (timeSize + 4)
                + standardIndicatorCount + utcIndicatorCount
        }
    }

    struct LocalTimeType {
        let offset: Int
        let isDaylight: Bool
    }

    struct Block {
        let transitions: [Int]
        let typeIndices: [Int]
        let types: [LocalTimeType]
    }

    let bytes: [UInt8]
    var position = 0

    /// A header, or nil when the magic, the version or a count is wrong.
    mutating func header() -> Header? {
        guard position + 44 <= bytes.count, bytes[position..<position + 4].elementsEqual("TZif".utf8) else { return nil }
        let versionByte = bytes[position + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        guard (1...4).contains(version) else { return nil }
        let counts = (0..<6).map { Int(bigEndian(at: position + 20 + $0 * 4, size: 4)) }
        position += 44
        let header = Header(
            version: version, utcIndicatorCount: counts[0], standardIndicatorCount: counts[1], leapCount: counts[2],
            transitionCount: counts[3], typeCount: counts[4], characterCount: counts[5])
        // RFC 8536 §3.1: at least one type, at most 256 (an index is a byte); the indicator
        // counts are zero or the type count.
        guard (1...256).contains(header.typeCount), [0, header.typeCount].contains(header.utcIndicatorCount),
            [0, header.typeCount].contains(header.standardIndicatorCount)
        else { return nil }
        return header
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count <= bytes.count - position else { return false }
        position += count
        return true
    }

    /// The transitions and types of a data block; nil when they are out of order or out of range.
    mutating func block(_ header: Header, timeSize: Int) -> Block? {
        guard header.length(timeSize: timeSize) <= bytes.count - position else { return nil }
        var transitions: [Int] = []
        transitions.reserveCapacity(header.transitionCount)
        for index in 0..<header.transitionCount {
            let raw = bigEndian(at: position + index * timeSize, size: timeSize)
            let time = timeSize == 4 ? Int(Int32(truncatingIfNeeded: raw)) : Int(Int64(bitPattern: raw))
            guard transitions.last.map({ $0 < time }) ?? true else { return nil }
            transitions.append(time)
        }
        position += header.transitionCount * timeSize
        let typeIndices = bytes[position..<position + header.transitionCount].map(Int.init)
        guard typeIndices.allSatisfy({ $0 < header.typeCount }) else { return nil }
        position += header.transitionCount
        var types: [LocalTimeType] = []
        for index in 0..<header.typeCount {
            let start = position + index * 6
            let offset = Int(Int32(truncatingIfNeeded: bigEndian(at: start, size: 4)))
            // RFC 8536 §3.2: -89999 to 93599 seconds; isdst is 0 or 1.
            guard (-89_999...93_599).contains(offset), bytes[start + 4] <= 1 else { return nil }
            types.append(LocalTimeType(offset: offset, isDaylight: bytes[start + 4] == 1))
        }
        // Abbreviations, leap seconds and indicators follow; the offsets are all we need.
        position += header.length(timeSize: timeSize) - header.transitionCount * (timeSize + 1)
        return Block(transitions: transitions, typeIndices: typeIndices, types: types)
    }

    /// The footer's TZ string (between two newlines, possibly empty), or nil when malformed.
    mutating func footer() -> String? {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\n") else { return nil }
        guard let end = bytes[(position + 1)...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let text = bytes[(position + 1)..<end]
        guard text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    private func bigEndian(at start: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<start + size { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}
