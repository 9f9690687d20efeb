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
        resolvers.resolveAsync("Mutation", "recordParentalConsent") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let consent = try await households.recordParentalConsent(
                householdID: input.string("householdId") ?? "",
                method: try InputValue.value(input, "method"), path: try InputValue.value(input, "path"),
                attestation: input.string("attestation") ?? "", termsVersion: input.string("termsVersion") ?? "",
                viewer: viewer)
            return ["consent": ParentalConsentValue(consent)] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "addMember") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let householdID = input.string("householdId") ?? ""
            let member = try await households.addMember(
                householdID: householdID,
                HouseholdService.NewMember(
                    kind: try InputValue.value(input, "kind"), displayName: input.string("displayName") ?? "",
                    age: InputValue.int(input["age"]), consentID: input.string("consentId")),
                viewer: viewer, clientMutationID: input.string("clientMutationId"))
            let access = try await households.access(viewer: viewer, householdID: member.householdID)
            return [
                "member": MemberValue(record: member, access: access), "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "updateMember") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            // Absent keeps the age, `null` makes it unknown.
            let age: Int?? = input["age"].map(InputValue.int)
            let member = try await households.updateMember(
                id: input.string("memberId") ?? "", displayName: input.string("displayName"), age: age,
                consentID: input.string("consentId"), viewer: viewer, clientMutationID: input.string("clientMutationId"))
            let access = try await households.access(viewer: viewer, householdID: member.householdID)
            return [
                "member": MemberValue(record: member, access: access), "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
        resolvers.resolveAsync("Mutation", "updateEconomySettings") { _, arguments, context, _ in
            let viewer = try RequestContext.of(context).viewer()
            let input = arguments.input
            let household = try await households.updateEconomySettings(
                householdID: input.string("householdId") ?? "",
                HouseholdService.EconomyChanges(
                    // The `Decimal` scalar has already checked and normalised the text.
                    currencyPerToken: input.string("currencyPerToken").flatMap { DecimalAmount($0) },
                    currencyCode: input.string("currencyCode"),
                    earningsSplit: try InputValue.optionalValue(input, "earningsSplit")),
                viewer: viewer, clientMutationID: input.string("clientMutationId"))
            let access = try await households.access(viewer: viewer, householdID: household.id)
            return [
                "economy": EconomySettingsValue(households.economy(of: household)),
                "household": HouseholdValue(record: household, access: access),
                "clientMutationId": input.string("clientMutationId"),
            ] as [String: any Sendable]
        }
    }
}

/// Values of mutation inputs, which the executor has already coerced to the schema's types.
private enum InputValue {
    /// The `Int` `value`, `nil` when absent or null.
    static func int(_ value: JSON?) -> Int? {
        if case .int(let number)? = value { number } else { nil }
    }

    /// The stored value of the required enum `key`.
    static func value<Value: RawRepresentable<String>>(_ input: OrderedMap<String, JSON>, _ key: String) throws -> Value {
        guard let value: Value = try optionalValue(input, key) else { throw unknown(key) }
        return value
    }

    /// The stored value of the optional enum `key`, `nil` when absent or null.
    static func optionalValue<Value: RawRepresentable<String>>(_ input: OrderedMap<String, JSON>, _ key: String) throws -> Value? {
        guard let name = input.string(key) else { return nil }
        guard let value = GraphQLEnum.value(name, as: Value.self) else { throw unknown(key) }
        return value
    }

    private static func unknown(_ key: String) -> ServiceError {
        ServiceError.invalid(InputProblems([FieldProblem(field: "input.\(key)", reason: .unknownValue, message: "Unknown value.")]))
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
        case "earningsSplit": GraphQLEnum.name(of: settings.earningsSplit)
        case "minimumCurrencyPerToken": settings.allowedCurrencyPerToken.lowerBound
        case "maximumCurrencyPerToken": settings.allowedCurrencyPerToken.upperBound
        default: nil
        }
    }
}

/// A `ParentalConsent` of `schema.graphql`: what the parent attested, never child data.
final class ParentalConsentValue: Sendable, FieldResolvable {
    let record: ParentalConsentRecord

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
