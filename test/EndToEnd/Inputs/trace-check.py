"""trace-check.py TRACE [--stats EMU_STATS] [--devices cuda0,cuda1] [--min-calls N]
               [--min-device-us US]

Checks a CLUSTRIX_TRACE file (docs/runtime.md#trace):
  - it is JSON in the Chrome trace event format, every track it uses is named ("M" events);
  - every loop call that ran wide has its chunks (those that succeeded), and they cover the
    call's trip count exactly: [0, trip) with no gap and no overlap; a call that ran serially
    has none;
  - times nest: every chunk, copy, launch, synchronization and residency event of a call lies
    within the call's span; every launch lies within a chunk on its device's track, every copy
    within a chunk on its track or within a residency release;
  - every "copy-device" event (a queued copy's time on the device) belongs to a copy marked
    "queued" on its track (same name, call, direction, bytes, arrays and number "timed") and
    starts no earlier; it may end after its call: the device runs it on its own; on one track
    they follow one another in the order of their numbers, without overlap (one stream runs
    them); with --min-device-us, every queued copy has one, lasting US or more (the
    emulator's CLUSTRIX_EMU_COPY_LATENCY);
  - with --stats (the emulator's CLUSTRIX_EMU_STATS file): per device, the bytes of the trace's
    H2D, D2H, peer and D2D copies equal the emulator's to_device, to_host, peer_in and within
    counters, and its launches the emulator's launches.
Prints one summary line on success; each problem on its own line, and exit 1, otherwise."""
import json
import sys


def ns(us):
    return int(round(us * 1000))


def main():
    argv = sys.argv[1:]
    path = argv.pop(0)
    opts = {}
    while argv:
        k = argv.pop(0)
        opts[k] = argv.pop(0)
    problems = []
    with open(path) as f:
        doc = json.load(f)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    named = {}
    spans = []
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            named[e["tid"]] = e["args"]["name"]
        elif e.get("ph") == "X":
            e["start"] = ns(e["ts"])
            e["end"] = e["start"] + ns(e["dur"])
            spans.append(e)
        elif e.get("ph") != "M":
            problems.append("unexpected event phase %r" % e.get("ph"))
    for e in spans:
        if e["tid"] not in named:
            problems.append("track %d (%s) has no name" % (e["tid"], e["name"]))
    track = lambda e: named.get(e["tid"], "?")

    calls = {}
    for e in spans:
        if e["cat"] == "loop" and "call" in e["args"]:
            calls[e["args"]["call"]] = e
    by_call = {}
    for e in spans:
        c = e["args"].get("call")
        if e["cat"] not in ("loop", "copy-device") and c is not None:
            by_call.setdefault(c, []).append(e)

    wide = serial = 0
    for c, call in sorted(calls.items()):
        inner = by_call.get(c, [])
        chunks = sorted((e for e in inner if e["cat"] == "chunk" and e["args"].get("ok") == 1),
                        key=lambda e: e["args"]["lo"])
        ran = call["args"].get("ran", "")
        trip = call["args"]["trip"]
        where = "call %d (%s, %s)" % (c, call["name"], ran)
        if ran.startswith("parallel"):
            wide += 1
            at = 0
            for ch in chunks:
                if ch["args"]["lo"] != at:
                    problems.append("%s: chunk at [%d, %d) but iterations from %d are not covered"
                                    % (where, ch["args"]["lo"], ch["args"]["hi"], at))
                at = ch["args"]["hi"]
            if at != trip:
                problems.append("%s: chunks cover [0, %d) of %d iterations" % (where, at, trip))
            for ch in chunks:
                if track(ch) != ch["args"]["device"] and not (
                        ch["args"]["device"] == "host" and track(ch).startswith("host")):
                    problems.append("%s: chunk on %s is on track %s" % (where, ch["args"]["device"], track(ch)))
        else:
            serial += 1
            if chunks:
                problems.append("%s: ran serially but has %d chunks" % (where, len(chunks)))
        for e in inner:
            if e["start"] < call["start"] or e["end"] > call["end"]:
                problems.append("%s: %s on %s [%d, %d) ns is outside the call [%d, %d)"
                                % (where, e["name"], track(e), e["start"], e["end"], call["start"], call["end"]))

    def within(e, cats):
        return any(o is not e and o["cat"] in cats and o["start"] <= e["start"] and e["end"] <= o["end"]
                   and (o["tid"] == e["tid"] or o["cat"] == "residency") for o in spans)

    copies = [e for e in spans if e["cat"] == "copy"]
    launches = [e for e in spans if e["cat"] == "launch"]
    for e in launches:
        if not within(e, ("chunk",)):
            problems.append("launch on %s at %d ns is in no chunk of its track" % (track(e), e["start"]))
    for e in copies:
        if not within(e, ("chunk", "residency")):
            problems.append("%s on %s at %d ns is in no chunk and no residency release" % (e["name"], track(e), e["start"]))

    key = lambda e: (e["tid"], e["name"], e["args"].get("call"), e["args"].get("dir"),
                     e["args"].get("bytes"), e["args"].get("array"), e["args"].get("timed"))
    queued = [e for e in copies if e["args"].get("queued")]
    timed = [e for e in spans if e["cat"] == "copy-device"]
    last = {}  # track -> the latest copy-device event by its number
    for e in sorted(timed, key=lambda e: (e["tid"], e["args"].get("timed", 0))):
        before = last.get(e["tid"])
        if before is not None and e["start"] < before["end"]:
            problems.append("%s on %s at %d ns (device time) starts before %s, queued before it, ends"
                            % (e["name"], track(e), e["start"], before["name"]))
        last[e["tid"]] = e
    for e in timed:
        owner = [q for q in queued if key(q) == key(e) and q["start"] <= e["start"]]
        if not owner:
            problems.append("%s on %s at %d ns (device time) belongs to no queued copy"
                            % (e["name"], track(e), e["start"]))
        else:
            queued.remove(owner[0])
            if "--min-device-us" in opts and e["end"] - e["start"] < ns(float(opts["--min-device-us"])):
                problems.append("%s on %s at %d ns lasted %d ns on the device, under %s us"
                                % (e["name"], track(e), e["start"], e["end"] - e["start"],
                                   opts["--min-device-us"]))
    if "--min-device-us" in opts:
        for q in queued:
            problems.append("%s on %s at %d ns was queued and has no device time"
                            % (q["name"], track(q), q["start"]))

    if "--stats" in opts:
        for line in open(opts["--stats"]):
            f = line.split()
            dev, st = f[0], {f[i]: int(f[i + 1]) for i in range(1, len(f), 2)}
            mine = {
                "to_device": sum(e["args"]["bytes"] for e in copies if e["args"]["dir"] == "H2D" and e["args"]["to"] == dev),
                "to_host": sum(e["args"]["bytes"] for e in copies if e["args"]["dir"] == "D2H" and e["args"]["from"] == dev),
                "peer_in": sum(e["args"]["bytes"] for e in copies if e["args"]["dir"] == "peer" and e["args"]["to"] == dev),
                "within": sum(e["args"]["bytes"] for e in copies if e["args"]["dir"] == "D2D" and e["args"]["to"] == dev),
                "launches": sum(1 for e in launches if e["args"]["device"] == dev),
            }
            for k, v in mine.items():
                if v != st[k]:
                    problems.append("%s: %s is %d in the trace, %d in the emulator's counters" % (dev, k, v, st[k]))
    if "--devices" in opts:
        used = {track(e) for e in spans if e["cat"] == "chunk"}
        for d in opts["--devices"].split(","):
            if d not in used:
                problems.append("no chunk ran on %s" % d)
    if len(calls) < int(opts.get("--min-calls", "1")):
        problems.append("%d loop calls in the trace, expected at least %s" % (len(calls), opts.get("--min-calls", "1")))

    for p in problems[:40]:
        print(p)
    if problems:
        sys.exit(1)
    kinds = {}
    for e in copies:
        kinds[e["args"]["dir"]] = kinds.get(e["args"]["dir"], 0) + e["args"]["bytes"]
    print("trace ok: %d loop calls (%d wide, %d serial), %d chunks, %d copies (%s), %d launches, "
          "%d synchronizations, times nested%s" % (
              len(calls), wide, serial, sum(1 for e in spans if e["cat"] == "chunk"), len(copies),
              ", ".join("%s %d bytes" % (k, kinds[k]) for k in sorted(kinds)) or "none",
              len(launches), sum(1 for e in spans if e["cat"] == "sync"),
              ", %d queued copies timed on the device" % len(timed) if timed else ""))


main()
