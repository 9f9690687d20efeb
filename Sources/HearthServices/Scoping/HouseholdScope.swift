import HearthDomain
import HearthStore

/// The rows of the household a ``HouseholdAccess`` grants, in one transaction: every
/// household-owned table (each has `household_id`) and the `households` row itself, named in SQL
/// with `{household}` (`WHERE household_id = {household}`, `WHERE id = {household}` for
/// `households`, `VALUES ({household}, …)` in an insert). Made only from an access, which only
/// the membership check makes, so holding a scope is holding that check's answer.
typealias HouseholdScope = ScopedDatabase<HouseholdAccess>

extension HouseholdAccess: ScopeKey {
    static let marker = "{household}"
    static let statements = ScopedStatements(marker: marker)
    var scopeValue: String { householdID }
}

extension ScopedDatabase where Key == HouseholdAccess {
    /// The access the scope was made from.
    var access: HouseholdAccess { key }
}

extension ScopedDatabase where Key == HouseholdAccess {
    /// The scope of `householdID` for `viewer`, after ``HouseholdAccess/check(viewer:householdID:requiring:in:)``.
    static func check(viewer: Viewer, householdID: String, requiring role: MemberRole = .member, in database: Database) throws -> HouseholdScope {
        HouseholdScope(try HouseholdAccess.check(viewer: viewer, householdID: householdID, requiring: role, in: database), database)
    }

    /// The scope of the household owning `id` of `table`, after
    /// ``HouseholdAccess/check(viewer:owning:id:requiring:notFound:in:)``.
    static func check(
        viewer: Viewer, owning table: HouseholdOwnedTable, id: String, requiring role: MemberRole = .member,
        notFound: ServiceError, in database: Database
    ) throws -> HouseholdScope {
        HouseholdScope(
            try HouseholdAccess.check(viewer: viewer, owning: table, id: id, requiring: role, notFound: notFound, in: database), database)
    }
}
