import TestFixtures
import FoundationEssentials
import HearthServices
import HearthStore
import Support
import Testing

struct AvatarTests {
    /// A 1×1 PNG written by libpng.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)

    private func signedIn(_ harness: AccountsHarness) async throws -> Viewer {
        let (_, issued) = try await harness.register()
        return try await harness.service.authenticate(accessToken: issued.accessToken)
    }

    @Test func storesTheCheckedImageWithItsTypeSizeAndDigest() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await signedIn(harness)
            let user = try await harness.service.setAvatar(viewer: viewer, bytes: Self.png)
            let id = try #require(user.avatarId)
            let stored = try #require(try await harness.service.avatar(id: id))
            #expect(stored.bytes == Self.png && stored.mediaType == "image/png" && stored.width == 1 && stored.height == 1)
            #expect(stored.sha256 == SHA256.hexDigest(of: Self.png) && stored.userID == viewer.userID)
            #expect(harness.service.avatarURL(id: id) == "https://hearth.example/avatars/\(id)")
        }
    }

    @Test func aNewUploadGetsANewIdAndDeletesThePreviousImage() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await signedIn(harness)
            let first = try #require(try await harness.service.setAvatar(viewer: viewer, bytes: Self.png).avatarId)
            let second = try #require(try await harness.service.setAvatar(viewer: viewer, bytes: Self.png).avatarId)
            #expect(first != second)
            #expect(try await harness.service.avatar(id: first) == nil)
            #expect(try await harness.service.avatar(id: second) != nil)
            #expect(try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM avatars") } == 1)
        }
    }

    @Test func removingTheAvatarDeletesItAndLeavesNone() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await signedIn(harness)
            let id = try #require(try await harness.service.setAvatar(viewer: viewer, bytes: Self.png).avatarId)
            #expect(try await harness.service.updateProfile(viewer: viewer, ProfileChange(removesAvatar: true)).avatarId == nil)
            #expect(try await harness.service.avatar(id: id) == nil)
            #expect(try await harness.service.updateProfile(viewer: viewer, ProfileChange(removesAvatar: true)).avatarId == nil)
        }
    }

    @Test func refusesAFakeImageAndKeepsTheCurrentOne() async throws {
        try await AccountsHarness.with { harness in
            let viewer = try await signedIn(harness)
            let id = try #require(try await harness.service.setAvatar(viewer: viewer, bytes: Self.png).avatarId)
            let error = await #expect(throws: ServiceError.self) {
                try await harness.service.setAvatar(viewer: viewer, bytes: Array("<html><script>alert(1)</script></html>".utf8))
            }
            #expect(error?.code == .badUserInput)
            #expect(error?.problems.first?.field == "input.avatar" && error?.problems.first?.reason == .unsupportedFormat)
            #expect(try await harness.service.user(id: viewer.userID)?.avatarId == id)
        }
    }

    @Test func refusesAnImageOverTheConfiguredSize() async throws {
        try await AccountsHarness.with(configure: { $0.avatarRules.maximumBytes = Self.png.count - 1 }) { harness in
            let viewer = try await signedIn(harness)
            let error = await #expect(throws: ServiceError.self) { try await harness.service.setAvatar(viewer: viewer, bytes: Self.png) }
            #expect(error?.problems.first?.reason == .tooLarge)
        }
    }
}
