import FoundationEssentials
import HearthDomain
import Testing

/// Instance ids are derived from chore, occurrence and member, as the README and `ChoreInstance.id`
/// document for offline clients.
@Suite struct ChoreInstanceIDTests {
    private static let chore = "chr_0194f0a2-1c3b-7d4e-8f50-6a7b8c9d0e1f"
    private static let occurrence = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func theIDIsWhatTheDocumentedPythonDerivationGives() {
        // The README's `instance_id` in Python 3 gave these (hashlib, uuid).
        #expect(ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence, memberID: nil).rawValue
            == "chi_01a0c450-6c00-8400-a664-e97938d2cd0a")
        #expect(ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence, memberID: "mem_0194f0a2-1c3b-7d4e-8f50-000000000001").rawValue
            == "chi_01a0c450-6c00-8bcb-beae-1fa0f015acfc")
    }

    @Test func theSameInputsGiveTheSameIDAndAnyOtherInputAnother() {
        let id = ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence, memberID: nil)
        #expect(ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence, memberID: nil) == id)
        #expect(ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence.addingTimeInterval(0.001), memberID: nil) != id)
        #expect(ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence, memberID: "mem_x") != id)
        #expect(ChoreInstanceID.make(choreID: "chr_0194f0a2-1c3b-7d4e-8f50-6a7b8c9d0e10", occurrence: Self.occurrence, memberID: nil) != id)
    }

    @Test func theIDIsATypedUUIDv8CarryingTheOccurrence() throws {
        let occurrence = Date(timeIntervalSince1970: 1_790_000_123.456)
        let id = ChoreInstanceID.make(choreID: Self.chore, occurrence: occurrence, memberID: nil)
        #expect(id.kind == .choreInstance && GlobalID(rawValue: id.rawValue) == id)
        let uuid = Array(id.rawValue.dropFirst(4))
        #expect(uuid[14] == "8", "version 8")
        #expect("89ab".contains(uuid[19]), "variant 10")
        #expect(ChoreInstanceID.occurrence(of: id.rawValue).map(ChoreInstanceID.unixMilliseconds) == 1_790_000_123_456)
        #expect(ChoreInstanceID.occurrence(of: "chr_01a0c450-6c00-8400-a664-e97938d2cd0a") == nil, "another type's id carries nothing")
    }

    @Test func laterOccurrencesSortLater() {
        let ids = (0..<5).map { ChoreInstanceID.make(choreID: Self.chore, occurrence: Self.occurrence.addingTimeInterval(Double($0) * 86_400), memberID: nil) }
        #expect(ids.map(\.rawValue) == ids.map(\.rawValue).sorted())
    }
}
