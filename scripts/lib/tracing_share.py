"""Where the CPU of a profiled run went, for scripts/bench-tracing-off: reads `perf script -F
comm,ip,sym` output demangled by `swift demangle --simplified` on stdin and prints one JSON object:
the samples, those with a tracing frame anywhere on their stack (swift-distributed-tracing, the
project's TraceParent and DeliveryTrace), their share, and the innermost such frames.
Usage: perf script ... | swift demangle --simplified | python3 tracing_share.py [EXTRA_JSON]
"""
import collections
import json
import re
import sys

TRACING = re.compile(r"DeliveryTrace|TraceParent|Tracing\.|Instrumentation|NoOpTracer|NoOpSpan")

samples = traced = 0
frames_seen = collections.Counter()
for block in sys.stdin.read().split("\n\n"):
    lines = [line.strip() for line in block.strip().split("\n") if line.strip()]
    if not lines:
        continue
    samples += 1
    matching = [line for line in lines[1:] if TRACING.search(line)]
    if matching:
        traced += 1
        frames_seen[re.sub(r"^\S+ ", "", matching[0])[:120]] += 1
out = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
out.update({
    "samples": samples,
    "samplesWithTracingFrame": traced,
    "tracingShare": round(traced / samples, 5) if samples else None,
    "target": "tracing off costs <= 0.02 of bench push",
    "tracingFrames": dict(frames_seen.most_common(8)),
})
print(json.dumps(out, sort_keys=True))
