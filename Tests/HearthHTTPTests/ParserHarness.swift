@testable import HearthHTTP

/// A request as the parser reported it, comparable across different ways of splitting the input.
struct ParsedMessage: Equatable {
    var method: String
    var target: String
    var version: HTTPVersion
    var headers: [String]
    var keepAlive: Bool
    var expectsContinue: Bool
    var body: [UInt8]
}

/// Everything the parser reported for one input.
struct ParseOutcome: Equatable {
    var messages: [ParsedMessage] = []
    var error: HTTPParseError.Code?
    var leftover = 0
}

/// Drives a parser the way a connection does: keeps unconsumed bytes, appends each new chunk, and calls
/// `parse` until it needs more input.
struct ParserHarness {
    var parser: HTTPRequestParser
    var pending: [UInt8] = []
    var outcome = ParseOutcome()
    private var current: ParsedMessage?

    init(_ configuration: HTTPParserConfiguration = HTTPParserConfiguration()) {
        parser = HTTPRequestParser(configuration: configuration)
    }

    mutating func feed(_ chunk: some Sequence<UInt8>, now: UInt64 = 0) {
        pending.append(contentsOf: chunk)
        while outcome.error == nil {
            let output = pending.withUnsafeBytes { parser.parse($0, now: now) }
            if case .body(let range) = output.event { current?.body.append(contentsOf: pending[range]) }
            pending.removeFirst(output.consumed)
            guard let event = output.event else { break }
            switch event {
            case .head(let head):
                current = ParsedMessage(
                    method: head.method.rawValue, target: head.target, version: head.version,
                    headers: head.headers.map { "\($0.name): \($0.value)" }, keepAlive: head.keepAlive,
                    expectsContinue: head.expectsContinue, body: [])
            case .body:
                break
            case .end:
                if let current { outcome.messages.append(current) }
                current = nil
            case .error(let error):
                outcome.error = error.code
            }
        }
        outcome.leftover = pending.count
    }

    /// Parses `input` in one piece.
    static func parse(_ input: String, _ configuration: HTTPParserConfiguration = HTTPParserConfiguration()) -> ParseOutcome {
        var harness = ParserHarness(configuration)
        harness.feed(Array(input.utf8))
        return harness.outcome
    }

    /// Parses `input` split into two pieces at `split`.
    static func parse(_ input: [UInt8], splitAt split: Int, _ configuration: HTTPParserConfiguration) -> ParseOutcome {
        var harness = ParserHarness(configuration)
        harness.feed(input[..<split])
        harness.feed(input[split...])
        return harness.outcome
    }

    /// Parses `input` one byte at a time.
    static func parseByteByByte(_ input: [UInt8], _ configuration: HTTPParserConfiguration) -> ParseOutcome {
        var harness = ParserHarness(configuration)
        for byte in input { harness.feed([byte]) }
        return harness.outcome
    }
}
