import FoundationEssentials
import HearthDomain
@testable import HearthServices
import TestFixtures
import Testing

/// A profile change (name, picture, time zone) reaches the devices of everyone who shows it: the
/// user's own account, and each follow of theirs on the other user's stream.
@Suite struct SyncProfileTests {
    /// `viewer`'s ids after `since`, every page of them.
    private static func ids(_ sync: SyncService, since: String, viewer: Viewer) async throws -> [String] {
        let page = try await sync.changes(since: since, first: 100, viewer: viewer)
        #expect(!page.hasMore)
        return page.entries.map(\.objectID)
    }

    /// The cursor after everything `viewer` may read now.
    private static func end(_ sync: SyncService, viewer: Viewer) async throws -> String {
        var page = try await sync.changes(since: nil, first: 100, viewer: viewer)
        while page.hasMore { page = try await sync.changes(since: page.endCursor.description, first: 100, viewer: viewer) }
        return page.endCursor.description
    }

    @Test(arguments: [ProfileChange(displayName: "Benjamin"), ProfileChange(timeZone: .some("Europe/Madrid"))])
    func aProfileChangeTouchesTheAccountAndEachFollowOnTheOtherUsersStream(change: ProfileChange) async throws {
        try await HouseholdsHarness.with { harness in
            let sync = SyncService(configuration: SyncConfiguration(), households: harness.service)
            let follows = FollowService(configuration: FollowingConfiguration(), households: harness.service)
            let ana = try await harness.confirmedViewer("ana"), ben = try await harness.confirmedViewer("ben")
            let carl = try await harness.confirmedViewer("carl"), dora = try await harness.confirmedViewer("dora")
            let accepted = try await follows.requestFollow(username: "ben", viewer: ana)
            _ = try await follows.acceptFollowRequest(id: accepted.id, viewer: ben)
            let asked = try await follows.requestFollow(username: "carl", viewer: ben)
            let cursors = (
                ana: try await Self.end(sync, viewer: ana), ben: try await Self.end(sync, viewer: ben),
                carl: try await Self.end(sync, viewer: carl), dora: try await Self.end(sync, viewer: dora))
            _ = try await harness.accounts.service.updateProfile(viewer: ben, change)
            #expect(try await Self.ids(sync, since: cursors.ben, viewer: ben) == [ben.userID])
            // The time zone is shown to its owner only; the name to whoever shows a follow of theirs.
            let shown = change.displayName != nil
            #expect(try await Self.ids(sync, since: cursors.ana, viewer: ana) == (shown ? [accepted.id] : []))
            #expect(try await Self.ids(sync, since: cursors.carl, viewer: carl) == (shown ? [asked.id] : []))
            #expect(try await Self.ids(sync, since: cursors.dora, viewer: dora).isEmpty)
        }
    }
}
