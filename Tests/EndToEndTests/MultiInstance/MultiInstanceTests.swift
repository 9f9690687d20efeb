import Foundation
import HearthStore
import TestPython
import Testing

/// Issue 20's proof: three `hearth serve` processes on one PostgreSQL database behind nginx
/// (``Deployment``). Clients spread over the instances see each other's changes live; `kill -9` of
/// one instance during a write load loses no acknowledged write, and its WebSocket clients
/// reconnect through nginx to the others and resume from their cursor with no gap and no repeat.
///
/// Runs in `make test`'s PostgreSQL pass (tools/postgres/suites), where `HEARTH_TEST_POSTGRES_URL`
/// names the throwaway cluster; instances share nothing but the database, which SQLite's single
/// file on one machine is not for.
@Suite(.serialized, .enabled(if: !TestDatabaseStore.isSQLite, "several instances share one PostgreSQL database"))
struct MultiInstanceTests {
    /// Ana and Ben (the admins of one household, set up through instance A); returns their tokens
    /// and the household's id.
    private static func household(_ deployment: Deployment) throws -> (ana: String, ben: String, householdID: String) {
        let server = deployment.instances[0]
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        try server.join(ben, householdID, role: "ADMIN", invitedBy: ana)  // admins may create chores
        return (ana.token, ben.token, householdID)
    }

    @Test func aSubscriptionOnOneInstanceReceivesTheChangesSentThroughAnotherAndThroughNginx() throws {
        try Deployment.with(instances: 3) { deployment in
            let (ana, ben, householdID) = try Self.household(deployment)
            let urls = deployment.baseURLs
            let lines = try TestPython.runScript(Deployment.script + """

                async def main(a, b, c, balancer, ana, ben, household):
                    # Ana's subscription is live on A before Ben creates a chore through B.
                    on_a = await connected(ana, a)
                    await subscribe_to(on_a, "a", EVENTS, {"id": household, "after": None}, a)
                    await created(household, "Bins", ben, b)
                    first = await next_created(on_a)
                    print("ana on A", first["kind"], first["chore"]["title"])
                    # Ben subscribes through nginx after that event; Ana creates one through C.
                    through_nginx = await connected(ben, balancer)
                    await resume(through_nginx, "n", household, first["sequence"])
                    await created(household, "Dishes", ana, c)
                    for who, ws in (("ana on A", on_a), ("ben through nginx", through_nginx)):
                        event = await next_created(ws)
                        assert int(event["sequence"]) > int(first["sequence"]), (first, event)
                        print(who, event["kind"], event["chore"]["title"])
                asyncio.run(main(*sys.argv[2:]))
                """, [urls[0], urls[0], urls[1], urls[2], try #require(deployment.balancer).baseURL, ana, ben, householdID])
            #expect(lines == [
                "ana on A CHORE_CREATED Bins",
                "ana on A CHORE_CREATED Dishes",
                "ben through nginx CHORE_CREATED Dishes",
            ])
        }
    }

    // Two followers of one user on one instance resume from the same cursor with the same document:
    // the second must not join the first's shared execution once it has delivered (it would miss the
    // replay; `ReplayingSubscriptionsTests` pins that on one instance).
    @Test
    func killingAnInstanceDuringWritesLosesNoAcknowledgedWriteAndItsClientsResumeElsewhereWithoutGapsOrRepeats() throws {
        try Deployment.with(instances: 3) { deployment in
            let (ana, ben, householdID) = try Self.household(deployment)
            let urls = deployment.baseURLs
            let victim = deployment.instances[2]
            let lines = try TestPython.runScript(Deployment.script + """

                import http.client
                WRITERS, BEFORE, AFTER = 4, 24, 24
                async def main(a, b, c, balancer, victim, ana, ben, household, after):
                    deadline = time.monotonic() + 180
                    # Two followers on each instance (Ana and Ben), one through nginx.
                    followers = [Follower(f"{who}@{name}", token, base)
                                 for name, base in (("A", a), ("B", b), ("C", c), ("nginx", balancer))
                                 for who, token in (("ana", ana), ("ben", ben)) if name != "nginx" or who == "ana"]
                    following = [asyncio.create_task(f.follow(household, after, balancer, "last", deadline)) for f in followers]
                    acknowledged, stop = [], threading.Event()
                    def write(writer):
                        # Chores created through nginx, one request at a time; a success answer is an acknowledged write.
                        for number in range(10**6):
                            if stop.is_set():
                                return
                            try:
                                answer = post(CREATE, chore_input(household, f"w{writer}-{number}"), ana, balancer)
                            except (OSError, http.client.HTTPException, ValueError):
                                continue  # no answer, or an error page: not acknowledged
                            if "errors" not in answer:
                                acknowledged.append(answer["data"]["createChore"]["chore"]["id"])
                    threads = [threading.Thread(target=write, args=(index,)) for index in range(WRITERS)]
                    for thread in threads:
                        thread.start()
                    async def reached(count):
                        while len(acknowledged) < count:
                            assert time.monotonic() < deadline, f"{len(acknowledged)} writes acknowledged, waiting for {count}"
                            await asyncio.sleep(0.02)  # paces the poll of the writers' progress
                    await reached(BEFORE)
                    os.kill(int(victim), signal.SIGKILL)
                    killed_at = len(acknowledged)
                    await reached(killed_at + AFTER)
                    stop.set()
                    for thread in threads:
                        await asyncio.get_running_loop().run_in_executor(None, thread.join)
                    await created(household, "last", ana, a)
                    await asyncio.gather(*following)
                    reference = followers[0].sequences
                    for f in followers:
                        assert f.sequences == sorted(set(f.sequences)), f"{f.name}: out of order or repeated"
                        assert f.sequences == reference, f"{f.name} saw other events than {followers[0].name}: missing {sorted(set(reference) - set(f.sequences))[:20]}, extra {sorted(set(f.sequences) - set(reference))[:20]}, {len(f.sequences)} against {len(reference)}, first {f.sequences[:3]} {reference[:3]}, reconnects {f.reconnects}"
                        missing = set(acknowledged) - f.created
                        assert not missing, f"{f.name} missed {len(missing)} acknowledged chores"
                        # Where the one through nginx landed is nginx's choice: it only has to follow.
                        print(f.name, "followed" if f.name.endswith("@nginx") else "reconnected" if f.reconnects else "stayed")
                    print("acknowledged", len(acknowledged) >= BEFORE + AFTER, "events", len(reference) > len(acknowledged))
                    print("ids", " ".join(acknowledged))
                asyncio.run(main(*sys.argv[2:]))
                """, [urls[0], urls[0], urls[1], urls[2], try #require(deployment.balancer).baseURL, String(victim.process.processIdentifier),
                      ana, ben, householdID, try deployment.newestSequence()])
            let ids = (lines.last { $0.hasPrefix("ids ") } ?? "").split(separator: " ").dropFirst().map(String.init)
            #expect(lines.filter { !$0.hasPrefix("ids ") } == [
                "ana@A stayed", "ben@A stayed", "ana@B stayed", "ben@B stayed",
                "ana@C reconnected", "ben@C reconnected", "ana@nginx followed",
                "acknowledged True events True",
            ])
            // Every write that was answered with success is in the database after the kill.
            #expect(try deployment.storedChores(among: ids) == Set(ids))
            #expect(!victim.process.isRunning)
        }
    }
}
