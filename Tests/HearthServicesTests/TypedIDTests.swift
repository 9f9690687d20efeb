import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// Global ids carry their type (``GlobalID``): every stored object gets one of its kind, an id of
/// another type is answered like an unknown id without reading anything, and the bare-UUID ids
/// issued before keep resolving.
struct TypedIDTests {
    /// Connections the pool lent since it opened: unchanged across a call means the call read
    /// and wrote nothing.
    private static func lendings(_ store: any DatabaseWriter) throws -> Int {
        try StoreStatistics.lendings(of: store)
    }

    /// `id` with its prefix replaced by `kind`'s: the same UUID, named as another type.
    private static func retyped(_ id: String, as kind: GlobalID.Kind) throws -> String {
        let typed = try #require(GlobalID(rawValue: id))
        return kind.rawValue + id.dropFirst(typed.kind.rawValue.count)
    }

    private static func kind(of id: String?) -> GlobalID.Kind? {
        id.flatMap { GlobalID(rawValue: $0)?.kind }
    }

    @Test func everyStoredObjectGetsAnIDOfItsType() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            #expect(Self.kind(of: ana.userID) == .user)
            #expect(Self.kind(of: ana.sessionID) == .session)
            #expect(Self.kind(of: try await h.accounts.service.setAvatar(viewer: ana, bytes: AvatarTests.png).avatarId) == .avatar)
            let (household, member, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            #expect(Self.kind(of: household.id) == .household)
            #expect(Self.kind(of: member.id) == .member)
            let invitation = try await h.service.inviteMember(
                .init(householdID: household.id, email: "dan@example.com"), viewer: ana, clientAddress: "192.0.2.1").invitation
            #expect(Self.kind(of: invitation.id) == .invitation)
            #expect(Self.kind(of: invitation.member.id) == .member)
            let consent = try await h.service.recordParentalConsent(
                householdID: household.id, method: .emailPlus, path: .ownAccount, attestation: "I am the parent and consent.",
                termsVersion: h.service.configuration.termsVersion, viewer: ana)
            #expect(Self.kind(of: consent.id) == .parentalConsent)
            let child = try await h.service.addMember(
                householdID: household.id, .init(kind: .child, displayName: "Kid", age: 8, consentID: consent.id), viewer: ana)
            #expect(Self.kind(of: child.member.id) == .member)
            _ = try await h.service.removeMember(id: child.member.id, incompleteTasks: .unassign, viewer: ana)
            let departure = try await h.pool.read { try $0.scalar(String.self, "SELECT id FROM member_departures") }
            #expect(Self.kind(of: departure) == .memberDeparture)
        }
    }

    @Test func readsAnswerAnIDOfAnotherTypeOrAMalformedOneAsNotFoundWithoutReading() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, member, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let notHouseholds = [member.id, try Self.retyped(household.id, as: .member), ana.userID, "garbage", household.id.uppercased()]
            let before = try Self.lendings(h.pool)
            for id in notHouseholds {
                await #expect(throws: ServiceError.householdNotFound) { try await h.service.household(id: id, viewer: ana) }
                await #expect(throws: ServiceError.householdNotFound) { try await h.service.access(viewer: ana, householdID: id) }
            }
            // Household objects are households, members, invitations and consents: none of these.
            let found = try await h.service.nodes(
                ids: [ana.userID, ana.sessionID, try Self.retyped(household.id, as: .avatar), try Self.retyped(member.id, as: .memberDeparture),
                      "garbage", household.id.uppercased(), "chr_" + household.id.dropFirst("hh_".count)],
                viewer: ana)
            #expect(found.isEmpty)
            #expect(try await h.accounts.service.avatar(id: household.id) == nil)
            #expect(try Self.lendings(h.pool) == before)
            // The same calls with the right ids do read.
            _ = try await h.service.household(id: household.id, viewer: ana)
            #expect(try Self.lendings(h.pool) > before)
        }
    }

    @Test func nodesFindEachTypedIDInItsTableAndOnlyWithinTheViewersHouseholds() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let (flat, anaInFlat, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let (cabin, benInCabin, _) = try await h.service.createHousehold(.init(name: "Cabin"), viewer: ben)
            let invitation = try await h.service.inviteMember(
                .init(householdID: flat.id, email: "dan@example.com"), viewer: ana, clientAddress: "192.0.2.1").invitation
            let consent = try await h.service.recordParentalConsent(
                householdID: flat.id, method: .card, path: .supervised, attestation: "I am the parent and consent.",
                termsVersion: h.service.configuration.termsVersion, viewer: ana)

            let found = try await h.service.nodes(
                ids: [flat.id, anaInFlat.id, invitation.id, consent.id, cabin.id, benInCabin.id, try Self.retyped(flat.id, as: .member)],
                viewer: ana)
            #expect(found.count == 4)
            guard case .household(let household, _)? = found[flat.id], case .member(let member, _)? = found[anaInFlat.id],
                  case .invitation(let invited, _)? = found[invitation.id], case .parentalConsent(let consented)? = found[consent.id]
            else { Issue.record("unexpected nodes: \(found.keys.sorted())"); return }
            #expect(household.name == "Flat" && member.id == anaInFlat.id && invited.id == invitation.id && consented.id == consent.id)
            #expect(try await h.service.nodes(ids: [flat.id, anaInFlat.id, invitation.id, consent.id], viewer: ben).isEmpty)
        }
    }

    @Test func mutationsAnswerAnIDOfAnotherTypeAsTheyAnswerAnUnknownOne() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let (household, member, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)
            let invitation = try await h.service.inviteMember(
                .init(householdID: household.id, email: "dan@example.com"), viewer: ana, clientAddress: "192.0.2.1").invitation
            let now = h.clock.now

            /// The errors `operation` throws for `wrong` (an id of another type) and for an unknown id of the right kind.
            func errors(
                wrong: String, unknown kind: GlobalID.Kind, _ operation: (String) async throws -> Void
            ) async -> (wrong: ServiceError?, unknown: ServiceError?) {
                func thrown(_ id: String) async -> ServiceError? {
                    do { try await operation(id) } catch { return error as? ServiceError }
                    return nil
                }
                return (await thrown(wrong), await thrown(GlobalID.make(kind, now: now).rawValue))
            }
            var outcomes = [await errors(wrong: member.id, unknown: .household) { id in
                _ = try await h.service.updateHousehold(id: id, .init(name: "Loft"), viewer: ana)
            }]
            outcomes.append(await errors(wrong: household.id, unknown: .member) { id in
                _ = try await h.service.changeMemberRole(memberID: id, to: .admin, viewer: ana)
            })
            outcomes.append(await errors(wrong: invitation.member.id, unknown: .invitation) { id in
                _ = try await h.service.revokeInvitation(id: id, viewer: ana)
            })
            outcomes.append(await errors(wrong: invitation.member.id, unknown: .invitation) { id in
                _ = try await h.service.acceptInvitation(.id(id), viewer: ana)
            })
            outcomes.append(await errors(wrong: household.id, unknown: .parentalConsent) { id in
                _ = try await h.service.addMember(
                    householdID: household.id, .init(kind: .shadow, displayName: "Kid", age: 4, consentID: id), viewer: ana)
            })
            outcomes.append(await errors(wrong: ana.userID, unknown: .session) { id in
                _ = try await h.accounts.service.revokeSession(id: id, viewer: ana, proof: AccountsHarness.passwordProof, clientAddress: "192.0.2.1")
            })
            for outcome in outcomes {
                #expect(outcome.wrong != nil)
                #expect(outcome.wrong == outcome.unknown)
            }
            #expect(outcomes.map { $0.wrong?.code } == [.notFound, .notFound, .notFound, .notFound, .badUserInput, .notFound])
        }
    }

    @Test func bareUUIDIDsIssuedBeforeKeepResolving() async throws {
        try await HouseholdsHarness.with { h in
            let ana = try await h.confirmedViewer("ana")
            let ben = try await h.confirmedViewer("ben")
            let legacy = try h.legacyHousehold(named: "Old Farm", admin: ana)
            let (flat, _, _) = try await h.service.createHousehold(.init(name: "Flat"), viewer: ana)

            #expect(try await h.service.household(id: legacy.householdID, viewer: ana).record.name == "Old Farm")
            let found = try await h.service.nodes(
                ids: [legacy.householdID, legacy.memberID, legacy.invitationID, legacy.consentID, flat.id], viewer: ana)
            #expect(found.count == 5)
            guard case .household? = found[legacy.householdID], case .member? = found[legacy.memberID],
                  case .invitation? = found[legacy.invitationID], case .parentalConsent? = found[legacy.consentID],
                  case .household? = found[flat.id]
            else { Issue.record("unexpected nodes: \(found)"); return }
            #expect(try await h.service.nodes(ids: [legacy.householdID, legacy.memberID, legacy.invitationID], viewer: ben).isEmpty)
            await #expect(throws: ServiceError.householdNotFound) { try await h.service.household(id: legacy.householdID, viewer: ben) }

            // Mutations take them too: the legacy consent admits a child, the invitation is revoked.
            let child = try await h.service.addMember(
                householdID: legacy.householdID, .init(kind: .child, displayName: "Kid", age: 8, consentID: legacy.consentID), viewer: ana)
            #expect(GlobalID(rawValue: child.member.id)?.kind == .member)
            _ = try await h.service.revokeInvitation(id: legacy.invitationID, viewer: ana)
            #expect(try await h.service.nodes(ids: [legacy.invitationID], viewer: ana).isEmpty)
        }
    }
}
