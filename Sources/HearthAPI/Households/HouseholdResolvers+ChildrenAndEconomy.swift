import GraphQL
import HearthDomain
import HearthServices

extension HouseholdResolvers {
    /// Children and shadows behind the parental consent gate (FR-ONBOARD-3) and the token
    /// economy (FR-ONBOARD-5): `recordParentalConsent`, `addMember`, `updateMember`,
    /// `updateEconomySettings` and `Household.economy`.
    static func installChildrenAndEconomy(into resolvers: inout Resolvers, households: HouseholdService) {
        resolvers.resolve("Household", "economy") { source, _, _, _ in
            EconomySettingsValue(households.economy(of: (source as! HouseholdValue).record))
        }
        resolvers.resolveMutation("recordParentalConsent") { input, context in
            let viewer = try context.viewer()
            let consent = try await households.recordParentalConsent(
                householdID: try input.requiredString("householdId"), method: try input.enumValue("method"),
                path: try input.enumValue("path"), attestation: try input.requiredString("attestation"),
                termsVersion: try input.requiredString("termsVersion"), id: input.string("id"), viewer: viewer,
                clientMutationID: input.clientMutationID)
            return ["consent": ParentalConsentValue(consent)]
        }
        resolvers.resolveMutation("addMember") { input, context in
            let viewer = try context.viewer()
            let (member, access) = try await households.addMember(
                householdID: try input.requiredString("householdId"),
                HouseholdService.NewMember(
                    kind: try input.enumValue("kind"), displayName: try input.requiredString("displayName"), age: input.int("age"),
                    consentID: input.string("consentId"), id: input.string("id")),
                viewer: viewer, clientMutationID: input.clientMutationID)
            return ["member": MemberValue(record: member, access: access)]
        }
        resolvers.resolveMutation("updateMember") { input, context in
            let viewer = try context.viewer()
            let (member, access) = try await households.updateMember(
                id: try input.requiredString("memberId"), displayName: input.string("displayName"), age: input.change("age", input.int),
                consentID: input.string("consentId"), viewer: viewer, clientMutationID: input.clientMutationID)
            return ["member": MemberValue(record: member, access: access)]
        }
        resolvers.resolveMutation("updateEconomySettings") { input, context in
            let viewer = try context.viewer()
            let (household, access) = try await households.updateEconomySettings(
                householdID: try input.requiredString("householdId"),
                HouseholdService.EconomyChanges(
                    // The `Decimal` scalar has already checked and normalised the text.
                    currencyPerToken: input.string("currencyPerToken").flatMap { DecimalAmount($0) },
                    currencyCode: input.string("currencyCode"), earningsSplit: try input.optionalEnumValue("earningsSplit")),
                viewer: viewer, clientMutationID: input.clientMutationID)
            return [
                "economy": EconomySettingsValue(households.economy(of: household)),
                "household": HouseholdValue(record: household, access: access),
            ]
        }
    }
}

/// An `EconomySettings` of `schema.graphql`.
final class EconomySettingsValue: Sendable, FieldResolvable {
    let settings: EconomySettings

    init(_ settings: EconomySettings) {
        self.settings = settings
    }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "currencyPerToken": settings.currencyPerToken
        case "currencyCode": settings.currencyCode
        case "earningsSplit": settings.earningsSplit.graphQLName
        case "minimumCurrencyPerToken": settings.allowedCurrencyPerToken.lowerBound
        case "maximumCurrencyPerToken": settings.allowedCurrencyPerToken.upperBound
        default: nil
        }
    }
}

/// A `ParentalConsent` of `schema.graphql`: what the parent attested, never child data.
final class ParentalConsentValue: Sendable, FieldResolvable, TypeNameResolvable {
    let record: ParentalConsentRecord

    var graphQLTypeName: String { "ParentalConsent" }

    init(_ record: ParentalConsentRecord) {
        self.record = record
    }

    func fieldValue(named name: String) -> Any? {
        switch name {
        case "id": record.id
        case "method": GraphQLEnum.name(of: record.method)
        case "path": GraphQLEnum.name(of: record.path)
        case "termsVersion": record.termsVersion
        case "consentedAt": record.consentedAt
        default: nil
        }
    }
}
