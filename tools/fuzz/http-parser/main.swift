// libFuzzer entry point for HearthHTTP's request parser, compiled together with the parser's pure-Swift
// sources (Sources/HearthHTTP/Message and Sources/HearthHTTP/Parser) by tools/fuzz/run-all.
//
// The first input byte chooses split points, the rest is the byte stream: it is fed to the parser in pieces,
// driving it exactly like a connection does, and the invariants below must hold for any input.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let seed = Int(data[0])
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var configuration = HTTPParserConfiguration()
    configuration.maxRequestLineLength = 256
    configuration.maxHeaderBytes = 512
    configuration.maxBodyBytes = 1024
    configuration.maxChunkLineLength = 64

    var parser = HTTPRequestParser(configuration: configuration)
    var pending: [UInt8] = []
    var position = 0
    var step = 0
    var bodyBytes = 0
    var now: UInt64 = 0
    while position < input.count {
        // Piece sizes cycle through a pattern derived from the seed: 1 byte up to the whole rest.
        let piece = seed == 0 ? input.count : 1 + (seed &* (step + 1)) % 17
        let end = min(input.count, position + piece)
        pending.append(contentsOf: input[position..<end])
        position = end
        step += 1
        now += 1
        while true {
            let output = pending.withUnsafeBytes { parser.parse($0, now: now) }
            precondition(output.consumed >= 0 && output.consumed <= pending.count, "consumed out of range")
            if case .body(let range) = output.event {
                precondition(range.lowerBound >= 0 && range.upperBound <= output.consumed, "body range out of range")
                bodyBytes += range.count
                precondition(bodyBytes <= configuration.maxBodyBytes, "body limit not enforced")
            }
            pending.removeFirst(output.consumed)
            guard let event = output.event else { break }
            switch event {
            case .head:
                bodyBytes = 0
            case .body, .end:
                break
            case .error:
                return 0
            }
        }
        // Nothing unconsumed may outgrow the limits: that is what bounds a connection's memory.
        precondition(pending.count <= 256 + 2 + 512 + 2 + 64 + 2, "parser buffered more than its limits allow")
        _ = parser.checkDeadline(now: now)
    }
    return 0
}
