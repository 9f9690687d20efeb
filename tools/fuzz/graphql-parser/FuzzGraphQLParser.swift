// libFuzzer target for the GraphQL lexer and parser (and the JSON parser they share UTF-8
// decoding with). Built by tools/fuzz/run-all with the library files in sources.txt:
//   swiftc -sanitize=fuzzer,address -parse-as-library FuzzGraphQLParser.swift <sources.txt files>
// Besides crashes, it checks the printer's contract: whatever parses prints to text that
// parses again and prints identically.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGraphQLParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let source = Source(bytes: bytes)

    if let document = try? Parser.parse(source, options: ParseOptions(maxTokens: 100_000)) {
        let printed = Printer.print(document)
        let reparsed: Document
        do {
            reparsed = try Parser.parse(printed)
        } catch {
            fatalError("printed document does not parse: \(error)\n\(printed)")
        }
        let reprinted = Printer.print(reparsed)
        precondition(reprinted == printed, "printing is not stable:\n\(printed)\n---\n\(reprinted)")
        var counter = NodeCounter()
        document.walk(&counter)
        precondition(counter.entered == counter.left, "unbalanced walk")
    }

    if let value = try? Parser.parseValue(source) {
        let printed = Printer.print(value)
        guard let reparsed = try? Parser.parseValue(Source(body: printed)) else {
            fatalError("printed value does not parse: \(printed)")
        }
        precondition(Printer.print(reparsed) == printed, "value printing is not stable: \(printed)")
    }

    if let type = try? Parser.parseType(source) {
        precondition((try? Parser.parseType(Source(body: type.description)))?.description == type.description)
    }

    let text = String(decoding: bytes, as: UTF8.self)
    if let coordinate = try? Parser.parseSchemaCoordinate(text) {
        precondition(coordinate.description == text, "schema coordinate does not print back: \(text)")
    }

    // Serialized JSON must parse back and serialize identically (values may change kind:
    // 2.5e3 is written as 2500 and reads back as an integer, as with JSON.stringify).
    if let json = try? JSON(parsing: bytes) {
        let serialized = json.serialized()
        precondition((try? JSON(parsing: serialized))?.serialized() == serialized, "JSON does not round-trip")
    }
    return 0
}

/// Counts enter and leave calls, which must balance when no visitor skips or stops.
private struct NodeCounter: ASTVisitor {
    var entered = 0
    var left = 0

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        entered += 1
        return .continue
    }

    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        left += 1
        return .continue
    }
}
