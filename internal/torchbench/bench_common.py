"""What torch_bench.py and jax_bench.py share: the median, the JSON result
of a measurement, and the --serve loop that `stela bench --torch` and
`stela bench --jax` drive. stela writes this file beside either script
(torchbench.Write, torchbench.WriteJAX), which imports it from its own
directory. No import of torch or jax here: --list runs without them."""

import json
import sys


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def result_fields(m, seconds):
    """The fields every result has, from measurement m's timed calls
    (seconds); the script adds its own (threads, versions, derived)."""
    samples = [m.sample(t) for t in seconds]
    s = sorted(samples)
    return {
        "workload": m.workload,
        "mode": m.mode,
        "metric": m.metric,
        "unit": m.unit,
        "median": median(samples),
        "min": s[0],
        "max": s[-1],
        "runs": len(s),
        "samples": samples,
    }


def serve(ready, workloads, default_mode, workload_id):
    """The --serve loop: `stela bench --torch` and `--jax` interleave their
    runs with these, one command a line on stdin, one JSON object a line
    on stdout.

    First, once the peer is imported and set up: ready ({"ready": true, ...}).
    WORKLOAD is the workload's name (W4) for a measurement in default_mode,
    and W4/MODE for one in another mode (W4/torch-jit-trace); workloads
    maps a name to the function that makes its Measurements.
      warmup WORKLOAD METRIC  makes the workload's inputs if it is new,
                              calls the metric once (its warm(), if it has
                              one), forgets its samples: {"warmup": SECONDS}
      run WORKLOAD METRIC     one timed call: {"sample": VALUE_IN_UNIT}
      result WORKLOAD METRIC  the metric's result over its runs since the
                              warm-up, the object the one-shot mode prints
      quit                    (or end of input) exits
    A command that fails answers {"error": MESSAGE}; the loop goes on.
    """
    print(json.dumps(ready), flush=True)
    made = {}  # workload -> {(mode, metric): Measurement}
    runs = {}  # (WORKLOAD[/MODE], metric) -> seconds of the timed calls since the warm-up

    def find(wid, metric):
        workload, _, mode = wid.partition("/")
        mode = mode or default_mode
        if workload not in workloads:
            raise ValueError(f"unknown workload {workload!r} (have {', '.join(workloads)})")
        if workload not in made:
            made[workload] = {(m.mode, m.metric): m for m in workloads[workload]()}
        if (mode, metric) not in made[workload]:
            have = ", ".join(f"{workload_id(workload, md)} {mt!r}" for md, mt in made[workload])
            raise ValueError(f"{workload} has no metric {metric!r} in mode {mode} (have {have})")
        return made[workload][(mode, metric)]

    for line in iter(sys.stdin.readline, ""):
        words = line.strip().split(maxsplit=2)
        if not words:
            continue
        if words == ["quit"]:
            break
        try:
            if len(words) != 3 or words[0] not in ("warmup", "run", "result"):
                raise ValueError(f"bad command {line.strip()!r} (want warmup|run|result WORKLOAD METRIC, or quit)")
            cmd, key = words[0], (words[1], words[2])
            m = find(*key)
            if cmd == "warmup":
                reply = {"warmup": getattr(m, "warm", m.call)()}
                runs[key] = []
            elif key not in runs:
                raise ValueError(f"{cmd} {key[0]} {key[1]!r} before its warmup")
            elif cmd == "run":
                t = m.call()
                runs[key].append(t)
                reply = {"sample": m.sample(t)}
            elif not runs[key]:
                raise ValueError(f"result {key[0]} {key[1]!r} before any run")
            else:
                reply = m.result(runs[key])
        except Exception as e:
            reply = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)
