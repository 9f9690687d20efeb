import Foundation
import Testing
import TestProcess

/// The document cache is bounded by an estimate of each document's memory
/// (`GraphQLService.retainedBytes(ofDocument:text:)`): for the shapes that hold the most per byte
/// of text, the heap a cached, executed document keeps must stay below the estimate, or the
/// byte bound would not bound memory. The heap is measured by `tools/memory-probe` in a process
/// of its own: measured here, every other test of the run would allocate and free meanwhile.
@Suite struct DocumentCacheMemoryTests {
    /// The probe, built beside the test bundle (and beside `HEARTH_BIN` under `make test`).
    static var probe: String {
        let directory = ProcessInfo.processInfo.environment["HEARTH_BIN"].map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return directory.appendingPathComponent("MemoryProbe").path
    }

    @Test func heapHeldPerCachedDocumentStaysBelowTheEstimate() throws {
        let outcome = try ChildProcess.run(Self.probe)
        #expect(outcome.termination == .exited(0), "\(outcome.errors)")
        let rows = outcome.output.split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(rows.count == 6, "one row per shape: \(outcome.output)")
        for row in rows {
            let name = String(row[0])
            let measured = try #require(Int(row[1]), "\(row)")
            let estimated = try #require(Int(row[2]), "\(row)")
            #expect(measured > 0, "\(name) holds memory while cached")
            #expect(measured <= estimated, "\(name): \(measured) bytes held per document, estimated \(estimated)")
        }
    }
}
