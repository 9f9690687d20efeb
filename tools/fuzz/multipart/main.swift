// libFuzzer entry point for HearthHTTP's multipart/form-data parser, compiled together with
// Sources/HearthHTTP/Multipart and Sources/HearthHTTP/Message by tools/fuzz/run-all.
//
// The first input byte chooses split points, the rest is the body: it is fed in pieces like a
// connection would, and the parser must never trap, never report content outside the input,
// never exceed its limits, and never hold back more than a possible delimiter.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let seed = Int(data[0])
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits = MultipartLimits(maxParts: 8, maxHeaderBytes: 256, maxPartBytes: 512)
    var parser = MultipartParser(boundary: Array("XyZ".utf8), limits: limits)
    var pending: [UInt8] = []
    var position = 0
    var step = 0
    var parts = 0
    var partBytes = 0
    do {
        while position < input.count {
            let piece = seed == 0 ? input.count : 1 + (seed &* (step + 1)) % 23
            let end = min(input.count, position + piece)
            pending.append(contentsOf: input[position..<end])
            position = end
            step += 1
            while true {
                let result = pending.withUnsafeBytes { buffer in
                    Result { () throws(MultipartError) in try parser.parse(buffer) }
                }
                let output = try result.get()
                precondition(output.consumed >= 0 && output.consumed <= pending.count, "consumed out of range")
                switch output.event {
                case .part?:
                    parts += 1
                    partBytes = 0
                    precondition(parts <= limits.maxParts, "part limit not enforced")
                case .content(let range)?:
                    precondition(range.lowerBound >= 0 && range.upperBound <= output.consumed, "content range out of range")
                    partBytes += range.count
                    precondition(partBytes <= limits.maxPartBytes, "part size limit not enforced")
                case .partEnd?, .end?, nil:
                    break
                }
                pending.removeFirst(output.consumed)
                if output.event == nil { break }
            }
            // Held back: a partial header section or delimiter line, or the tail that may begin a delimiter.
            precondition(pending.count <= limits.maxHeaderBytes + 2 + 3 + MultipartParser.maxPaddingLength + 2, "buffered beyond the limits")
        }
        try parser.finish()
    } catch {
        precondition(!error.message.isEmpty, "a refusal explains itself")
    }
    return 0
}
