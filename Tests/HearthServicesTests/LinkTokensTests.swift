import HearthServices
import Support
import Testing

/// Emailed links' tokens: an id the database keeps and a tag only the link key makes.
struct LinkTokensTests {
    private let links = LinkTokens(key: SecureRandom.bytes(LinkTokens.keyLength))

    @Test func aTokenIsItsRandomIdAndATagAndNamesItsIdWhenPresentedBack() throws {
        let token = links.issue(.emailToken)
        let bytes = try #require(Base64URL.decode(token.value))
        #expect(token.value.count == 64 && bytes.count == 48 && token.id.count == 16)
        #expect(Array(bytes.prefix(16)) == token.id)
        #expect(links.id(of: token.value, as: .emailToken) == token.id)
        #expect(links.token(.emailToken, id: token.id) == token, "derived again from its id, the same token")
        #expect(links.issue(.emailToken).id != token.id)
    }

    @Test func theIdAloneMakesNoTokenWithoutTheKey() {
        let token = links.issue(.invitation)
        // What a copy of the database holds is the id: with any other key it makes no token.
        let forged = LinkTokens(key: SecureRandom.bytes(LinkTokens.keyLength)).token(.invitation, id: token.id)
        #expect(forged.value != token.value)
        #expect(links.id(of: forged.value, as: .invitation) == nil)
    }

    @Test func aTokenOfAnotherKindOrChangedInAnyCharacterIsRefused() throws {
        let token = links.issue(.invitation)
        #expect(links.id(of: token.value, as: .emailToken) == nil)
        for index in token.value.indices {
            var changed = token.value
            changed.replaceSubrange(index...index, with: token.value[index] == "A" ? "B" : "A")
            #expect(links.id(of: changed, as: .invitation) == nil, "changed at \(token.value.distance(from: token.value.startIndex, to: index))")
        }
        for text in ["", "made-up", String(token.value.dropLast()), token.value + "A", token.value + "=", Base64URL.encode(token.id)] {
            #expect(links.id(of: text, as: .invitation) == nil, "\(text)")
        }
    }
}
