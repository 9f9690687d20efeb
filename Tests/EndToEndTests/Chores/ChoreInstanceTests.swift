import Foundation
import GraphQL
import Synchronization
import Testing

/// Chore instances, completion and history through the binary (issue 14: FR-18, FR-34 – FR-39,
/// FR-54), named by requirement, with every refusal: the rule that refused, the locked step,
/// the cross-household prompt, completing twice, another household's ids answering like unknown ones.
@Suite struct ChoreInstanceTests {
    /// `seconds` from now as RFC 3339 (whole seconds, UTC).
    private static func time(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.down)))
    }

    /// A chore of `householdID` created by `person` with `input`; its id and the id of its first instance in `person`'s list.
    private static func choreAndInstance(
        _ server: ServerProcess, _ title: String, in householdID: String?, as person: ServerProcess.Person, for assignee: ServerProcess.Person? = nil,
        _ input: [String: JSON]
    ) throws -> (choreID: String, instanceID: String) {
        let chore = try server.chore(title, in: householdID, as: person, input)
        let choreID = try #require(chore["id"]?.stringValue)
        let mine = try server.myInstances(as: assignee ?? person).first { $0["chore"]?["id"]?.stringValue == choreID }
        return (choreID, try #require(mine?["id"]?.stringValue, "no instance of \(title) in the list"))
    }

    @Test func FR35_FR38_stepsAreDoneInOrderEachIsItsOwnRecordAndTheLastCompletesTheChore() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (_, instance) = try Self.choreAndInstance(server, "Laundry", in: f.householdID, as: f.ana, for: f.ben, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": .string(Self.time(3600))],
            "steps": [["title": "Load"], ["title": "Hang"], ["title": "Fold"]],
        ])
        let listed = try #require(server.myInstances(as: f.ben).first { $0["id"]?.stringValue == instance })
        #expect(listed["steps"] == [
            ["step": ["title": "Load"], "isDone": false, "isLocked": false], ["step": ["title": "Hang"], "isDone": false, "isLocked": true],
            ["step": ["title": "Fold"], "isDone": false, "isLocked": true],
        ])
        let stepIDs = try server.graphQL(
            "query($id: ID!) { node(id: $id) { ... on ChoreInstance { chore { steps { id } } } } }", variables: ["id": .string(instance)], token: f.ben.token)
        let fold = try #require(stepIDs.data?["node"]?["chore"]?["steps"]?[2]?["id"]?.stringValue, "\(stepIDs.json)")
        let locked = try server.completeChore(instance, as: f.ben, ["stepId": .string(fold)])
        #expect(locked.errorCode == "CONFLICT" && locked.errorReason == "STEP_LOCKED", "\(locked.json)")
        #expect(locked.json["errors"]?[0]?["message"] == "The step “Fold” is locked until “Hang” is done.")
        #expect(locked.errorExtensions?["field"] == "input.stepId")
        let load = try server.completeChore(instance, as: f.ben)
        #expect(load.data?["completeChore"]?["outcome"] == "STEP_COMPLETED", "\(load.json)")
        #expect(load.data?["completeChore"]?["completion"]?["step"] == ["title": "Load", "position": 0])
        #expect(try server.completeChore(instance, as: f.ben).data?["completeChore"]?["outcome"] == "STEP_COMPLETED")
        let last = try server.completeChore(instance, as: f.ben)
        #expect(last.data?["completeChore"]?["outcome"] == "COMPLETED")
        #expect(last.data?["completeChore"]?["instance"]?["status"] == "COMPLETED")
        #expect(last.data?["completeChore"]?["completion"]?["isFinal"] == true)
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chore_completions WHERE instance_id = '\(instance)'") == "3")
    }

    @Test func FR35_completedTwiceAnswersAlreadyCompletedNamingWhoAndWhenAndManyAtOnceCountOnce() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (_, instance) = try Self.choreAndInstance(server, "Bins", in: f.householdID, as: f.ana, [
            "assignmentMode": "SINGLE_ACTION", "schedule": ["once": .string(Self.time(3600))],
        ])
        // Eight requests at once, from two adults: the store serialises them and exactly one counts.
        nonisolated(unsafe) let shared = server  // graphQL opens a connection per call and reads only the port
        let people = [f.ana, f.ben, f.ana, f.ben, f.ana, f.ben, f.ana, f.ben]
        let outcomes = Mutex<[JSON]>([])
        DispatchQueue.concurrentPerform(iterations: people.count) { index in
            let response = try? shared.completeChore(instance, as: people[index])
            outcomes.withLock { $0.append(response?.data?["completeChore"] ?? .null) }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.filter { $0["outcome"] == "COMPLETED" }.count == 1, "\(results)")
        let already = results.filter { $0["outcome"] == "ALREADY_COMPLETED" }
        #expect(already.count == people.count - 1)
        let winner = try #require(results.first { $0["outcome"] == "COMPLETED" }?["completion"])
        for answer in already {
            #expect(answer["completion"]?["id"] == winner["id"] && answer["completion"]?["completedAt"] == winner["completedAt"])
            #expect(answer["completion"]?["member"]?["displayName"] == winner["member"]?["displayName"], "who did it")
        }
        // A replayed clientMutationId returns the first result and records nothing.
        let (_, second) = try Self.choreAndInstance(server, "Recycling", in: f.householdID, as: f.ana, [
            "assignmentMode": "SINGLE_ACTION", "schedule": ["once": .string(Self.time(7200))],
        ])
        let first = try server.completeChore(second, as: f.ben, ["clientMutationId": "offline-7"])
        let replay = try server.completeChore(second, as: f.ben, ["clientMutationId": "offline-7"])
        #expect(replay.data?["completeChore"]?["outcome"] == "COMPLETED" && replay.data?["completeChore"]?["clientMutationId"] == "offline-7")
        #expect(replay.data?["completeChore"]?["completion"]?["id"] == first.data?["completeChore"]?["completion"]?["id"])
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chore_completions WHERE instance_id = '\(second)'") == "1")
    }

    @Test func FR18_anInstanceOfAnotherHouseholdThanTheActiveOneAsksWhatToDoAndEachChoiceIsHonoured() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        // Ben's active household is the flat (his first); the cottage is his too.
        let (cottageID, _) = try server.createHousehold("Cottage", as: f.ben)
        let (_, instance) = try Self.choreAndInstance(server, "Water the garden", in: cottageID, as: f.ben, ["schedule": ["once": .string(Self.time(3600))]])
        let prompt = try server.completeChore(instance, as: f.ben, ["clientMutationId": "garden-1"])
        let payload = try #require(prompt.data?["completeChore"], "\(prompt.json)")
        #expect(payload["outcome"] == "CROSS_HOUSEHOLD_CHOICE_REQUIRED" && payload["completion"] == .null)
        #expect(payload["activeHousehold"]?["id"]?.stringValue == f.householdID && payload["instance"]?["household"]?["id"]?.stringValue == cottageID)
        #expect(payload["instance"]?["status"] == "PENDING")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chore_completions") == "0", "cancel is not calling: nothing recorded")
        let anyway = try server.completeChore(instance, as: f.ben, ["crossHousehold": "COMPLETE_ANYWAY", "clientMutationId": "garden-1"])
        #expect(anyway.data?["completeChore"]?["outcome"] == "COMPLETED", "the prompt is not remembered under the id: \(anyway.json)")
        #expect(anyway.data?["completeChore"]?["completion"]?["crossHousehold"] == "COMPLETE_ANYWAY")
        let active = "{ activeHousehold { id } }"
        #expect(try server.graphQL(active, token: f.ben.token).data?["activeHousehold"]?["id"]?.stringValue == f.householdID)
        let (_, other) = try Self.choreAndInstance(server, "Mow", in: cottageID, as: f.ben, ["schedule": ["once": .string(Self.time(7200))]])
        let switched = try server.completeChore(other, as: f.ben, ["crossHousehold": "SWITCH_AND_COMPLETE"])
        #expect(switched.data?["completeChore"]?["outcome"] == "COMPLETED", "\(switched.json)")
        #expect(try server.graphQL(active, token: f.ben.token).data?["activeHousehold"]?["id"]?.stringValue == cottageID)
    }

    @Test func FR25_FR26_FR35_whoMayCompleteIsEnforcedAndAnotherHouseholdsInstanceIsNotFoundLikeAnUnknownOne() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (choreID, instance) = try Self.choreAndInstance(server, "Ben's", in: f.householdID, as: f.ana, for: f.ben, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": .string(Self.time(3600))],
        ])
        let child = try server.completeChore(instance, as: f.kim)
        #expect(child.errorCode == "FORBIDDEN" && child.errorReason == "CHORE_COMPLETERS", "\(child.json)")
        #expect(child.json["errors"]?[0]?["message"] == "This chore may be completed only by admins and ben; Kim is not among them.")
        let (_, shared) = try Self.choreAndInstance(server, "Shared", in: f.householdID, as: f.ana, for: f.ben, [
            "assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": .string(Self.time(3600))],
        ])
        let notAdult = try server.completeChore(shared, as: f.kim)
        #expect(notAdult.errorReason == "CHORE_COMPLETERS", "\(notAdult.json)")
        #expect(notAdult.json["errors"]?[0]?["message"] == "This chore may be completed only by admins, ben and every adult; Kim is not among them.")
        let theirs = try server.completeChore(instance, as: f.cara)
        let derived = try ServerProcess.derivedInstanceID(choreID: choreID, dueAt: Self.time(3601))
        let unknown = try server.completeChore(derived, as: f.ben)
        #expect(theirs.errorCode == "NOT_FOUND" && unknown.errorCode == "NOT_FOUND")
        #expect(theirs.json["errors"]?[0]?["message"] == unknown.json["errors"]?[0]?["message"])
        #expect(try server.uncompleteChore(instance, as: f.cara).errorCode == "NOT_FOUND")
        let node = try server.graphQL("query($id: ID!) { node(id: $id) { id } }", variables: ["id": .string(instance)], token: f.cara.token)
        #expect(node.data?["node"] == .null)
        // An admin records it for a supervised member; the completion is theirs.
        let shadow = try server.graphQL(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "kind": "SHADOW", "displayName": "Tim", "age": 15]), token: f.ana.token)
        let timID = try #require(shadow.data?["addMember"]?["member"]?["id"]?.stringValue, "\(shadow.json)")
        let (_, tims) = try Self.choreAndInstance(server, "Tim's", in: f.householdID, as: f.ana, for: f.ana, [
            "assignmentMode": "SINGLE_ACTION", "assigneeIds": [.string(timID)], "requiresApproval": false, "schedule": ["once": .string(Self.time(3600))],
        ])
        let recorded = try server.completeChore(tims, as: f.ana, ["onBehalfOf": .string(timID)])
        #expect(recorded.data?["completeChore"]?["completion"]?["member"]?["id"]?.stringValue == timID, "\(recorded.json)")
        #expect(recorded.data?["completeChore"]?["completion"]?["recordedBy"]?["id"]?.stringValue == f.anaMemberID)
        let forAnAdult = try server.completeChore(instance, as: f.ana, ["onBehalfOf": .string(f.benMemberID)])
        #expect(forAnAdult.errorCode == "BAD_USER_INPUT" && forAnAdult.errorExtensions?["field"] == "input.onBehalfOf")
    }

    @Test func FR36_recurringInstancesArePlannedToTheHorizonAndLaterOnesCompletedByTheIDAClientDerived() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--chore-horizon", "7d"])
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Feed the cat", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)],
            "schedule": ["recurrence": "DTSTART:20260101T070000Z\nRRULE:FREQ=DAILY"],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let planned = try server.myInstances(as: f.ben)
        #expect((7...8).contains(planned.count) && planned.allSatisfy { $0["isMaterialized"] == true }, "\(planned.count)")
        let month = try server.myInstances(as: f.ben, filter: ["dueBefore": .string(Self.time(30 * 86_400))])
        #expect((29...31).contains(month.count))
        let later = try #require(month.last)
        #expect(later["isMaterialized"] == false)
        let occurrences = try server.graphQL(
            "query($id: ID!, $after: DateTime!) { chore(id: $id) { occurrences(after: $after, first: 500) } }",
            variables: ["id": .string(choreID), "after": .string(Self.time(0))], token: f.ben.token)
        guard case .array(let times)? = occurrences.data?["chore"]?["occurrences"] else { Issue.record("\(occurrences.json)"); return }
        #expect(times.count == 500 && times.first == month.first?["dueAt"])
        let tooMany = try server.graphQL(
            "query($id: ID!, $after: DateTime!) { chore(id: $id) { occurrences(after: $after, first: 501) } }",
            variables: ["id": .string(choreID), "after": .string(Self.time(0))], token: f.ben.token)
        #expect(tooMany.errorCode == "BAD_USER_INPUT" && tooMany.errorExtensions?["field"] == "first", "\(tooMany.json)")
        // An offline phone derives the id of an occurrence three weeks ahead and completes it.
        let dueAt = try #require(later["dueAt"]?.stringValue)
        let derived = try ServerProcess.derivedInstanceID(choreID: choreID, dueAt: dueAt)
        #expect(derived == later["id"]?.stringValue)
        let done = try server.completeChore(derived, as: f.ben)
        #expect(done.data?["completeChore"]?["outcome"] == "COMPLETED" && done.data?["completeChore"]?["instance"]?["isMaterialized"] == true, "\(done.json)")
    }

    @Test func FR37_aOneOffChorePastItsDueDayIsArchivedAndADoneOneStaysInHistory() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Yesterday's", in: f.householdID, as: f.ana, ["schedule": ["once": .string(Self.time(-2 * 86_400))]])
        let choreID = try #require(chore["id"]?.stringValue)
        let archived = try server.myInstances(as: f.ana, filter: ["statuses": ["ARCHIVED"], "dueAfter": .string(Self.time(-3 * 86_400))])
        let instance = try #require(archived.first { $0["chore"]?["id"]?.stringValue == choreID }, "\(archived)")
        let late = try server.completeChore(try #require(instance["id"]?.stringValue), as: f.ana)
        #expect(late.errorCode == "CONFLICT" && late.errorReason == "INSTANCE_CLOSED", "\(late.json)")
        let (doneID, done) = try Self.choreAndInstance(server, "Today's", in: f.householdID, as: f.ana, ["schedule": ["once": .string(Self.time(60))]])
        #expect(try server.completeChore(done, as: f.ana).data?["completeChore"]?["outcome"] == "COMPLETED")
        let history = try server.graphQL(
            "query($id: ID!) { chore(id: $id) { completions(first: 10) { edges { node { choreTitle status } } } } }",
            variables: ["id": .string(doneID)], token: f.ben.token)
        #expect(history.data?["chore"]?["completions"]?["edges"] == [["node": ["choreTitle": "Today's", "status": "COMPLETED"]]], "\(history.json)")
    }

    @Test func FR37_aOneOffChoreIsArchivedWhenDoneOrPastDueAndListsShowArchivedChoresOnlyWhenAsked() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let missed = try #require(try server.chore("Missed", in: f.householdID, as: f.ana, ["schedule": ["once": .string(Self.time(-2 * 86_400))]])["id"])
        let (doneID, instanceID) = try Self.choreAndInstance(server, "Done", in: f.householdID, as: f.ana, ["schedule": ["once": .string(Self.time(60))]])
        _ = try server.chore("Later", in: f.householdID, as: f.ana, ["schedule": ["once": .string(Self.time(86_400))]])
        let statusQuery = "query($id: ID!) { chore(id: $id) { status archivedAt completions(first: 5) { edges { node { status } } } } }"
        let active = try server.graphQL(statusQuery, variables: ["id": .string(doneID)], token: f.ben.token)
        #expect(active.data?["chore"]?["status"] == "ACTIVE" && active.data?["chore"]?["archivedAt"] == .null, "\(active.json)")
        #expect(try server.completeChore(instanceID, as: f.ana).data?["completeChore"]?["outcome"] == "COMPLETED")
        let done = try server.graphQL(statusQuery, variables: ["id": .string(doneID)], token: f.ben.token)
        #expect(done.data?["chore"]?["status"] == "ARCHIVED" && done.data?["chore"]?["archivedAt"]?.stringValue != nil, "\(done.json)")
        #expect(done.data?["chore"]?["completions"]?["edges"] == [["node": ["status": "COMPLETED"]]], "kept in history")
        let pastDue = try server.graphQL(statusQuery, variables: ["id": missed], token: f.ben.token)
        #expect(pastDue.data?["chore"]?["status"] == "ARCHIVED", "\(pastDue.json)")
        let list = "query($id: ID!, $filter: ChoreFilter) { householdChores(householdId: $id, filter: $filter) { totalCount edges { node { title status } } } }"
        let byDefault = try server.graphQL(list, variables: ["id": .string(f.householdID)], token: f.ben.token)
        #expect(byDefault.data?["householdChores"]?["edges"] == [["node": ["title": "Later", "status": "ACTIVE"]]], "\(byDefault.json)")
        let archived = try server.graphQL(list, variables: ["id": .string(f.householdID), "filter": ["statuses": ["ARCHIVED"]]], token: f.ben.token)
        #expect(archived.data?["householdChores"]?["edges"] == [
            ["node": ["title": "Done", "status": "ARCHIVED"]], ["node": ["title": "Missed", "status": "ARCHIVED"]],
        ], "\(archived.json)")
        let both = try server.graphQL(list, variables: ["id": .string(f.householdID), "filter": ["statuses": ["ACTIVE", "ARCHIVED"]]], token: f.ben.token)
        #expect(both.data?["householdChores"]?["totalCount"] == 3)
        // myChores: the archived instance only when asked for; undoing the completion makes the chore active again.
        #expect(try server.myInstances(as: f.ana).allSatisfy { $0["chore"]?["title"] == "Later" })
        let archivedInstances = try server.myInstances(as: f.ana, filter: ["statuses": ["ARCHIVED"], "dueAfter": .string(Self.time(-3 * 86_400))])
        #expect(archivedInstances.map { $0["chore"]?["title"] } == ["Missed"], "\(archivedInstances)")
        #expect(try server.uncompleteChore(instanceID, as: f.ana).data?["uncompleteChore"] != nil)
        let again = try server.graphQL(statusQuery, variables: ["id": .string(doneID)], token: f.ben.token)
        #expect(again.data?["chore"]?["status"] == "ACTIVE" && again.data?["chore"]?["archivedAt"] == .null, "\(again.json)")
    }

    @Test func FR34_FR39_historyPerChoreAndPerMemberIsNewestFirstAndOutlivesDeletionsAndDepartures() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (choreID, first) = try Self.choreAndInstance(server, "Dishes", in: f.householdID, as: f.ana, for: f.ben, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "schedule": ["recurrence": "DTSTART:20260101T190000Z\nRRULE:FREQ=DAILY"],
        ])
        #expect(try server.completeChore(first, as: f.ben).data?["completeChore"]?["outcome"] == "COMPLETED")
        let second = try #require(server.myInstances(as: f.ben).first?["id"]?.stringValue)
        #expect(try server.completeChore(second, as: f.ben).data?["completeChore"]?["outcome"] == "COMPLETED")
        // Undo within the window (a mistap), then again.
        let undone = try server.uncompleteChore(second, as: f.ben)
        #expect(undone.data?["uncompleteChore"]?["undoneCompletion"]?["status"] == "UNDONE", "\(undone.json)")
        #expect(undone.data?["uncompleteChore"]?["instance"]?["status"] == "PENDING")
        #expect(try server.uncompleteChore(second, as: f.ben).errorReason == "NOT_COMPLETED")
        #expect(try server.completeChore(second, as: f.ben).data?["completeChore"]?["outcome"] == "COMPLETED")
        let byChore = try server.graphQL(
            "query($id: ID!) { chore(id: $id) { completions(first: 1) { edges { node { \(ServerProcess.completionFields) } } pageInfo { hasNextPage endCursor } } } }",
            variables: ["id": .string(choreID)], token: f.kim.token)
        let page = try #require(byChore.data?["chore"]?["completions"], "\(byChore.json)")
        #expect(page["pageInfo"]?["hasNextPage"] == true && page["edges"]?[0]?["node"]?["member"]?["displayName"] == "ben")
        // Deleting the chore cancels what is pending; Ben leaves; his history keeps his name.
        let deleted = try server.graphQL(
            "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { deletedChoreId } }",
            variables: ServerProcess.input(["choreId": .string(choreID)]), token: f.ana.token)
        #expect(deleted.json["errors"] == nil)
        #expect(try server.databaseColumn("SELECT DISTINCT status FROM chore_instances WHERE chore_id = '\(choreID)' AND status <> 'completed'") == ["cancelled"])
        let left = try server.graphQL(
            "mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "incompleteTasks": "UNASSIGN"]), token: f.ben.token)
        #expect(left.json["errors"] == nil, "\(left.json)")
        let bens = try server.graphQL(
            """
            query($id: ID!) { household(id: $id) { members(first: 10, includeDeparted: true) { edges { node { id displayName
              completions(first: 10) { edges { node { choreTitle chore { id } completedAt member { displayName status } } } } } } } } }
            """,
            variables: ["id": .string(f.householdID)], token: f.ana.token)
        let ben = try #require(bens.data?["household"]?["members"]?["edges"].flatMap { edges -> JSON? in
            guard case .array(let list) = edges else { return nil }
            return list.first { $0["node"]?["id"]?.stringValue == f.benMemberID }?["node"]
        }, "\(bens.json)")
        guard case .array(let entries)? = ben["completions"]?["edges"] else { Issue.record("\(ben)"); return }
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0["node"]?["choreTitle"] == "Dishes" && $0["node"]?["chore"] == .null })
        #expect(entries.allSatisfy { $0["node"]?["member"] == ["displayName": "ben", "status": "DEPARTED"] })
        let times = entries.compactMap { $0["node"]?["completedAt"]?.stringValue }
        #expect(times == times.sorted(by: >))
    }

    @Test func FR54_myChoresListsPersonalAndHouseholdInstancesByDueTimeMarkedAndFiltered() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let kitchen = try server.tag("Kitchen", in: f.householdID, as: f.ana)
        _ = try server.chore("Mine", in: nil, as: f.ben, ["schedule": ["once": .string(Self.time(3 * 3600))]])
        _ = try server.chore("Ben's", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": .string(Self.time(3600))],
            "tagIds": [.string(kitchen)],
        ])
        _ = try server.chore("Anyone's", in: f.householdID, as: f.ana, ["assignmentMode": "SINGLE_ACTION", "schedule": ["once": .string(Self.time(2 * 3600))]])
        _ = try server.chore("Kim's", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.kimMemberID)], "schedule": ["once": .string(Self.time(4 * 3600))],
        ])
        let list = try server.myInstances(as: f.ben)
        #expect(list.map { $0["chore"]?["title"] } == ["Ben's", "Anyone's", "Mine"])
        #expect(list.map { $0["isPersonal"] } == [false, false, true])
        #expect(try server.myInstances(as: f.kim).map { $0["chore"]?["title"] } == ["Kim's"])
        #expect(try server.myInstances(as: f.ben, filter: ["tagIds": [.string(kitchen)]]).map { $0["chore"]?["title"] } == ["Ben's"])
        #expect(try server.myInstances(as: f.ben, filter: ["isPersonal": true]).map { $0["chore"]?["title"] } == ["Mine"])
        #expect(try server.myInstances(as: f.ben, filter: ["householdId": .string(f.householdID), "dueAfter": .string(Self.time(5400))])
            .map { $0["chore"]?["title"] } == ["Anyone's"])
        let page = try server.myChores(as: f.ben, first: 2)
        #expect(page.data?["myChores"]?["pageInfo"]?["hasNextPage"] == true)
        let outsider = try server.myChores(as: f.ben, filter: ["householdId": .string(f.caraHouseholdID)])
        #expect(outsider.errorCode == "NOT_FOUND")
    }

    @Test func FR_ONBOARD_7_D_ONBOARD_3_firstChoreCompleted_theFirstCompletedChoreActivatesTheHouseholdAndDismissesTheChecklist() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        _ = try server.graphQL("mutation { setAnalyticsConsent(input: {isConsented: true}) { user { id } } }", token: ana.token)
        _ = try server.graphQL("mutation { recordOnboardingStarted(input: {platform: IOS}) { isRecorded } }", token: ana.token)
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let admin = try server.graphQL(
            "mutation($input: OnboardingStepInput!) { completeOnboardingStep(input: $input) { onboarding { isComplete isDismissed } } }",
            variables: ServerProcess.input(["householdId": .string(householdID), "step": "ADMIN"]), token: ana.token)
        #expect(admin.data?["completeOnboardingStep"]?["onboarding"] == ["isComplete": true, "isDismissed": false], "\(admin.json)")
        for title in ["First", "Second"] {
            let (_, instance) = try Self.choreAndInstance(server, title, in: householdID, as: ana, ["schedule": ["once": .string(Self.time(600))]])
            #expect(try server.completeChore(instance, as: ana).data?["completeChore"]?["outcome"] == "COMPLETED")
        }
        let checklist = try server.graphQL(
            "query($id: ID!) { household(id: $id) { onboarding { isDismissed firstChoreCompletedAt } } }", variables: ["id": .string(householdID)],
            token: ana.token)
        #expect(checklist.data?["household"]?["onboarding"]?["isDismissed"] == true, "\(checklist.json)")
        #expect(checklist.data?["household"]?["onboarding"]?["firstChoreCompletedAt"]?.stringValue != nil)
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM analytics_events WHERE name = 'first_chore_completed'") == "1")
        let json = try HearthCommand.run(["report", "activation", "--json", "--database", server.database])
        let report = try JSON(parsing: Array(json.standardOutput.utf8))
        #expect(report["cohort"] == 1 && report["completedFirstChore"] == 1 && report["activated"] == 1, "\(json.standardOutput)")
        let text = try HearthCommand.run(["report", "activation", "--database", server.database])
        #expect(text.standardOutput.contains("Activated within 72 h: 1 = 100.0 %"), "\(text.standardOutput)")
    }

    @Test func D_ONBOARD_3_firstChoreCompleted_aCompletionWaitingForApprovalCountsOnlyOnceAnAdminApprovesIt() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        _ = try server.graphQL("mutation { setAnalyticsConsent(input: {isConsented: true}) { user { id } } }", token: f.ana.token)
        let checklist = "query($id: ID!) { household(id: $id) { onboarding { isDismissed firstChoreCompletedAt } } }"
        let events = "SELECT CAST(count(*) AS TEXT) FROM analytics_events WHERE name = 'first_chore_completed'"
        let waiting = try server.childCompletesAChore(f.kim, member: f.kimMemberID, in: f.householdID, createdBy: f.ana, tokens: 2, requiresApproval: true)
        #expect(waiting.status == "PENDING_APPROVAL")
        let before = try server.graphQL(checklist, variables: ["id": .string(f.householdID)], token: f.ana.token)
        #expect(before.data?["household"]?["onboarding"] == ["isDismissed": false, "firstChoreCompletedAt": .null], "\(before.json)")
        #expect(try server.databaseText(events) == "0")
        let approved = try server.graphQL(
            "mutation($input: ApproveCompletionInput!) { approveCompletion(input: $input) { completion { status } } }",
            variables: ServerProcess.input(["completionId": .string(waiting.completionID)]), token: f.ana.token)
        #expect(approved.data?["approveCompletion"]?["completion"]?["status"] == "COMPLETED", "\(approved.json)")
        let after = try server.graphQL(checklist, variables: ["id": .string(f.householdID)], token: f.ana.token)
        #expect(after.data?["household"]?["onboarding"]?["isDismissed"] == true, "\(after.json)")
        #expect(after.data?["household"]?["onboarding"]?["firstChoreCompletedAt"]?.stringValue != nil)
        #expect(try server.databaseText(events) == "1")
    }


    @Test func FR35_aCompletionIsUndoneByItsMemberWithinTheWindowAndSomeoneElsesOrALateOneOnlyByAnAdmin() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let (_, instance) = try Self.choreAndInstance(server, "Bins", in: f.householdID, as: f.ana, for: f.ben, [
            "assignmentMode": "SINGLE_ACTION", "schedule": ["once": .string(Self.time(3600))],
        ])
        #expect(try server.completeChore(instance, as: f.ben).data?["completeChore"]?["outcome"] == "COMPLETED")
        let others = try server.uncompleteChore(instance, as: f.kim)
        #expect(others.errorCode == "FORBIDDEN" && others.errorReason == "ADMINS_ONLY", "\(others.json)")
        #expect(others.json["errors"]?[0]?["message"] == "Only the household's admins may undo someone else's completion.")
        // The window (5 minutes by default) has passed for Ben's completion.
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        let outside = formatter.string(from: Date(timeIntervalSinceNow: -301))
        try server.databaseWrite("UPDATE chore_completions SET completed_at = '\(outside)' WHERE instance_id = '\(instance)'")
        let late = try server.uncompleteChore(instance, as: f.ben)
        #expect(late.errorCode == "FORBIDDEN" && late.errorReason == "UNDO_WINDOW_PASSED", "\(late.json)")
        #expect(late.json["errors"]?[0]?["message"] == "A completion can be undone for 5 minutes after it; ask an admin to undo this one.")
        let byAdmin = try server.uncompleteChore(instance, as: f.ana)
        #expect(byAdmin.data?["uncompleteChore"]?["undoneCompletion"]?["status"] == "UNDONE", "\(byAdmin.json)")
        #expect(byAdmin.data?["uncompleteChore"]?["instance"]?["status"] == "PENDING")
    }

}
