import GraphQL
import HearthDomain
import HearthHTTP
import HearthServices

/// The HTTP side of habits: habit event photos, and the history's map as GeoJSON. Both need
/// `Authorization: Bearer <accessToken>`, like `/graphql`, and show only what the viewer may see.
///
/// - `GET` (and `HEAD`) `/habit-photos/<id>`: the photo (US 02.03) with its stored media type,
///   `ETag` (its SHA-256, quoted), `Cache-Control: private, no-cache` (a client keeps it but asks
///   again each time, so one who may no longer see the event stops getting it),
///   `X-Content-Type-Options: nosniff` and `Content-Security-Policy: default-src 'none'`.
///   `If-None-Match` with the ETag answers 304. 404 for an unknown id and for a photo of an event
///   the viewer may not see (the same answer); 401 signed out.
/// - `GET /habits/history.geojson?habitId=…&commentContains=…&nearLatitude=…&nearLongitude=…&nearRadiusMeters=…`
///   (each optional, as `habitHistoryGeoJSON`'s filter; `nearLatitude` and `nearLongitude` are
///   `filter.near`'s centre in degrees and come together, `nearRadiusMeters` its radius, 5,000 m
///   unless given): the located events of the viewer's history as `application/geo+json`
///   (``HabitGeoJSON``, US 06.02). Refusals are `{"errors": [...]}` with `extensions.code`: 401
///   signed out, 400 for a bad filter (`extensions.field` naming the filter's member, as the GraphQL
///   field does: `filter.near.latitude` for `nearLatitude`), 404 for a habit not the viewer's.
public struct HabitRoutes: Sendable {
    /// The service reading photos and history.
    public let habits: HabitService
    /// Checks the bearer token, as `/graphql` does.
    public let authenticator: Authenticator

    /// `Cache-Control` of a served photo: kept, but checked again on every use.
    public static let cacheControl = "private, no-cache"

    /// Creates the routes.
    public init(habits: HabitService, authenticator: Authenticator) {
        self.habits = habits
        self.authenticator = authenticator
    }

    /// Registers `GET /habit-photos/:id` and `GET /habits/history.geojson`.
    public func register(in router: inout Router) {
        router.on(.get, "/habit-photos/:id") { [self] request in try await photo(request) }
        router.on(.get, "/habits/history.geojson") { [self] request in try await historyGeoJSON(request) }
    }

    /// The response to `GET /habit-photos/<id>` (or `HEAD`).
    /// - Throws: what reading the photo throws (the router answers 500 and logs it).
    public func photo(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refusal): return refusal.response
        }
        guard let photo = try await habits.photo(id: request.parameters["id"] ?? "", viewer: viewer) else {
            return .text("no such photo\n", status: .notFound)
        }
        return AvatarRoutes.image(photo.bytes, mediaType: photo.mediaType, sha256: photo.sha256, cacheControl: Self.cacheControl, for: request)
    }

    /// The response to `GET /habits/history.geojson`.
    /// - Throws: an unexpected failure reading the history (the router answers 500 and logs it).
    public func historyGeoJSON(_ request: HTTPRequest) async throws -> HTTPResponse {
        let viewer: Viewer
        switch await authenticator.viewer(of: request) {
        case .success(let signedIn): viewer = signedIn
        case .failure(let refusal): return refusal.response
        }
        do {
            guard let parameters = try? FormDecoding.parameters(request.query ?? "") else {
                throw ServiceError(.badUserInput, "The query string is not valid form encoding.")
            }
            let filter = HabitHistoryFilter(
                habitID: parameters["habitId"], commentContains: parameters["commentContains"], near: try Self.near(parameters))
            let document = try await habits.habitHistoryGeoJSON(filter, viewer: viewer)
            return HTTPResponse(
                status: .ok, headers: ["Content-Type": HabitGeoJSON.mediaType, "Cache-Control": "private, no-store"], body: Array(document.utf8))
        } catch let error as ServiceError {
            return error.httpRefusal
        }
    }

    /// `filter.near` of the query string: `nearLatitude` and `nearLongitude`, with `nearRadiusMeters`
    /// or 5 km; `nil` when none of the three is given. The service checks the ranges.
    /// - Throws: `BAD_USER_INPUT` on `filter.near.<member>`: `REQUIRED` for a missing centre
    ///   coordinate when another is given, `INVALID_FORMAT` for a value that is no number.
    static func near(_ parameters: [String: String]) throws -> HabitHistoryFilter.Near? {
        let members = [("nearLatitude", "latitude"), ("nearLongitude", "longitude"), ("nearRadiusMeters", "radiusMeters")]
        guard members.contains(where: { parameters[$0.0] != nil }) else { return nil }
        var problems: [FieldProblem] = []
        let values = members.map { parameter, member -> Double? in
            guard let text = parameters[parameter] else {
                if member != "radiusMeters" {
                    problems.append(FieldProblem(field: "filter.near." + member, reason: .required, message: "Give \(parameter) with the other near parameters."))
                }
                return nil
            }
            guard let value = Double(text) else {
                problems.append(FieldProblem(field: "filter.near." + member, reason: .invalidFormat, message: "\(parameter) is a number."))
                return nil
            }
            return value
        }
        guard problems.isEmpty, let latitude = values[0], let longitude = values[1] else { throw ServiceError.invalid(InputProblems(problems)) }
        return HabitHistoryFilter.Near(latitude: latitude, longitude: longitude, radius: values[2] ?? HabitHistoryFilter.Near.defaultRadius)
    }
}
