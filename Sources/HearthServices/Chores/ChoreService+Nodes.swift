import HearthDomain
import HearthStore

extension ChoreService {
    /// An object of this service found by its global id.
    public enum Node: Sendable {
        /// A chore the viewer may see.
        case chore(ChoreRecord, ChoreAccess)
        /// A tag the viewer may see.
        case tag(TagRecord, ChoreAccess)
        /// A preset: built in, or saved by one of the viewer's households.
        case preset(ChorePreset)
    }

    /// The chores, tags and presets among `ids` that `viewer` may see (`Query.node`/`nodes`): each
    /// id looked up only where its type (``GlobalID``) says, within the viewer's households and
    /// personal chores, so ids of others' objects are absent exactly like unknown ones. Ids of other
    /// types are not read at all. Callers bound the number of ids (the API takes at most 100).
    public func nodes(ids: [String], viewer: Viewer) async throws -> [String: Node] {
        let wanted = Set(ids)
        var found: [String: Node] = [:]
        for id in wanted {
            if let preset = BuiltInPresets.preset(id: id) { found[id] = .preset(preset) }
        }
        let lookups = wanted.filter { id in
            found[id] == nil && (Self.isTyped(.chore, id) || Self.isTyped(.tag, id) || Self.isTyped(.chorePreset, id))
        }
        guard !lookups.isEmpty else { return found }
        let read = try await pool.readPreferringCallingThread { database -> [String: Node] in
            var read: [String: Node] = [:]
            for id in lookups.sorted() {
                do {
                    switch GlobalID(rawValue: id)?.kind {
                    case .chore?:
                        let access = try ChoreAccess.check(viewer: viewer, owning: .chores, id: id, in: database)
                        read[id] = .chore(try ChoreRecord.find(id: id, access.scope(database)), access)
                    case .tag?:
                        let access = try ChoreAccess.check(viewer: viewer, owning: .tags, id: id, in: database)
                        read[id] = .tag(try Self.tag(id: id, access.scope(database)), access)
                    default:
                        read[id] = .preset(try Self.householdPreset(id: id, viewer: viewer, in: database).preset)
                    }
                } catch let error as ServiceError where error.code == .notFound {
                    continue
                }
            }
            return read
        }
        return found.merging(read) { first, _ in first }
    }
}
