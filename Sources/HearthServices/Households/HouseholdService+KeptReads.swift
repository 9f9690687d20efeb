import HearthStore

/// The reads behind every household screen, kept between requests while nothing commits
/// (``MarkScopedCache``): a viewer's memberships (the access each gives, the household's record,
/// which one is active) by account, pages of members by household and arguments, and setup
/// checklists by household.
///
/// Every screen starts with an access check, and the home screen, the household switcher and a
/// household's own screens ask for the same few rows again and again, while writes are rare. So
/// each request takes the store's mark once, and while it equals the mark a kept value was read
/// under, nothing at all has committed since (from this process or another) and the value is
/// what a read would return now: the access checks stay as strict as reading (a member removed
/// or demoted loses the access with the commit that does it), without the read.
///
/// A member page and a checklist are the household's data alone (whether the viewer may see
/// ages or is the member is decided where the page is shown, from the access), so one kept page
/// or checklist serves every member of the household. On a store without marks (PostgreSQL) and
/// with `keptReadEntries` at 0, every call reads, in one read transaction, as before.
struct HouseholdKeptReads: Sendable {
    /// One of a viewer's active memberships.
    typealias Membership = (access: HouseholdAccess, household: HouseholdRecord, isActive: Bool)

    /// Which page of which household's members.
    struct PageKey: Hashable, Sendable {
        let householdID: String
        let query: MemberPageQuery
    }

    /// A viewer's memberships, by account id.
    let memberships: MarkScopedCache<String, [Membership]>
    /// Member pages.
    let memberPages: MarkScopedCache<PageKey, MemberPage>
    /// Setup checklists, by household id.
    let checklists: MarkScopedCache<String, OnboardingChecklist>

    /// Caches of `entries` each (0: nothing kept), the member pages also within `pageBytes`
    /// (a page may hold a hundred members, and a client may ask for many pages).
    init(entries: Int, pageBytes: Int) {
        memberships = MarkScopedCache(capacity: entries)
        memberPages = MarkScopedCache(capacity: entries, maxCost: pageBytes)
        checklists = MarkScopedCache(capacity: entries)
    }
}

/// The store's mark household reads are served under (``HouseholdKeptReads``), taken before
/// them: what is made from the reads (a screen's text) stays exact for a later request while
/// that request's mark is equal, since nothing has committed in between.
public struct HouseholdReadMark: Sendable, Hashable {
    let change: ChangeMark
}

extension HouseholdService {
    /// The mark to serve household reads under, taken now, before them: pass it to the reads
    /// of one request (`at:`); `nil` when reads are not kept (PostgreSQL, or the cache off),
    /// and then each reads.
    public func readMark() async throws -> HouseholdReadMark? {
        try await keptReadMark().map(HouseholdReadMark.init(change:))
    }

    /// The store's mark to look up kept reads under, `nil` (read) when nothing is kept.
    func keptReadMark() async throws -> ChangeMark? {
        configuration.keptReadEntries > 0 ? try await pool.changeMark() : nil
    }

    /// The viewer's active memberships, the active one first, then by name
    /// (``HouseholdAccess/memberships(of:activeHouseholdOnly:in:)``): kept under `mark`, or read.
    func memberships(of viewer: Viewer, at mark: ChangeMark?) async throws -> [HouseholdKeptReads.Membership] {
        try await keptReads.memberships.value(for: viewer.userID, at: mark) {
            try await pool.readPreferringCallingThread { database in try HouseholdAccess.memberships(of: viewer, in: database) }
        }
    }

    /// The setup checklist of the household `access` grants: kept under `mark`, or read.
    func checklist(_ access: HouseholdAccess, at mark: ChangeMark?) async throws -> OnboardingChecklist {
        try await keptReads.checklists.value(for: access.householdID, at: mark) {
            try await pool.readPreferringCallingThread { database in try OnboardingProgress.checklist(HouseholdScope(access, database)) }
        }
    }

    /// The page `query` asks for of the members of the household `access` grants: kept under
    /// `mark`, or read.
    func memberPage(_ query: MemberPageQuery, _ access: HouseholdAccess, at mark: ChangeMark?) async throws -> MemberPage {
        let key = HouseholdKeptReads.PageKey(householdID: access.householdID, query: query)
        return try await keptReads.memberPages.value(
            for: key, at: mark, cost: \.retainedBytes
        ) {
            try await pool.readPreferringCallingThread { database in try MemberPage.read(query, HouseholdScope(access, database)) }
        }
    }
}
