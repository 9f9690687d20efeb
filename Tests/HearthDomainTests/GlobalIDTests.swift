import HearthDomain
import Testing

struct GlobalIDTests {
    /// Returns the same 64 bits every time, so a made id's random part is known.
    private struct FixedGenerator: RandomNumberGenerator {
        var value: UInt64
        mutating func next() -> UInt64 { value }
    }

    private static let uuid = "0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e1f"

    @Test func thePrefixesArePinnedForever() {
        // Ids are stored with their prefix and kept by clients: changing one orphans every id of its type.
        let prefixes = Dictionary(uniqueKeysWithValues: GlobalID.Kind.allCases.map { ($0, $0.rawValue) })
        #expect(prefixes == [
            .user: "usr", .session: "ses", .avatar: "avt", .household: "hh", .member: "mem", .invitation: "inv",
            .parentalConsent: "cns", .memberDeparture: "dep", .chore: "chr", .choreStep: "stp", .tag: "tag", .chorePreset: "prs",
            .choreInstance: "chi", .choreCompletion: "cmp", .reward: "rwd", .redemption: "rdm", .ledgerEntry: "led",
            .vacation: "vac", .choreShare: "shr",
            .habit: "hab", .habitEvent: "hev", .habitPhoto: "pho", .follow: "fol", .notification: "ntf", .availabilityEvent: "avl",
            .pushSubscription: "psh",
            .importedCalendar: "icl", .importedEvent: "iev", .googleConnection: "gco",
            .widgetToken: "wgt",
        ])
    }

    @Test func prefixesAreShortLowercaseLettersAndNoneStartsAnother() {
        let prefixes = GlobalID.Kind.allCases.map(\.rawValue)
        #expect(Set(prefixes).count == prefixes.count)
        for prefix in prefixes {
            #expect((2...3).contains(prefix.count))
            #expect(prefix.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) })
        }
    }

    @Test(arguments: GlobalID.Kind.allCases)
    func madeIDsAreThePrefixAndALowercaseUUIDv7(kind: GlobalID.Kind) throws {
        var generator = FixedGenerator(value: 0xFFFF_FFFF_FFFF_FFFF)
        let id = GlobalID.make(kind, unixMilliseconds: 0x0190_A4C2_5B3E, using: &generator)
        #expect(id.kind == kind)
        #expect(id.rawValue == "\(kind.rawValue)_0190a4c2-5b3e-7fff-bfff-ffffffffffff")
        #expect(id.description == id.rawValue)
    }

    @Test func madeIDsRoundTripThroughTheirText() {
        var generator = SystemRandomNumberGenerator()
        for kind in GlobalID.Kind.allCases {
            let id = GlobalID.make(kind, unixMilliseconds: 1_767_225_600_000, using: &generator)
            #expect(GlobalID(rawValue: id.rawValue) == id)
            #expect(GlobalID.form(of: id.rawValue) == .typed(id))
        }
    }

    @Test func laterIDsSortLaterAndIDsOfOneMillisecondDiffer() {
        var generator = SystemRandomNumberGenerator()
        let first = GlobalID.make(.member, unixMilliseconds: 1_767_225_600_000, using: &generator)
        let twin = GlobalID.make(.member, unixMilliseconds: 1_767_225_600_000, using: &generator)
        let later = GlobalID.make(.member, unixMilliseconds: 1_767_225_600_001, using: &generator)
        #expect(first != twin)
        #expect(first.rawValue < later.rawValue && twin.rawValue < later.rawValue)
    }

    /// Clients making ids offline may use any UUID generator: versions and variants are not checked.
    @Test(arguments: [
        "6ba7b810-9dad-11d1-80b4-00c04fd430c8",  // version 1
        "6fa459ea-ee8a-3ca4-894e-db77e160355e",  // version 3
        "f47ac10b-58cc-4372-a567-0e02b2c3d479",  // version 4
        "886313e1-3b8a-5372-9b90-0c9aee199e5d",  // version 5
        "1ec9414c-232a-6b00-b3c8-9e6bdeced846",  // version 6
        "0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e1f",  // version 7
        "320c3d4d-cc00-875b-8ec9-32d5f69181c0",  // version 8
        "00000000-0000-0000-0000-000000000000",  // nil
        "ffffffff-ffff-ffff-ffff-ffffffffffff",  // max
        "0190a4c2-5b3e-7c4d-c000-000000000000",  // Microsoft's variant
    ])
    func acceptsAnyUUIDUnderAKnownPrefix(uuid: String) throws {
        let id = try #require(GlobalID(rawValue: "mem_\(uuid)"))
        #expect(id.kind == .member)
        #expect(id.rawValue == "mem_\(uuid)")
    }

    @Test(arguments: [
        "", "_", "hh", "hh_", "hh \(uuid)", "hh-\(uuid)", "hh__\(uuid)", "hh_\(uuid)_",
        "HH_\(uuid)", "Hh_\(uuid)", "hh_\(uuid.uppercased())", "hh_0190A4C2-5b3e-7c4d-8e5f-6a7b8c9d0e1f",
        " hh_\(uuid)", "hh_\(uuid) ", "hh_\(uuid)\n", "hh_{\(uuid)}", "hh_urn:uuid:\(uuid)",
        "hh_0190a4c25b3e7c4d8e5f6a7b8c9d0e1f", "hh_0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e1", "hh_\(uuid)0",
        "hh_0190a4c25-b3e-7c4d-8e5f-6a7b8c9d0e1f", "hh_0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e1g",
        "hh_0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e1\u{FF46}", "hh_0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e\u{0661}f",
        "job_\(uuid)", "xyz_\(uuid)", "user_\(uuid)", "usr_hh_\(uuid)", "hh_usr_\(uuid)",
        "\(uuid.uppercased())", "{\(uuid)}", "0190a4c25b3e7c4d8e5f6a7b8c9d0e1f", "1", "-1",
        String(repeating: "a", count: 10_000) + "_\(uuid)",
    ])
    func everythingElseIsMalformed(text: String) {
        #expect(GlobalID(rawValue: text) == nil)
        #expect(GlobalID.form(of: text) == .malformed)
        for kind in GlobalID.Kind.allCases {
            #expect(!GlobalID.mayName(kind, text))
        }
    }

    @Test func aBareUUIDIsALegacyIDThatMayNameAnyKindOfItsTime() {
        #expect(GlobalID(rawValue: Self.uuid) == nil)
        #expect(GlobalID.form(of: Self.uuid) == .legacy)
        let kindsOfThatTime: [GlobalID.Kind] = [.user, .session, .avatar, .household, .member, .invitation, .parentalConsent, .memberDeparture]
        for kind in GlobalID.Kind.allCases {
            #expect(kind.mayHaveLegacyIDs == kindsOfThatTime.contains(kind))
            #expect(GlobalID.mayName(kind, Self.uuid) == kindsOfThatTime.contains(kind), "kinds added later have no bare-UUID ids")
        }
    }

    @Test func aTypedIDMayNameOnlyItsOwnKind() {
        for kind in GlobalID.Kind.allCases {
            let text = "\(kind.rawValue)_\(Self.uuid)"
            for other in GlobalID.Kind.allCases {
                #expect(GlobalID.mayName(other, text) == (other == kind))
            }
        }
    }
}
