/// A completed value of the response: leaves as JSON, objects as their plan (which holds the
/// response keys) plus one value per planned field, so an object costs one array and no
/// per-key storage. Serialized by `write(to:)` straight into a `JSONWriter`.
enum ResultNode: Sendable {
    case null
    case leaf(JSON)
    case list([ResultNode])
    case object(SelectionPlan, [ResultNode])

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .leaf(let json): writer.value(json)
        case .list(let items):
            writer.beginArray()
            items.withUnsafeBufferPointer { items in
                for index in items.indices { items[index].write(to: &writer) }
            }
            writer.endArray()
        case .object(let plan, let values):
            writer.beginObject()
            plan.fields.withUnsafeBufferPointer { fields in
                values.withUnsafeBufferPointer { values in
                    for index in values.indices {
                        writer.key(quoted: fields[index].quotedResponseKey)
                        values[index].write(to: &writer)
                    }
                }
            }
            writer.endObject()
        }
    }

    var json: JSON {
        switch self {
        case .null: return .null
        case .leaf(let json): return json
        case .list(let items): return .array(items.map(\.json))
        case .object(let plan, let values):
            var object = OrderedMap<String, JSON>(minimumCapacity: values.count)
            for index in values.indices { object[plan.fields[index].responseKey] = values[index].json }
            return .object(object)
        }
    }
}
