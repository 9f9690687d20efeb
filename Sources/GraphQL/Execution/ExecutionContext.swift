/// The state of one execution: the request, the application's context value, the errors
/// so far and the response's data as JSON text. Lives on one task; every step runs
/// synchronously until a resolver returns async work, and only that field's completion is
/// awaited (no task per field or item).
///
/// Values are written straight into `output` in response order, with no intermediate
/// tree. Each completion step returns whether its value completed: `false` means it failed
/// and its error was recorded, so the failure propagates to the nearest nullable position
/// (spec 6.4.4, "Handling Execution Errors"), which rewinds the text written for its value
/// and writes `null` instead. A field whose resolver returned async work leaves a hole
/// where its value goes: once the synchronous pass is over, the holes' work runs in
/// response order, each value is written at the end of the text, and `assembledData`
/// splices it into place.
final class ExecutionContext {
    let request: RequestContext
    let context: any Sendable
    /// Whether root fields without a resolver take the root value itself (subscription
    /// events) instead of reading a property of it.
    let rootFieldsTakeRootValue: Bool
    private(set) var errors: [GraphQLError] = []
    private let typeResolvers: [ObjectIdentifier: TypeResolver]
    /// The response's data as it is written (compact, so a value never starts with a comma).
    ///
    /// Exclusive access is not checked at run time: the writer is written once per token,
    /// which made the checks a tenth of the executor's time. No access overlaps another:
    /// the context lives on one task, and each access is one call into `JSONWriter`, which
    /// never calls back into the context.
    @exclusivity(unchecked) var output = JSONWriter(capacity: 4096)
    /// The holes, in order of position (every hole is created at the end of the text, and
    /// a rewind removes the holes after its mark). Unchecked for the same reason as
    /// `output`: every access is one array operation.
    @exclusivity(unchecked) private var holes: [Hole] = []
    /// A stack of `locatePlainLeaves` results (one frame per object being executed, since
    /// an object's fields may execute nested objects): per field of the plan, where the
    /// dictionary holds its value. Unchecked for the same reason as `output`.
    @exclusivity(unchecked) private var plainLeafIndices: [[String: any Sendable].Index?] = []
    /// The top of the `plainLeafIndices` stack.
    @exclusivity(unchecked) private var plainLeafIndicesEnd = 0
    /// The response path of the value being completed. Unchecked for the same reason as
    /// `output`: every access is one call into `PathStack`, which never calls back.
    @exclusivity(unchecked) var paths = PathStack()
    /// The text ranges of nullable values holding holes; `Hole.frame` indexes this.
    private var frames: [Range<Int>] = []
    /// Values that became `null` because a hole inside them failed.
    private var nulledValues: [Range<Int>] = []

    /// A value whose text is not written where it goes: a field's async work.
    private struct Hole {
        /// The offset in `output` where the value goes.
        let position: Int
        /// The innermost nullable value around the hole, written in the same pass; `nil`
        /// when the failure propagates to whatever that pass completes.
        var frame: Int?
        /// The work that writes the value at the end of the text; `nil` once started.
        var work: (() async -> Bool)?
        /// The value's text in `output`, once written.
        var content: Range<Int>?
        /// Where the value's completed text goes once its holes are filled (a
        /// ``CapturedValue``'s `keep`), with the error count before the value was completed.
        var capture: (keep: @Sendable (SerializedValue) -> Void, errorCount: Int)?
        /// The value's whole text when the work returned a ``SerializedValue``: spliced from
        /// there when the response is assembled, not copied into `output` (`content` is empty).
        var serialized: SerializedValue?
    }

    /// Whether some hole holds a ``SerializedValue`` (then the data may be one, framed).
    private var holdsSerializedValue = false

    init(request: RequestContext, context: any Sendable, rootFieldsTakeRootValue: Bool = false) {
        self.request = request
        self.context = context
        self.rootFieldsTakeRootValue = rootFieldsTakeRootValue
        typeResolvers = request.executor.typeResolvers
    }

    // MARK: - Selection sets

    /// Executes the operation's root selection set and returns the data as JSON text
    /// (`null` when a failure reached the root); serially for mutations (each root field
    /// completed, async work included, before the next starts).
    func executeRoot(rootValue: Any, serially: Bool) async -> ExecutionResult.Data {
        let plan = request.prepared.rootPlan(request)
        let data: Range<Int>?
        if serially {
            data = await executeSerially(plan, rootValue: rootValue)
        } else {
            data = await completeDetached { executeFields(plan, source: rootValue) }
        }
        return assembledData(data)
    }

    /// Completes the root fields one after the other, then writes the root object with a
    /// hole per field holding the field's value.
    private func executeSerially(_ plan: SelectionPlan, rootValue: Any) async -> Range<Int>? {
        var values: [Range<Int>] = []
        values.reserveCapacity(plan.fields.count)
        for field in plan.fields {
            let source = field.kind.isDefaultResolver ? FieldSource(rootValue) : .other
            guard let value = await completeDetached({ executeField(field, of: plan.objectType, rootValue, source) }) else {
                return nil
            }
            values.append(value)
        }
        output.beginDetachedValue()
        let start = output.byteCount
        output.beginObject()
        for (field, value) in zip(plan.fields, values) {
            output.key(quoted: field.quotedResponseKey)
            holes.append(Hole(position: output.valuePlaceholder(), frame: nil, work: nil, content: value))
        }
        output.endObject()
        return start..<output.byteCount
    }

    /// Writes a value of its own at the end of the text with `write`, then fills the holes
    /// it left; returns the value's text, or `nil` when it failed.
    private func completeDetached(_ write: () async -> Bool) async -> Range<Int>? {
        output.beginDetachedValue()
        let start = output.byteCount
        let firstHole = holes.count
        guard await write() else { return nil }
        let end = output.byteCount
        guard await fillHoles(firstHole..<holes.count) else { return nil }
        // Nothing written: the value is a hole of its own (a field's async work). A range is
        // needed here, so a serialized value's text is copied in after all.
        if start == end, firstHole < holes.count, let content = holes[firstHole].content {
            guard let serialized = holes[firstHole].serialized else { return content }
            output.beginDetachedValue()
            let copy = output.byteCount
            output.rawValue(serialized.text.bytes)
            return copy..<output.byteCount
        }
        return start..<end
    }

    /// Runs the work of the holes `indices` in order; a failed hole nulls its frame (and the
    /// later holes inside it are never started). Returns `false` when a failure propagates
    /// past the holes' frames.
    private func fillHoles(_ indices: Range<Int>) async -> Bool {
        var nulledUpTo = 0
        for index in indices {
            guard holes[index].position >= nulledUpTo, let work = holes[index].work else { continue }
            holes[index].work = nil
            fillingHole = index
            if let content = await completeDetached(work) {
                holes[index].content = content
                if let capture = holes[index].capture, errors.count == capture.errorCount {
                    capture.keep(SerializedValue(assembledText(content)))
                }
                continue
            }
            guard let frame = holes[index].frame else { return false }
            nulledValues.append(frames[frame])
            nulledUpTo = frames[frame].upperBound
        }
        return true
    }

    /// The hole whose work runs (set by `fillHoles` before starting it): where a
    /// ``CapturedValue`` found by that work asks for its text.
    private var fillingHole = 0

    /// Leaves a hole for async work that writes the value of the current position.
    private func leaveHole(_ work: @escaping () async -> Bool) {
        holes.append(Hole(position: output.valuePlaceholder(), frame: nil, work: work, content: nil))
    }

    /// Completes a nullable position with `complete`: when it fails, the text it wrote (and
    /// the holes it left) are dropped and the value is `null`.
    @inline(__always)
    func nullable(_ complete: () -> Bool) -> Bool {
        let mark = output.mark
        let firstHole = holes.count
        guard complete() else {
            output.rewind(to: mark)
            holes.removeSubrange(firstHole...)
            output.null()
            return true
        }
        if holes.count > firstHole { addFrame(from: mark, holes: firstHole) }
        return true
    }

    /// Records the value written since `mark` as the frame of the holes from `firstHole` on
    /// that have none yet.
    private func addFrame(from mark: JSONWriter.Mark, holes firstHole: Int) {
        var start = mark.offset
        if output.byteCount > start, output.byte(at: start) == UInt8(ascii: ",") { start += 1 }
        let frame = frames.count
        frames.append(start..<output.byteCount)
        for index in firstHole..<holes.count where holes[index].frame == nil { holes[index].frame = frame }
    }

    /// The data's text with the holes' values spliced in and the nulled values replaced.
    /// When the data is one ``SerializedValue`` framed by constant text, it is not assembled:
    /// the response is written from the parts.
    private func assembledData(_ data: Range<Int>?) -> ExecutionResult.Data {
        guard let data else { return .text(JSONText(copying: "null".utf8)) }
        if holes.isEmpty { return .text(output.takeText(data)) }
        if holdsSerializedValue, let framed = framing(of: data) { return .framed(framed) }
        return .text(assembledText(data))
    }

    /// The value `range` as the text before one ``SerializedValue``, the value and the text after
    /// it, when that is all it is (no other hole's text or nulled value in it).
    private func framing(of range: Range<Int>) -> FramedValue? {
        guard nulledValues.isEmpty else { return nil }
        return output.withText { text in
            var parts: [UnsafeBufferPointer<UInt8>] = []
            splice(range, of: text) { part in
                if parts.count < 4 { parts.append(part) }
            }
            guard parts.count == 3, let middle = parts[1].baseAddress,
                let hole = holes.first(where: { $0.serialized?.text.bytes.baseAddress == middle }),
                let value = hole.serialized
            else { return nil }
            return FramedValue(value: value, framing: FramedValue.Framing(prefix: Array(parts[0]), suffix: Array(parts[2])))
        }
    }

    /// The text of the value `range` (complete: its holes filled) with its holes' values
    /// spliced in and its nulled values replaced: the response's data, or a
    /// ``CapturedValue``'s text. Read from the writer's buffer in place and written once into
    /// a buffer of the exact length (a first pass measures it), as a value's text may be large.
    private func assembledText(_ range: Range<Int>) -> JSONText {
        nulledValues.sort { $0.lowerBound < $1.lowerBound }
        return output.withText { text in
            var length = 0
            splice(range, of: text) { length += $0.count }
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: length)
            var offset = 0
            splice(range, of: text) { part in
                guard let source = part.baseAddress else { return }
                (buffer.baseAddress.unsafelyUnwrapped + offset).initialize(from: source, count: part.count)
                offset += part.count
            }
            return JSONText(taking: buffer)
        }
    }

    /// The text `null`, spliced where a value failed.
    private static let nullText: [UInt8] = Array("null".utf8)

    /// Hands `emit` the parts of the value `range` of `text` in order: its own text between its
    /// holes and nulled values, each hole's value (spliced the same way) and `null` for each
    /// nulled value.
    private func splice(_ range: Range<Int>, of text: UnsafeBufferPointer<UInt8>, _ emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        var cursor = range.lowerBound
        // A hole at the very start of a range is the hole whose value the range is (its value
        // was written right where it was left), not a hole inside it.
        var hole = firstIndex(in: holes, from: cursor + 1) { $0.position }
        var nulled = firstIndex(in: nulledValues, from: cursor) { $0.lowerBound }
        while true {
            let holePosition = hole < holes.count && holes[hole].position < range.upperBound ? holes[hole].position : Int.max
            let nulledStart = nulled < nulledValues.count && nulledValues[nulled].lowerBound < range.upperBound
                ? nulledValues[nulled].lowerBound : Int.max
            if holePosition == .max, nulledStart == .max { break }
            if nulledStart < holePosition {
                let value = nulledValues[nulled]
                nulled += 1
                guard value.lowerBound >= cursor else { continue }
                emit(UnsafeBufferPointer(rebasing: text[cursor..<value.lowerBound]))
                Self.nullText.withUnsafeBufferPointer(emit)
                cursor = value.upperBound
            } else {
                let (content, serialized) = (holes[hole].content, holes[hole].serialized)
                hole += 1
                guard holePosition >= cursor, let content else { continue }
                emit(UnsafeBufferPointer(rebasing: text[cursor..<holePosition]))
                if let serialized { emit(serialized.text.bytes) } else { splice(content, of: text, emit) }
                cursor = holePosition
            }
        }
        emit(UnsafeBufferPointer(rebasing: text[cursor..<range.upperBound]))
    }

    /// The first index of `elements` (sorted by `offset`) whose offset is at least `offset`.
    private func firstIndex<Element>(in elements: [Element], from offset: Int, _ position: (Element) -> Int) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if position(elements[middle]) < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Finds the entries of `dictionary` that `plan`'s plain leaves read by walking its keys
    /// once and comparing their words, instead of hashing each field name. The indices go in
    /// `plainLeafIndices` from the returned offset on, one per field of the plan (`nil` where
    /// not found, which a hashed lookup settles); the caller sets `plainLeafIndicesEnd` back
    /// to that offset when done. `nil` when it is not worth it: unless the plan reads most
    /// of the keys.
    private func locatePlainLeaves(of plan: SelectionPlan, in dictionary: [String: any Sendable]) -> Int? {
        let leaves = plan.plainLeaves
        guard leaves.count > 1, dictionary.count <= 2 * leaves.count else { return nil }
        let start = plainLeafIndicesEnd
        plainLeafIndicesEnd += plan.fields.count
        if plainLeafIndices.count < plainLeafIndicesEnd {
            plainLeafIndices.append(contentsOf: repeatElement(nil, count: plainLeafIndicesEnd - plainLeafIndices.count))
        }
        plainLeafIndices.withUnsafeMutableBufferPointer { found in
            let found = UnsafeMutableBufferPointer(rebasing: found[start..<plainLeafIndicesEnd])
            found.update(repeating: nil)
            let bits = plan.plainLeafSlotBits
            leaves.withUnsafeBufferPointer { leaves in
                plan.plainLeafSlots.withUnsafeBufferPointer { slots in
                    var index = dictionary.startIndex
                    while index != dictionary.endIndex {
                        let words = StringWords(dictionary.keys[index])
                        var slot = words.slot(bits: bits)
                        while slots[slot] != 0 {
                            let leaf = leaves[slots[slot] - 1]
                            if leaf.nameWords == words {
                                found[leaf.position] = index
                                break
                            }
                            slot = (slot + 1) & (slots.count - 1)
                        }
                        dictionary.formIndex(after: &index)
                    }
                }
            }
        }
        return start
    }

    /// Spec ExecuteSelectionSet for one object at the current path: every planned field in
    /// order.
    func executeFields(_ plan: SelectionPlan, source: Any) -> Bool {
        output.beginObject()
        let fieldSource = plan.usesDefaultResolver ? FieldSource(source) : .other
        // Plain data's scalars: read and written in place, with no response path.
        let dictionary: [String: any Sendable]? =
            if !(rootFieldsTakeRootValue && paths.isRoot), case .sendableDictionary(let dictionary) = fieldSource { dictionary } else { nil }
        let located = if let dictionary { locatePlainLeaves(of: plan, in: dictionary) } else { nil as Int? }
        defer { if let located { plainLeafIndicesEnd = located } }
        for (position, field) in plan.fields.enumerated() {
            output.key(quoted: field.quotedResponseKey)
            if let dictionary, let leaf = field.plainLeafType {
                let value: (any Sendable)? = if let located, let index = plainLeafIndices[located + position] {
                    dictionary.values[index]
                } else {
                    dictionary[field.name]
                }
                if writeFast(value, as: leaf) { continue }
            }
            // Introspection leaves: written with no response path (on failure, nothing is
            // written and the general path below records the error).
            if case .attached(.introspection(let member)) = field.kind,
               (try? writeIntrospectionLeaf(member, field, plan.objectType, source)) == true {
                continue
            }
            guard executeField(field, of: plan.objectType, source, fieldSource) else { return false }
        }
        output.endObject()
        return true
    }

    // MARK: - Fields

    /// Executes `field` of `source` with the field's step on the response path.
    @inline(__always)
    private func executeField(_ field: FieldPlan, of parentType: ObjectType, _ source: Any, _ fieldSource: FieldSource) -> Bool {
        paths.push(field)
        let completed = executeField(field, parentType, source, fieldSource)
        paths.pop()
        return completed
    }

    /// Spec ExecuteField: coerces the arguments, calls the resolver and completes its value.
    private func executeField(_ field: FieldPlan, _ parentType: ObjectType, _ source: Any, _ fieldSource: FieldSource) -> Bool {
        let resolved: Any?
        switch field.kind {
        case .typeName:
            output.string(parentType.name)
            return true
        case .introspectionDisabled:
            return fieldFailed(
                GraphQLError(message: "GraphQL introspection has been disabled, but the requested query contained the field \"\(field.definition.name)\"."),
                field)
        case .defaultResolver:
            if !field.definition.arguments.isEmpty {
                do throws(GraphQLError) { _ = try arguments(of: field) } catch { return fieldFailed(error, field) }
            }
            if rootFieldsTakeRootValue, paths.isRootField {
                resolved = source
            } else {
                resolved = fieldSource.value(named: field.name)
                // Plain data's scalars: nothing to unwrap, check or resolve.
                if let leaf = field.fastLeafType, writeFast(resolved, as: leaf) { return true }
            }
        case .attached(.introspection(let member)):
            do throws(GraphQLError) {
                return try completeIntrospection(member, field, parentType, source)
            } catch {
                return fieldFailed(error, field)
            }
        case .attached(.resolver(let resolver)):
            let arguments: Arguments
            do throws(GraphQLError) { arguments = try self.arguments(of: field) } catch { return fieldFailed(error, field) }
            let info = ResolveInfo(request: request, plan: field, parentType: parentType, responsePath: paths.path())
            do {
                switch try resolver(source, arguments, context, info) {
                case .value(let value):
                    resolved = value
                case .async(let work):
                    let position = paths.node()
                    leaveHole { [self] in
                        let value: Result<Any?, any Error>
                        do { value = .success(try await work()) } catch { value = .failure(error) }
                        let saved = paths.rebase(on: position)
                        defer { paths.restore(saved) }
                        switch value {
                        case .success(let value): return completeResolved(value, field, parentType)
                        case .failure(let error): return fieldFailed(error, field)
                        }
                    }
                    return true
                }
            } catch {
                return fieldFailed(error, field)
            }
        }
        return completeValue(field.returnType, field, parentType, resolved)
    }

    /// Completes the value async work resolved: a ``SerializedValue``'s text as it is, a
    /// ``CapturedValue``'s value with its text asked for once its holes are filled, anything
    /// else as usual. (Exact type checks: pointer comparisons, no cast for other values.)
    private func completeResolved(_ value: Any?, _ field: FieldPlan, _ parentType: ObjectType) -> Bool {
        if let value {
            let valueType = type(of: value)
            if valueType == SerializedValue.self {
                holes[fillingHole].serialized = (value as! SerializedValue)
                holdsSerializedValue = true
                return true
            }
            if valueType == CapturedValue.self {
                let captured = value as! CapturedValue
                holes[fillingHole].capture = (captured.keep, errors.count)
                return completeValue(field.returnType, field, parentType, captured.value)
            }
        }
        return completeValue(field.returnType, field, parentType, value)
    }

    func arguments(of field: FieldPlan) throws(GraphQLError) -> Arguments {
        try field.arguments(in: request)
    }

    /// Records a field error; the field is `null`, or the failure propagates if it is non-null.
    private func fieldFailed(_ error: any Error, _ field: FieldPlan) -> Bool {
        record(error, field)
        if field.returnType.isNonNull { return false }
        output.null()
        return true
    }

    /// Records the error of a non-null field whose value is null; the failure propagates.
    func nullInNonNullField(_ field: FieldPlan, _ parentType: ObjectType) -> Bool {
        record(
            GraphQLError(message: "Cannot return null for non-nullable field \(parentType.name).\(field.definition.name)."),
            field)
        return false
    }

    /// Records `error` as the error of `field` at the current path.
    private func record(_ error: any Error, _ field: FieldPlan) {
        var located: GraphQLError
        switch error {
        case let error as GraphQLError:
            located = error
        case let convertible as any GraphQLErrorConvertible:
            located = convertible.graphQLError
            if located.underlyingError == nil { located.underlyingError = error }
        default:
            located = GraphQLError(message: String(describing: error), underlyingError: error)
        }
        if located.locations.isEmpty { located.locations = field.locations }
        if located.path.isEmpty { located.path = paths.elements }
        errors.append(located)
    }

    // MARK: - Values

    /// Spec CompleteValue: checks non-null, then completes lists, leaves and objects.
    func completeValue(
        _ type: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ value: Any?
    ) -> Bool {
        if let leaf = field.fastLeafType, writeFast(value, as: leaf) { return true }
        if case .nonNull(let inner) = type {
            guard let value = nonNullValue(value) else { return nullInNonNullField(field, parentType) }
            return completeNonNull(inner, field, parentType, value)
        }
        guard let value = nonNullValue(value) else {
            output.null()
            return true
        }
        return nullable { completeNonNull(type, field, parentType, value) }
    }

    /// Completes a value known not to be null against a nullable type.
    private func completeNonNull(
        _ type: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ value: Any
    ) -> Bool {
        switch type {
        case .nonNull:
            return completeValue(type, field, parentType, value)
        case .list(let itemType):
            return completeList(itemType, field, parentType, value)
        case .named(let named):
            switch named {
            case .scalar(let scalar):
                do {
                    output.value(try scalar.serialize(value))
                    return true
                } catch {
                    record(error, field)
                    return false
                }
            case .enumType(let enumType):
                do {
                    output.value(try enumType.serialize(value))
                    return true
                } catch {
                    record(error, field)
                    return false
                }
            case .object(let objectType):
                return executeFields(field.childPlan(for: objectType, request: request), source: value)
            case .interface, .union:
                let objectType: ObjectType
                do throws(GraphQLError) {
                    objectType = try runtimeType(of: value, abstractType: named, field, parentType)
                } catch {
                    record(error, field)
                    return false
                }
                return executeFields(field.childPlan(for: objectType, request: request), source: value)
            case .inputObject:
                record(GraphQLError(message: "Input object type \"\(named.name)\" cannot be a field's type."), field)
                return false
            }
        }
    }

    /// Result coercion of a built-in scalar's common Swift value (a `String` for `String`,
    /// an `Int` for `Int`, …) written without unwrapping or the scalar's general rules;
    /// `false` (nothing written) when the value is anything else (including `nil`), which
    /// takes the general path.
    /// (Generic so that values read as `any Sendable` are cast without converting to `Any`.)
    @inline(__always)
    private func writeFast<Value>(_ value: Value?, as leaf: FieldPlan.FastLeaf) -> Bool {
        guard let value else { return false }
        switch leaf {
        case .string:
            if withExactValue(value, as: String.self, { output.string($0) }) != nil { return true }
            if let string = value as? String {
                output.string(string)
                return true
            }
        case .int:
            if let int = exactValue(value, as: Int.self) ?? (value as? Int), SpecifiedScalarCoercing.int32Range.contains(int) {
                output.int(int)
                return true
            }
        case .boolean:
            if let bool = exactValue(value, as: Bool.self) ?? (value as? Bool) {
                output.bool(bool)
                return true
            }
        case .float:
            if let double = exactValue(value, as: Double.self) ?? (value as? Double), double.isFinite {
                output.double(double)
                return true
            }
        }
        return false
    }

    private func completeList(
        _ itemType: SchemaType, _ field: FieldPlan, _ parentType: ObjectType, _ value: Any
    ) -> Bool {
        // Exact type checks before the casts: they are pointer comparisons, while a failed cast
        // to `JSON` or `String` costs as much as a successful one.
        let valueType = type(of: value)
        if valueType == JSON.self {
            if case .array(let items) = value as! JSON { return completeItems(items, itemType, field, parentType) }
        } else if valueType != String.self, let sequence = value as? any Sequence {
            return completeItems(sequence, itemType, field, parentType)
        }
        record(
            GraphQLError(message: "Expected Iterable, but did not find one for field \"\(parentType.name).\(field.definition.name)\"."),
            field)
        return false
    }

    func completeItems(
        _ items: some Sequence, _ itemType: SchemaType, _ field: FieldPlan, _ parentType: ObjectType
    ) -> Bool {
        output.beginArray()
        // Items of an object type share one plan: found once, not once per item.
        let itemPlan: SelectionPlan? =
            if case .named(.object(let objectType)) = itemType.nullableType { field.childPlan(for: objectType, request: request) } else { nil }
        paths.pushIndex()
        defer { paths.pop() }
        var index = 0
        for item in items {
            paths.setIndex(index)
            index += 1
            let completed =
                if let itemPlan, let value = nonNullValue(item) {
                    itemType.isNonNull
                        ? executeFields(itemPlan, source: value)
                        : nullable { executeFields(itemPlan, source: value) }
                } else {
                    completeValue(itemType, field, parentType, item)
                }
            guard completed else { return false }
        }
        output.endArray()
        return true
    }

    /// Spec ResolveAbstractType, then the check that the runtime type is a possible type.
    private func runtimeType(
        of value: Any, abstractType: NamedType, _ field: FieldPlan, _ parentType: ObjectType
    ) throws(GraphQLError) -> ObjectType {
        let name: String?
        if let resolver = typeResolvers[abstractType.identity] {
            let info = ResolveInfo(request: request, plan: field, parentType: parentType, responsePath: paths.path())
            do {
                name = try resolver(value, context, info)
            } catch let error as GraphQLError {
                throw error
            } catch {
                throw GraphQLError(message: String(describing: error), underlyingError: error)
            }
        } else {
            name = defaultTypeName(value)
        }
        let schema = request.schema
        guard let name else {
            throw GraphQLError(message:
                "Abstract type \"\(abstractType.name)\" must resolve to an Object type at runtime for field "
                + "\"\(parentType.name).\(field.definition.name)\". Either the \"\(abstractType.name)\" type should "
                + "provide a type resolver or the value should carry its \"__typename\".")
        }
        guard let runtimeType = schema.type(named: name) else {
            throw GraphQLError(message:
                "Abstract type \"\(abstractType.name)\" was resolved to a type \"\(name)\" that does not exist inside the schema.")
        }
        guard case .object(let objectType) = runtimeType else {
            throw GraphQLError(message:
                "Abstract type \"\(abstractType.name)\" was resolved to a non-object type \"\(name)\".")
        }
        guard schema.isPossibleType(objectType, of: abstractType) else {
            throw GraphQLError(message: "Runtime Object type \"\(name)\" is not a possible type for \"\(abstractType.name)\".")
        }
        return objectType
    }
}
