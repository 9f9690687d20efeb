import HearthServices
import Testing
import TestFixtures

/// The chore suites write `#expect(await h.refusal { … }?.code == …)` over a hundred times: the
/// macro must evaluate the very closure written there, and a closure that does not throw must
/// read as no refusal. If `#expect`'s expansion ever moved or dropped the trailing closure, every
/// one of those checks would pass or fail for the wrong reason; these fail first.
@Suite struct RefusalHarnessTests {
    @Test func aRefusalInsideExpectIsTheErrorItsOwnClosureThrows() async throws {
        try await HouseholdsHarness.with { h in
            #expect(await h.refusal { throw ServiceError(.conflict, "first") }?.message == "first")
            #expect(await h.refusal { throw ServiceError(.forbidden, "second") }?.code == .forbidden)
            #expect(await h.refusal { 42 } == nil)
            var ran = 0
            #expect(await h.refusal { ran += 1 } == nil)
            #expect(ran == 1)
        }
    }
}
