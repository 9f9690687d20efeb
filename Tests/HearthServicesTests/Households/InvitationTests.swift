import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Invitations (FR-12, FR-13, FR-ONBOARD-4) at the service level: the invited member and its
/// single-use link, accepting and declining bound to the confirmed address, resending,
/// revoking, expiry on the manual clock, the limits at their edges and every refusal.
struct InvitationTests {
    /// The client address the invites come from (registrations use another, so the email rate
    /// limit per address is the invites' own).
    static let client = "198.51.100.7"
    static let fourteenDays = 14.0 * 24 * 3600

    // MARK: - Inviting

    @Test func invitingCreatesAnInvitedMemberAndEmailsALinkToTheAddress() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            let started = harness.clock.now
            let issued = try await Self.invite(harness, householdID, "Ben@Example.com", as: ana)
            let invitation = issued.invitation
            #expect(invitation.email == "Ben@example.com")
            #expect(invitation.member.status == .invited && invitation.member.userID == nil)
            #expect(invitation.member.kind == .parent && invitation.member.role == .member)
            #expect(invitation.member.displayName == HouseholdService.unnamedInviteeName, "no part of the address on the roster")
            #expect(invitation.invitedBy?.id == issued.access.memberID)
            #expect(invitation.sendCount == 1 && !invitation.isExpired)
            #expect(invitation.expiresAt == started.addingTimeInterval(Self.fourteenDays))
            #expect(issued.link == "https://hearth.example/invitation?token=\(issued.token)")
            let mail = try #require(harness.mail.all.last)
            #expect(mail.to == "Ben@example.com")
            #expect(mail.subject.contains("Flat") && mail.text.contains("14 days") && mail.text.contains(issued.link))
            #expect(harness.mail.latestToken(to: "Ben@example.com") == issued.token)
            #expect(try await Self.events(harness, householdID).last == "member.invited")
            let access = try await harness.service.access(viewer: ana, householdID: householdID)
            #expect(try await harness.service.invitations(access).map(\.id) == [invitation.id])
        }
    }

    @Test func theDisplayNameGivenShowsUntilTheInviteeJoinsUnderTheirAccountName() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await harness.service.inviteMember(
                .init(householdID: householdID, email: "ben@example.com", displayName: "  Uncle Ben "), viewer: ana, clientAddress: Self.client)
            #expect(issued.invitation.member.displayName == "Uncle Ben")
            let joined = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben)
            #expect(joined.member.displayName == "ben")
        }
    }

    @Test func invalidInputReportsEveryProblemAndStoresNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            let error = await #expect(throws: ServiceError.self) {
                try await harness.service.inviteMember(
                    .init(householdID: householdID, email: "not an address", kind: .child, displayName: String(repeating: "x", count: 81)),
                    viewer: ana, clientAddress: Self.client)
            }
            #expect(error?.code == .badUserInput)
            #expect(error?.problems.map(\.field) == ["input.email", "input.kind", "input.displayName"])
            #expect(error?.problems.map(\.reason) == [.invalidFormat, .notAllowed, .tooLong])
            for kind in [MemberKind.shadow, .child] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await Self.invite(harness, householdID, "ben@example.com", as: ana, kind: kind)
                }
                #expect(refused?.problems.map(\.field) == ["input.kind"])
            }
            #expect(try await Self.count(harness, "SELECT count(*) FROM members WHERE household_id = '\(householdID)'") == 1)
        }
    }

    @Test func invitingACoParentGivesAnAdminCoParentAndCountsTheKindInAnalytics() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            try await harness.pool.write { try $0.execute("UPDATE users SET analytics_consented_at = '2026-01-01T00:00:00.000Z' WHERE id = ?", [ana.userID]) }
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await harness.service.inviteCoParent(
                householdID: householdID, email: "ben@example.com", viewer: ana, clientAddress: Self.client)
            #expect(issued.invitation.member.kind == .coParent && issued.invitation.member.role == .admin)
            _ = try await Self.invite(harness, householdID, "cara@example.com", as: ana)
            let properties = try await harness.pool.read { database in
                try database.query("SELECT properties FROM analytics_events WHERE name = 'member_invited' ORDER BY id").map { row -> String in
                    try row["properties"]
                }
            }
            #expect(properties == [#"{"kind":"coParent"}"#, #"{"kind":"parent"}"#])
            let joined = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben)
            #expect(joined.member.kind == .coParent && joined.access.isAdmin)
            // As an admin, the co-parent manages the household's invitations.
            _ = try await Self.invite(harness, householdID, "dan@example.com", as: ben)
        }
    }

    @Test func invitingSomeoneWhoIsAlreadyAMemberIsAFriendlyConflict() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            _ = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben)
            let mailsBefore = harness.mail.all.count
            for address in ["BEN@example.com", "ana@example.com"] {
                let error = await #expect(throws: ServiceError.self) {
                    try await harness.service.inviteCoParent(householdID: householdID, email: address, viewer: ana, clientAddress: Self.client)
                }
                #expect(error?.code == .conflict && error?.reason == .alreadyMember)
                #expect(error?.message.hasSuffix("is already a member of Flat.") == true)
                #expect(error?.problems.first?.field == "input.email")
            }
            #expect(harness.mail.all.count == mailsBefore)
        }
    }

    @Test func aSecondInvitationToAPendingAddressIsAConflict() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            _ = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let error = await #expect(throws: ServiceError.self) {
                try await Self.invite(harness, householdID, "Ben@EXAMPLE.com", as: ana, kind: .coParent, role: .admin)
            }
            #expect(error?.code == .conflict && error?.reason == .alreadyInvited)
            #expect(error?.message.contains("resendInvitation") == true)
            #expect(harness.mail.all.filter { $0.to.lowercased() == "ben@example.com" }.count == 1)
        }
    }

    @Test func theMemberLimitCountsInvitedMembersAndHoldsAtItsEdge() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumMembersPerHousehold = 3 }) { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            _ = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let cara = try await Self.invite(harness, householdID, "cara@example.com", as: ana)
            let error = await #expect(throws: ServiceError.self) { try await Self.invite(harness, householdID, "dan@example.com", as: ana) }
            #expect(error?.code == .conflict && error?.reason == .limitReached && error?.message.contains("3 members") == true)
            _ = try await harness.service.revokeInvitation(id: cara.invitation.id, viewer: ana)
            _ = try await Self.invite(harness, householdID, "dan@example.com", as: ana)
        }
    }

    @Test func thePendingInvitationLimitHoldsAtItsEdge() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumPendingInvitations = 2 }) { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let first = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            _ = try await Self.invite(harness, householdID, "cara@example.com", as: ana)
            let error = await #expect(throws: ServiceError.self) { try await Self.invite(harness, householdID, "dan@example.com", as: ana) }
            #expect(error?.code == .conflict && error?.reason == .limitReached && error?.message.contains("2 invitations") == true)
            // An accepted invitation is no longer pending.
            _ = try await harness.service.acceptInvitation(.token(first.token), viewer: ben)
            _ = try await Self.invite(harness, householdID, "dan@example.com", as: ana)
        }
    }

    @Test func onlyAdminsWithAConfirmedAddressInviteAndNonMembersLearnNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let cara = try await harness.confirmedViewer("cara")
            let householdID = try await Self.household(harness, admin: ana)
            let joined = try await harness.service.acceptInvitation(
                .token(try await Self.invite(harness, householdID, "ben@example.com", as: ana).token), viewer: ben)
            let pending = try await Self.invite(harness, householdID, "dan@example.com", as: ana).invitation
            for (viewer, code) in [(ben, ServiceError.Code.forbidden), (cara, .notFound)] {
                let invite = await #expect(throws: ServiceError.self) { try await Self.invite(harness, householdID, "eve@example.com", as: viewer) }
                #expect(invite?.code == code)
                let resend = await #expect(throws: ServiceError.self) {
                    try await harness.service.resendInvitation(id: pending.id, viewer: viewer, clientAddress: Self.client)
                }
                #expect(resend?.code == code)
                let revoke = await #expect(throws: ServiceError.self) { try await harness.service.revokeInvitation(id: pending.id, viewer: viewer) }
                #expect(revoke?.code == code)
            }
            let unknown = await #expect(throws: ServiceError.self) { try await harness.service.revokeInvitation(id: "nope", viewer: ana) }
            #expect(unknown?.code == .notFound)
            // Members see no invitations (the addresses are the admins' business).
            #expect(try await harness.service.invitations(joined.access).isEmpty)
            // An admin whose address is no longer confirmed cannot invite.
            try await harness.pool.write { try $0.execute("UPDATE users SET email_confirmed_at = NULL WHERE id = ?", [ana.userID]) }
            let unconfirmed = await #expect(throws: ServiceError.self) { try await Self.invite(harness, householdID, "eve@example.com", as: ana) }
            #expect(unconfirmed?.code == .emailNotConfirmed)
        }
    }

    @Test(.enabled(if: TestDatabaseStore.isSQLite, "reads the bytes of SQLite's database file and write-ahead log"))
    func aReplayedInviteReturnsTheFirstInvitationAndLinkAndSendsNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            let request = HouseholdService.NewInvitation(householdID: householdID, email: "ben@example.com")
            let first = try await harness.service.inviteMember(request, viewer: ana, clientAddress: Self.client, clientMutationID: "m-1")
            let mails = harness.mail.all.count
            let replay = try await harness.service.inviteMember(request, viewer: ana, clientAddress: Self.client, clientMutationID: "m-1")
            #expect(replay.invitation.id == first.invitation.id && replay.token == first.token && replay.link == first.link)
            #expect(harness.mail.all.count == mails)
            #expect(try await Self.count(harness, "SELECT count(*) FROM invitations") == 1)
            #expect(try harness.tablesContaining(first.token).isEmpty, "the replay record holds no token, nor does any row")
            #expect(try !harness.databaseFilesContain(first.token))
        }
    }

    @Test func aReplayAfterAResendAnswersWithTheLinkThatWorksNow() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let request = HouseholdService.NewInvitation(householdID: householdID, email: "ben@example.com")
            let first = try await harness.service.inviteMember(request, viewer: ana, clientAddress: Self.client, clientMutationID: "m-1")
            let resent = try await harness.service.resendInvitation(
                id: first.invitation.id, viewer: ana, clientAddress: Self.client, clientMutationID: "m-2")
            let replay = try await harness.service.inviteMember(request, viewer: ana, clientAddress: Self.client, clientMutationID: "m-1")
            #expect(replay.token == resent.token && replay.link == resent.link && replay.token != first.token)
            let replayedResend = try await harness.service.resendInvitation(
                id: first.invitation.id, viewer: ana, clientAddress: Self.client, clientMutationID: "m-2")
            #expect(replayedResend.token == resent.token)
            _ = try await harness.service.acceptInvitation(.token(replay.token), viewer: ben)
        }
    }

    @Test func emailsToOneAddressAreRateLimitedAndARefusedResendChangesNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "zoe@example.org", as: ana)
            var token = issued.token
            for _ in 0..<2 {
                token = try await harness.service.resendInvitation(id: issued.invitation.id, viewer: ana, clientAddress: Self.client).token
            }
            let error = await #expect(throws: ServiceError.self) {
                try await harness.service.resendInvitation(id: issued.invitation.id, viewer: ana, clientAddress: Self.client)
            }
            #expect(error?.code == .rateLimited && (error?.retryAfter ?? 0) > 0)
            #expect(try await harness.service.invitationPreview(token: token).id == issued.invitation.id)
        }
    }

    // MARK: - Resending, revoking, expiry

    @Test func resendingInvalidatesTheOldLinkAndRenewsTheExpiry() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let first = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            harness.clock.advance(seconds: 10 * 24 * 3600)
            let again = try await harness.service.resendInvitation(id: first.invitation.id, viewer: ana, clientAddress: Self.client)
            #expect(again.invitation.id == first.invitation.id && again.token != first.token)
            #expect(again.invitation.sendCount == 2 && again.invitation.sentAt == harness.clock.now)
            #expect(again.invitation.expiresAt == harness.clock.now.addingTimeInterval(Self.fourteenDays))
            #expect(harness.mail.latestToken(to: "ben@example.com") == again.token)
            let old = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(first.token), viewer: ben) }
            #expect(old?.code == .badUserInput && old?.reason == .linkInvalid)
            // Past the first expiry, within the new one.
            harness.clock.advance(seconds: 5 * 24 * 3600)
            _ = try await harness.service.acceptInvitation(.token(again.token), viewer: ben)
            #expect(try await Self.events(harness, householdID).suffix(3) == ["member.invited", "member.invited", "member.joined"])
        }
    }

    @Test func anInvitationWorksUntilItsExpiryAndNotAfter() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let cara = try await harness.confirmedViewer("cara")
            let householdID = try await Self.household(harness, admin: ana)
            let toBen = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let toCara = try await Self.invite(harness, householdID, "cara@example.com", as: ana)
            harness.clock.advance(seconds: Self.fourteenDays - 1)
            _ = try await harness.service.acceptInvitation(.token(toBen.token), viewer: ben)
            harness.clock.advance(seconds: 1)
            let expired = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(toCara.token), viewer: cara) }
            #expect(expired?.code == .badUserInput && expired?.reason == .invitationExpired)
            let byID = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.id(toCara.invitation.id), viewer: cara) }
            #expect(byID?.reason == .invitationExpired)
            #expect(try await harness.service.invitationPreview(token: toCara.token).isExpired)
            #expect(try await harness.service.myInvitations(viewer: cara).map(\.isExpired) == [true])
            let access = try await harness.service.access(viewer: ana, householdID: householdID)
            #expect(try await harness.service.invitations(access).map(\.isExpired) == [true])
            // An expired invitation can still be declined, and renewed by a resend.
            let renewed = try await harness.service.resendInvitation(id: toCara.invitation.id, viewer: ana, clientAddress: Self.client)
            #expect(!renewed.invitation.isExpired)
            #expect(try await harness.service.declineInvitation(.token(renewed.token), viewer: cara) == toCara.invitation.id)
        }
    }

    @Test func revokingRemovesTheInvitedMemberAndKillsTheLink() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let revocation = try await harness.service.revokeInvitation(id: issued.invitation.id, viewer: ana)
            #expect(revocation.revokedInvitationID == issued.invitation.id)
            let household = revocation.household.record
            #expect(household.id == householdID)
            #expect(try await Self.count(harness, "SELECT count(*) FROM members WHERE id = '\(issued.invitation.member.id)'") == 0)
            #expect(try await Self.count(harness, "SELECT count(*) FROM invitations") == 0)
            #expect(try await harness.service.myInvitations(viewer: ben).isEmpty)
            let error = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(issued.token), viewer: ben) }
            #expect(error?.reason == .linkInvalid)
            let preview = await #expect(throws: ServiceError.self) { try await harness.service.invitationPreview(token: issued.token) }
            #expect(preview?.reason == .linkInvalid)
            #expect(try await Self.events(harness, householdID).last == "member.removed")
        }
    }

    // MARK: - Answering

    @Test func acceptingJoinsWithTheInvitedRoleOnceAndMakesTheFirstHouseholdActive() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana, role: .admin)
            #expect(try await harness.service.activeHouseholdID(viewer: ben) == nil)
            harness.clock.advance(seconds: 60)
            let joined = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben)
            #expect(joined.household.id == householdID)
            #expect(joined.member.id == issued.invitation.member.id && joined.member.userID == ben.userID)
            #expect(joined.member.status == .active && joined.member.role == .admin && joined.member.kind == .parent)
            #expect(joined.member.joinedAt == harness.clock.now)
            #expect(try await harness.service.activeHouseholdID(viewer: ben) == householdID)
            #expect(try await Self.count(harness, "SELECT count(*) FROM invitations") == 0)
            #expect(try await Self.events(harness, householdID).last == "member.joined")
            let again = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(issued.token), viewer: ben) }
            #expect(again?.code == .badUserInput && again?.reason == .linkInvalid)
        }
    }

    @Test func joiningAnotherHouseholdKeepsTheActiveOne() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let own = try await harness.service.createHousehold(.init(name: "Ben's"), viewer: ben).household.id
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            _ = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben)
            #expect(try await harness.service.activeHouseholdID(viewer: ben) == own)
        }
    }

    @Test func myInvitationsListsThoseToTheConfirmedAddressNewestFirstAndAcceptsByID() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let cara = try await harness.confirmedViewer("cara")
            let flat = try await Self.household(harness, admin: ana)
            let cabin = try await harness.service.createHousehold(.init(name: "Cabin", emoji: "🌲"), viewer: cara).household.id
            let first = try await Self.invite(harness, flat, "ben@example.com", as: ana, kind: .coParent, role: .admin)
            harness.clock.advance(seconds: 1)
            let second = try await Self.invite(harness, cabin, "BEN@example.com", as: cara)
            let received = try await harness.service.myInvitations(viewer: ben)
            #expect(received.map(\.id) == [second.invitation.id, first.invitation.id])
            #expect(received[0].householdName == "Cabin" && received[0].householdEmoji == "🌲" && received[0].invitedByName == "cara")
            #expect(received[1].householdName == "Flat" && received[1].kind == .coParent && received[1].role == .admin)
            #expect(try await harness.service.myInvitations(viewer: ana).isEmpty)
            let joined = try await harness.service.acceptInvitation(.id(first.invitation.id), viewer: ben)
            #expect(joined.household.id == flat && joined.member.kind == .coParent)
            #expect(try await harness.service.myInvitations(viewer: ben).map(\.id) == [second.invitation.id])
        }
    }

    @Test func theLinkPreviewShowsTheHouseholdToAnyoneHoldingTheToken() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let preview = try await harness.service.invitationPreview(token: issued.token)
            #expect(preview.id == issued.invitation.id && preview.householdName == "Flat" && preview.invitedByName == "ana")
            #expect(preview.email == "ben@example.com" && preview.kind == .parent && preview.role == .member && !preview.isExpired)
            let unknown = await #expect(throws: ServiceError.self) { try await harness.service.invitationPreview(token: "made-up") }
            #expect(unknown?.code == .badUserInput && unknown?.reason == .linkInvalid)
        }
    }

    @Test func anotherAccountCannotAcceptOrDeclineTheInvitation() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let cara = try await harness.confirmedViewer("cara")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            for answer in [Answer.accept, .decline] {
                let byToken = await #expect(throws: ServiceError.self) { try await answer.run(harness, .token(issued.token), cara) }
                #expect(byToken?.code == .forbidden && byToken?.reason == .invitationForAnotherAddress)
                let byID = await #expect(throws: ServiceError.self) { try await answer.run(harness, .id(issued.invitation.id), cara) }
                #expect(byID?.code == .notFound && byID?.reason == nil)
                let unknownID = await #expect(throws: ServiceError.self) { try await answer.run(harness, .id("nope"), cara) }
                #expect(unknownID == byID)
            }
            #expect(try await harness.service.myInvitations(viewer: cara).isEmpty)
            #expect(try await Self.count(harness, "SELECT count(*) FROM invitations") == 1)
        }
    }

    @Test func anAccountThatMovesToTheInvitedAddressCanAccept() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let cara = try await harness.confirmedViewer("cara")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "cara.work@example.org", as: ana)
            let refused = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(issued.token), viewer: cara) }
            #expect(refused?.reason == .invitationForAnotherAddress)
            _ = try await harness.accounts.service.requestEmailChange(
                viewer: cara, newEmail: "cara.work@example.org", proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.9")
            _ = try await harness.accounts.service.confirmEmail(token: try #require(harness.mail.latestToken(to: "cara.work@example.org")))
            let joined = try await harness.service.acceptInvitation(.token(issued.token), viewer: cara)
            #expect(joined.member.userID == cara.userID)
        }
    }

    @Test func anUnconfirmedAddressCanNeitherSeeNorAnswerInvitations() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let (_, session) = try await harness.accounts.register("dan")
            let dan = try await harness.accounts.service.authenticate(accessToken: session.accessToken)
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "dan@example.com", as: ana)
            #expect(try await harness.service.myInvitations(viewer: dan).isEmpty)
            for reference in [InvitationReference.token(issued.token), .id(issued.invitation.id)] {
                let error = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(reference, viewer: dan) }
                #expect(error?.code == .emailNotConfirmed)
            }
        }
    }

    @Test func declineRemovesTheInvitationAndItsMemberOnce() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let byToken = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            #expect(try await harness.service.declineInvitation(.token(byToken.token), viewer: ben) == byToken.invitation.id)
            #expect(try await Self.count(harness, "SELECT count(*) FROM members WHERE household_id = '\(householdID)'") == 1)
            #expect(try await Self.events(harness, householdID).last == "member.removed")
            let twice = await #expect(throws: ServiceError.self) { try await harness.service.declineInvitation(.token(byToken.token), viewer: ben) }
            #expect(twice?.reason == .linkInvalid)
            let byID = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            #expect(try await harness.service.declineInvitation(.id(byID.invitation.id), viewer: ben) == byID.invitation.id)
            #expect(try await harness.service.myInvitations(viewer: ben).isEmpty)
            #expect(try await harness.service.activeHouseholdID(viewer: ben) == nil)
        }
    }

    @Test func aMemberAcceptingAStaleInvitationGetsAConflictAndCanDeclineIt() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let toWork = try await Self.invite(harness, householdID, "ben.work@example.org", as: ana)
            let toHome = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            _ = try await harness.service.acceptInvitation(.token(toHome.token), viewer: ben)
            _ = try await harness.accounts.service.requestEmailChange(
                viewer: ben, newEmail: "ben.work@example.org", proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.9")
            _ = try await harness.accounts.service.confirmEmail(token: try #require(harness.mail.latestToken(to: "ben.work@example.org")))
            let error = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(toWork.token), viewer: ben) }
            #expect(error?.code == .conflict && error?.reason == .alreadyMember && error?.message.contains("Flat") == true)
            #expect(try await harness.service.myInvitations(viewer: ben).map(\.id) == [toWork.invitation.id])
            _ = try await harness.service.declineInvitation(.token(toWork.token), viewer: ben)
            #expect(try await Self.count(harness, "SELECT count(*) FROM invitations") == 0)
        }
    }

    @Test func acceptingBeyondTheHouseholdsPerUserLimitIsAConflictAndKeepsTheInvitation() async throws {
        try await HouseholdsHarness.with(configure: { $0.maximumHouseholdsPerUser = 1 }) { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            _ = try await harness.service.createHousehold(.init(name: "Ben's"), viewer: ben)
            let error = await #expect(throws: ServiceError.self) { try await harness.service.acceptInvitation(.token(issued.token), viewer: ben) }
            #expect(error?.code == .conflict && error?.reason == .limitReached)
            #expect(try await harness.service.invitationPreview(token: issued.token).id == issued.invitation.id)
        }
    }

    // MARK: - Replays

    @Test func aReplayedAcceptReturnsTheFirstJoinAndChangesNothing() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let issued = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let joined = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben, clientMutationID: "queue-1")
            let events = try await Self.events(harness, householdID)
            harness.clock.advance(seconds: 60)
            let replayed = try await harness.service.acceptInvitation(.token(issued.token), viewer: ben, clientMutationID: "queue-1")
            #expect(replayed.household.id == householdID && replayed.member.id == joined.member.id)
            #expect(replayed.member.status == .active && replayed.member.joinedAt == joined.member.joinedAt)
            #expect(try await Self.events(harness, householdID) == events)
            #expect(try await Self.count(harness, "SELECT count(*) FROM members WHERE household_id = '\(householdID)'") == 2)
            let fresh = await #expect(throws: ServiceError.self) {
                try await harness.service.acceptInvitation(.token(issued.token), viewer: ben, clientMutationID: "queue-2")
            }
            #expect(fresh?.reason == .linkInvalid, "a new id runs again and finds the token spent")
            let reused = await #expect(throws: ServiceError.self) {
                try await harness.service.declineInvitation(.token(issued.token), viewer: ben, clientMutationID: "queue-1")
            }
            #expect(reused?.code == .conflict && reused?.reason == .clientMutationIdReused)
        }
    }

    @Test func aReplayedDeclineReturnsTheDeclinedIDAndLeavesANewInvitationAlone() async throws {
        try await HouseholdsHarness.with { harness in
            let ana = try await harness.confirmedViewer("ana")
            let ben = try await harness.confirmedViewer("ben")
            let householdID = try await Self.household(harness, admin: ana)
            let first = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let declined = try await harness.service.declineInvitation(.id(first.invitation.id), viewer: ben, clientMutationID: "no-1")
            #expect(declined == first.invitation.id)
            let second = try await Self.invite(harness, householdID, "ben@example.com", as: ana)
            let events = try await Self.events(harness, householdID)
            let replayed = try await harness.service.declineInvitation(.id(first.invitation.id), viewer: ben, clientMutationID: "no-1")
            #expect(replayed == first.invitation.id)
            #expect(try await harness.service.myInvitations(viewer: ben).map(\.id) == [second.invitation.id])
            #expect(try await Self.events(harness, householdID) == events)
        }
    }

    // MARK: - Helpers

    /// Accepting or declining, for tests that check both answer the same.
    enum Answer {
        case accept, decline

        func run(_ harness: HouseholdsHarness, _ reference: InvitationReference, _ viewer: Viewer) async throws {
            switch self {
            case .accept: _ = try await harness.service.acceptInvitation(reference, viewer: viewer)
            case .decline: _ = try await harness.service.declineInvitation(reference, viewer: viewer)
            }
        }
    }

    /// A household named Flat with `admin` as its admin.
    static func household(_ harness: HouseholdsHarness, admin: Viewer) async throws -> String {
        try await harness.service.createHousehold(.init(name: "Flat"), viewer: admin).household.id
    }

    /// Invites `email` to `householdID` as `viewer`.
    @discardableResult
    static func invite(
        _ harness: HouseholdsHarness, _ householdID: String, _ email: String, as viewer: Viewer, kind: MemberKind = .parent,
        role: MemberRole = .member
    ) async throws -> HouseholdService.IssuedInvitation {
        try await harness.service.inviteMember(
            .init(householdID: householdID, email: email, role: role, kind: kind), viewer: viewer, clientAddress: client)
    }

    /// The kinds of the events recorded for `householdID`, oldest first.
    static func events(_ harness: HouseholdsHarness, _ householdID: String) async throws -> [String] {
        try await harness.pool.read { database in
            try database.query("SELECT kind FROM change_log WHERE topic = ? ORDER BY sequence", ["household:\(householdID)"])
                .map { row -> String in try row["kind"] }
        }
    }

    /// The count `sql` answers.
    static func count(_ harness: HouseholdsHarness, _ sql: String) async throws -> Int {
        try await harness.pool.read { try $0.scalar(Int.self, sql) ?? 0 }
    }
}
