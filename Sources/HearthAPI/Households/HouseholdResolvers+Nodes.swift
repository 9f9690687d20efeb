import HearthServices

extension HouseholdResolvers {
    /// The households, members, invitations and parental consents among `ids` the viewer may see,
    /// for `node`/`nodes`: those of the households they are an active member of, invitations and
    /// consents for their admins
    /// (``HouseholdService/nodes(ids:viewer:)``). Signed-out callers see none.
    static func nodes(ids: [String], households: HouseholdService, context: RequestContext) async throws -> [String: any Sendable] {
        guard let viewer = context.optionalViewer, !ids.isEmpty else { return [:] }
        return try await households.nodes(ids: ids, viewer: viewer).mapValues(value(of:))
    }

    /// The schema object of a household node.
    static func value(of node: HouseholdService.Node) -> any Sendable {
        switch node {
        case .household(let record, let access): HouseholdValue(record: record, access: access)
        case .member(let record, let access): MemberValue(record: record, access: access)
        case .invitation(let record, let access): InvitationValue(record: record, access: access)
        case .parentalConsent(let record): ParentalConsentValue(record)
        }
    }
}
