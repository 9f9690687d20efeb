import FoundationEssentials
import HearthServices
import Support
import Testing

/// The widget's one-tap action links (FR-66): deterministic, bound to user, instance and action,
/// expiring, and refused when altered in any character or signed with another key.
struct WidgetActionLinksTests {
    private let links = WidgetActionLinks(key: SecureRandom.bytes(WidgetActionLinks.keyLength))
    private let midnight = Date(timeIntervalSince1970: 1_804_032_000)  // 2027-03-02T00:00:00Z
    private var link: WidgetActionLinks.Link {
        WidgetActionLinks.Link(
            action: .complete, userID: "usr_0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e1f", instanceID: "chi_0190a4c2-5b3e-8c4d-8e5f-6a7b8c9d0e1f",
            expiresAt: midnight)
    }

    @Test func theSameLinkIsSignedTheSameEveryTimeAndReadsBackUntilItExpires() {
        let token = links.token(for: link)
        #expect(links.token(for: link) == token, "no nonce: the feed's ETag depends on its content only")
        #expect(token.hasPrefix("v1.complete.usr_"))
        #expect(token.allSatisfy { $0.isLetter || $0.isNumber || "._-".contains($0) }, "safe in a URL path as it is")
        #expect(links.verify(token, at: midnight.addingTimeInterval(-1)) == .valid(link))
        #expect(links.verify(token, at: midnight) == .expired(link))
        #expect(links.verify(token, at: midnight.addingTimeInterval(86_400)) == .expired(link))
    }

    @Test func eachPartIsBoundByTheTag() {
        var otherUser = link
        otherUser.userID = "usr_0190a4c2-5b3e-7c4d-8e5f-6a7b8c9d0e20"
        var otherInstance = link
        otherInstance.instanceID = "chi_0190a4c2-5b3e-8c4d-8e5f-6a7b8c9d0e20"
        var later = link
        later.expiresAt = midnight.addingTimeInterval(86_400)
        let tokens = [link, otherUser, otherInstance, later].map(links.token(for:))
        #expect(Set(tokens).count == 4)
        // Moving one link's parts into another's token breaks the tag.
        let original = tokens[0]
        let tag = String(original[original.index(after: original.lastIndex(of: ".")!)...])
        for other in tokens.dropFirst() {
            let message = String(other[..<other.lastIndex(of: ".")!])
            #expect(links.verify(message + "." + tag, at: midnight.addingTimeInterval(-60)) == .invalid)
        }
    }

    @Test func aTokenChangedInAnyCharacterOrSignedWithAnotherKeyIsRefused() {
        let token = links.token(for: link)
        let before = midnight.addingTimeInterval(-60)
        for index in token.indices {
            var altered = token
            altered.replaceSubrange(index...index, with: token[index] == "A" ? "B" : "A")
            #expect(links.verify(altered, at: before) == .invalid, "changed at \(token.distance(from: token.startIndex, to: index))")
        }
        let forged = WidgetActionLinks(key: SecureRandom.bytes(WidgetActionLinks.keyLength)).token(for: link)
        #expect(links.verify(forged, at: before) == .invalid)
        for malformed in ["", ".", "v1", "v1.complete.a.b.c", "v2" + token.dropFirst(2), token + "x", String(token.dropLast())] {
            #expect(links.verify(malformed, at: before) == .invalid, "\(malformed)")
        }
    }

    @Test func expiryIsKeptInWholeSeconds() {
        let fractional = WidgetActionLinks.Link(action: .complete, userID: link.userID, instanceID: link.instanceID, expiresAt: midnight.addingTimeInterval(0.75))
        #expect(fractional == link)
        #expect(links.token(for: fractional) == links.token(for: link))
    }
}
