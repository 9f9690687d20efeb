import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures

/// A household to try chores in, and short ways to make chores.
struct ChoreFamily {
    let householdID: String
    /// The admin (`ana`).
    let admin: Viewer
    let adminMemberID: String
    /// An adult with the member role (`ben`).
    let member: Viewer
    let memberID: String
    /// A child with an account of their own (`kim`, 14).
    let child: Viewer
    let childMemberID: String
    /// Someone in another household only (`eve`).
    let outsider: Viewer
    let outsiderHouseholdID: String
    let outsiderMemberID: String
}

extension HouseholdsHarness {
    /// Household "Flat" of `ana` (admin), `ben` (member) and `kim` (a child with a login), and
    /// `eve` in a household of her own.
    func choreFamily() async throws -> ChoreFamily {
        let (householdID, ana, ben, eve) = try await flatWithMemberAndOutsider()
        let kim = try await confirmedViewer("kim")
        let childMemberID = try addChildAccount(kim, householdID)
        let outsiderHousehold = try await service.createHousehold(.init(name: "Eve's"), viewer: eve)
        return ChoreFamily(
            householdID: householdID, admin: ana, adminMemberID: try await service.access(viewer: ana, householdID: householdID).memberID,
            member: ben, memberID: try await service.access(viewer: ben, householdID: householdID).memberID, child: kim,
            childMemberID: childMemberID, outsider: eve, outsiderHouseholdID: outsiderHousehold.household.id,
            outsiderMemberID: outsiderHousehold.member.id)
    }

    /// Makes `viewer` an active child member (14, so no consent is needed) of `householdID` with
    /// their own login, as a child who got an account will be; returns the member id.
    @discardableResult
    func addChildAccount(_ viewer: Viewer, _ householdID: String, name: String = "Kim") throws -> String {
        let memberID = GlobalID.make(.member, now: clock.now).rawValue
        try pool.write {
            try $0.execute(
                """
                INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, age, joined_at, updated_at)
                VALUES (?, ?, ?, 'child', 'member', 'active', ?, 14, ?, ?)
                """,
                [memberID, householdID, viewer.userID, name, clock.now, clock.now])
        }
        return memberID
    }

    /// A one-off chore of `householdID` (personal when `nil`) titled `title`, by `viewer`, with `configure`
    /// applied to its fields; `id` is a client-made id.
    @discardableResult
    func chore(
        _ title: String, in householdID: String?, by viewer: Viewer, id: String? = nil, _ configure: (inout ChoreFields) -> Void = { _ in }
    ) async throws -> ChoreRecord {
        var fields = ChoreFields(title: title, schedule: .once(clock.now.addingTimeInterval(86_400)))
        configure(&fields)
        return try await chores.createChore(.init(id: id, householdID: householdID, fields), viewer: viewer).record
    }

    /// The error `body` throws, which must be a ``ServiceError``.
    func refusal(_ body: () async throws -> some Any) async -> ServiceError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? ServiceError
        }
    }
}
