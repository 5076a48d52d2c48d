"""Screenshot expectations for the Transfers timeline and in-flight copies (issue 17 items 2 and 3),
read by check_screenshot.py from the view model (out.png.json):

  "timeline": {"two_clocks": true,                       # measured host work drawn as breaks
               "clocks": {"host copies": "measured"},    # lane name -> clock
               "before": [[2, 3]],                       # copy 2's bar ends where or before copy 3's starts
               "wider": [[1, 3, 1.8]],                   # copy 1's bar at least 1.8 times copy 3's (pixels)
               "in_flight": [1], "settled": [],          # copies drawn striped (in flight) / solid
               "host_reads_min": 1},                     # host-read markers drawn
  "in_flight_storages": ["h"]                            # exactly these names hold in-flight destinations
"""


def check_timeline(vm, expect, fail):
    want = expect.get("timeline")
    transfers = vm.get("transfers") or {}
    if want is not None:
        if "two_clocks" in want and transfers.get("two_clocks") != want["two_clocks"]:
            fail("timeline two_clocks = %s, expected %s" % (transfers.get("two_clocks"), want["two_clocks"]))
        lanes = {l["name"]: l.get("clock") for l in transfers.get("lanes", [])}
        for name, clock in want.get("clocks", {}).items():
            if lanes.get(name) != clock:
                fail("timeline lane %r clock = %r, expected %r (lanes: %s)" % (name, lanes.get(name), clock, lanes))
        drawn = {d["id"]: d for d in transfers.get("drawn", [])}

        def bar(i):
            if i not in drawn:
                fail("copy %d is not drawn on its own in the timeline (drawn: %s)" % (i, sorted(drawn)))
            return drawn[i]
        for a, b in want.get("before", []):
            if bar(a)["x1"] > bar(b)["x0"] + 0.5:
                fail("copy %d (ends at %.1f px) is drawn past the start of copy %d (%.1f px)" % (a, bar(a)["x1"], b, bar(b)["x0"]))
        for a, b, ratio in want.get("wider", []):
            wa, wb = bar(a)["x1"] - bar(a)["x0"], bar(b)["x1"] - bar(b)["x0"]
            if wa < ratio * wb:
                fail("copy %d is %.1f px wide, copy %d %.1f px: expected a ratio of at least %s" % (a, wa, b, wb, ratio))
        for i in want.get("in_flight", []):
            if not bar(i)["in_flight"]:
                fail("copy %d should be drawn in flight (striped)" % i)
        for i in want.get("settled", []):
            if bar(i)["in_flight"]:
                fail("copy %d should be drawn settled, not in flight" % i)
        if transfers.get("host_reads", 0) < want.get("host_reads_min", 0):
            fail("%s host-read markers drawn, expected at least %d" % (transfers.get("host_reads"), want["host_reads_min"]))
    names = expect.get("in_flight_storages")
    if names is not None:
        got = sorted(n for s in vm.get("in_flight_storages", []) for n in s.get("holders", []))
        if got != sorted(names):
            fail("in-flight storages held by %s, expected %s" % (got, sorted(names)))
