import Foundation
import Synchronization
import Testing

@testable import GraphQL

/// Runs `body` on a thread with a small stack and waits for it.
private func onSmallStack(_ bytes: Int, _ body: @escaping @Sendable () -> Bool) async -> Bool {
    await withCheckedContinuation { continuation in
        let thread = Thread {
            continuation.resume(returning: body())
        }
        thread.stackSize = bytes
        thread.start()
    }
}

struct StackDepthTests {
    @Test func parsesPrintsAndWalksAtTheDefaultDepthLimitsWithin2MiBOfStackInDebugBuilds() async {
        let depth = ParseOptions.defaultMaxDepth
        let selections = String(repeating: "{ a ", count: depth) + String(repeating: "} ", count: depth)
        let values = "{ f(a: " + String(repeating: "[{a: ", count: (depth - 2) / 2) + "1"
            + String(repeating: "}]", count: (depth - 2) / 2) + ") }"
        let json = String(repeating: "[{\"a\":", count: JSON.defaultMaxDepth / 2) + "1"
            + String(repeating: "}]", count: JSON.defaultMaxDepth / 2)
        let succeeded = await onSmallStack(2048 * 1024) {
            let document = try? Parser.parse(selections)
            let printed = document.map { Printer.print($0) }
            var counter = DepthCounter()
            document?.walk(&counter)
            return document != nil && printed != nil && (try? Parser.parse(values)) != nil
                && (try? JSON(parsing: json))?.serialized().count == json.utf8.count && counter.deepest > depth
        }
        #expect(succeeded)
    }
}

/// Tracks the deepest nesting the walk reaches.
private struct DepthCounter: ASTVisitor {
    var current = 0
    var deepest = 0

    mutating func enter(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        current += 1
        deepest = max(deepest, current)
        return .continue
    }

    mutating func leave(_ node: ASTNode, parent: ASTNode?) -> VisitAction {
        current -= 1
        return .continue
    }
}
