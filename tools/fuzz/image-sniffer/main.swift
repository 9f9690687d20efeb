// libFuzzer entry point for HearthDomain's image sniffer and rules, compiled together with
// Sources/HearthDomain/Images by tools/fuzz/run-all.
//
// Any input must be answered without a trap, and an accepted image must satisfy the rules it
// was checked against.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageSniffer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rules = ImageRules(maximumBytes: 64 * 1024, maximumWidth: 4096, maximumHeight: 4096)
    let outcome = ImageSniffer.sniff(bytes)
    do {
        let info = try rules.check(bytes, field: "input.avatar")
        precondition(outcome == .image(info), "the rules accepted what the sniffer did not read as that image")
        precondition(info.width >= 1 && info.height >= 1, "an accepted image has pixels")
        precondition(info.width <= rules.maximumWidth && info.height <= rules.maximumHeight, "dimension limit not enforced")
        precondition(bytes.count <= rules.maximumBytes, "byte limit not enforced")
    } catch {
        precondition(!error.message.isEmpty, "a refusal explains itself")
    }
    return 0
}
