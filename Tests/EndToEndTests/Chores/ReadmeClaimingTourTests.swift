import Foundation
import GraphQL
import TestPython
import Testing

/// The README's claiming tour runs as written: its Python listener (`gql`) runs as Ben's phone, its
/// `gql '…'` requests are sent in order as the people their `TOKEN=$…` names (Ana an admin, Ben a member
/// of her household), with the placeholders filled from what earlier steps produced (the chore due two
/// seconds ahead rather than a minute), and Ben's phone receives what the tour says it does; Ben's late
/// claim is answered with the error the tour shows.
@Suite struct ReadmeClaimingTourTests {
    /// The tour's text: from its heading to the next section.
    private static func tour() throws -> String {
        let readme = try String(contentsOf: ReadmeChoresTourTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "#### API tour: claiming"))
        let section = readme[start.upperBound...]
        return String(section[..<(section.range(of: "\n### ")?.lowerBound ?? section.endIndex)])
    }

    /// The text of each fenced block of `language` in `text`, in order.
    private static func blocks(_ language: String, in text: String) -> [String] {
        text.components(separatedBy: "```\(language)\n").dropFirst().map { String($0.prefix(upTo: $0.range(of: "```")!.lowerBound)) }
    }

    @Test func theToursListenerAndRequestsRunInOrderAndBensPhoneReceivesWhatTheTourSays() throws {
        let tour = try Self.tour()
        let listener = try #require(Self.blocks("python", in: tour).first)
        // Each request as [the token's name, the JSON body].
        let requests: [JSON] = Self.blocks("sh", in: tour).compactMap { block in
            guard let match = block.firstMatch(of: /^TOKEN=\$(\w+) gql '(.*)'\n$/.dotMatchesNewlines()) else { return nil }
            return [.string(String(match.1)), .string(String(match.2))]
        }
        #expect(requests.count == 3)
        let late = try #require(Self.blocks("json", in: tour).first)

        try ServerProcess.withChoreFamily(["--test-endpoints"]) { server, f in
            let lines = try TestPython.runScript(ServerProcess.webSocketPeerScript + """

                import os
                from datetime import datetime, timedelta, timezone
                LISTENER, REQUESTS, LATE = sys.argv[5], json.loads(sys.argv[6]), json.loads(sys.argv[7])
                async def main(ana, ben, household):
                    # The README's listener as Ben's phone, its prints collected.
                    events = asyncio.Queue()
                    os.environ.update(BEN=ben, HOUSEHOLD=household)
                    phone = {"print": events.put_nowait}
                    exec(LISTENER.replace("ws://127.0.0.1:8080", BASE.replace("http", "ws")).replace("asyncio.run(main())", ""), phone)
                    before = metric("hearth_graphql_active_subscriptions")
                    listening = asyncio.create_task(phone["main"]())
                    await asyncio.get_running_loop().run_in_executor(
                        None, lambda: urllib.request.urlopen(f"{BASE}/_test/subscriptions/{before + 1}").read())
                    async def received(kind):
                        while True:
                            # The next event the phone printed; the listener's own failure, when it ends.
                            get = asyncio.ensure_future(events.get())
                            await asyncio.wait({get, listening}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
                            if listening.done():
                                listening.result()
                                raise RuntimeError("the listener ended")
                            event = get.result()
                            if event["kind"] == kind:
                                claimant = (event["instance"]["claimant"] or {}).get("displayName", "-")
                                print("ben's phone", kind, event["instance"]["chore"]["title"], claimant, event["dismissesOffer"])
                                return event
                    soon = datetime.now(timezone.utc) + timedelta(seconds=2)
                    tokens = {"ANA": ana, "BEN": ben}
                    values = {"<household.id>": household, "<a minute from now>": soon.strftime("%Y-%m-%dT%H:%M:%SZ")}
                    def request(index):
                        body = REQUESTS[index][1]
                        for placeholder, value in values.items():
                            body = body.replace(placeholder, value)
                        return json.loads(body)
                    async def send(index, who=None):
                        sent = request(index)
                        return await call(sent["query"], sent["variables"], tokens[who or REQUESTS[index][0]])
                    await send(0)
                    values["<instance.id>"] = (await received("OFFERED"))["instance"]["id"]
                    claimed = await send(1)
                    print("claimed by", claimed["claimChore"]["claimant"]["displayName"])
                    await received("CLAIMED")
                    # Ben, a moment too late: the answer the tour shows (but the claimant's id, elided there).
                    sent = request(1)
                    answer = await asyncio.get_running_loop().run_in_executor(None, post, sent["query"], sent["variables"], ben)
                    answer["errors"][0]["extensions"]["claimant"]["id"] = "mem_…"
                    answer["errors"][0].pop("locations", None)
                    print("ben's late claim as the tour shows it:", answer == LATE)
                    released = await send(2)
                    print("released", released["releaseChore"]["releasedClaimant"]["displayName"])
                    await received("RELEASED")
                    await received("OFFERED")
                    listening.cancel()
                asyncio.run(main(*sys.argv[2:5]))
                """, [
                    "http://127.0.0.1:\(server.port)", f.ana.token, f.ben.token, f.householdID, listener,
                    String(decoding: JSON.array(requests).serialized(), as: UTF8.self), late,
                ])
            #expect(lines == [
                "ben's phone OFFERED Take the bins out - False",
                "claimed by ana",
                "ben's phone CLAIMED Take the bins out ana True",
                "ben's late claim as the tour shows it: True",
                "released ana",
                "ben's phone RELEASED Take the bins out - False",
                "ben's phone OFFERED Take the bins out - False",
            ], "\(lines.joined(separator: "\n"))")
        }
    }
}
