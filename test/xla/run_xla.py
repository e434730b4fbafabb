#!/usr/bin/env python3
"""Run StableHLO programs on XLA's CPU compiler: the oracle of test/xla.

Usage:
    run_xla.py MANIFEST.json RESULTS.json
    run_xla.py --probe               # exit 0 if jaxlib imports, 3 if not

MANIFEST.json lists jobs, run one after another in this one process (the
interpreter and jaxlib take seconds to start; a job takes milliseconds):

    {"jobs": [{"name": "add", "mlir": "add.mlir",
               "inputs": ["add.in0.npy", ...], "outputs": ["add.out0.npy", ...],
               "aliases": [[0, 0], ...]}]}

Relative paths are relative to the manifest's directory. Each job's MLIR text
is compiled with XLA's CPU compiler as it comes (PJRT's compile_and_load, the
path jax.jit takes), run on the inputs, and its results written as .npy
files, one per result in order. bfloat16 travels as numpy's '<V2' (what
ml_dtypes' bfloat16 saves as; package ir/npy reads and writes it that way).

RESULTS.json gets one line per job, in order, written as each job ends
(JSON Lines, flushed): {"name", "ok", "error", "compile_s", "run_s",
"aliased"}. "aliases" lists (argument, result) pairs of the program's
tf.aliasing_output; the arguments are donated (execute donates what it is
given), "aliased" says per pair whether XLA returned the result in the
argument's memory (XLA may decline a may-alias pair at run time, and
often does here), and "hlo_alias" is the compiled module's
input_output_alias, what XLA made of the attributes. A job
that fails to compile or run is reported there and the batch goes on. If XLA
crashes the process (it aborts on some programs instead of rejecting them),
the lines written so far stand, and the job after them is the one that
crashed; the script also prints "job NAME" to stderr before each job.

Exit status: 0 when every job ran (even if some failed), 2 on a bad manifest,
3 when jax/jaxlib cannot be imported (the Go test then skips).
"""
import json
import os
import re
import sys
import time
import traceback


def main(argv):
    try:
        import numpy as np
        import jax
        from jax._src import xla_bridge as xb
        from jax._src.lib import xla_client as xc
        import ml_dtypes
    except Exception as e:  # ImportError, or a broken install
        print("run_xla.py: cannot import jax/jaxlib: %r" % (e,), file=sys.stderr)
        return 3
    if argv[1:] == ["--probe"]:
        print("jax %s jaxlib %s" % (jax.__version__, getattr(__import__("jaxlib"), "__version__", "?")))
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    # Without x64, jax.device_put would narrow 64-bit arrays to 32 bits.
    jax.config.update("jax_enable_x64", True)
    backend = xb.get_backend("cpu")
    dev = backend.devices()[0]
    devices = xc.DeviceList((dev,))

    manifest_path, results_path = argv[1], argv[2]
    base = os.path.dirname(os.path.abspath(manifest_path))
    try:
        with open(manifest_path) as f:
            jobs = json.load(f)["jobs"]
    except Exception as e:
        print("run_xla.py: bad manifest %s: %r" % (manifest_path, e), file=sys.stderr)
        return 2

    def path(p):
        return p if os.path.isabs(p) else os.path.join(base, p)

    out = open(results_path, "w")
    for job in jobs:
        name = job.get("name", "?")
        print("job " + name, file=sys.stderr, flush=True)
        res = {"name": name, "ok": False, "error": "", "compile_s": 0.0, "run_s": 0.0}
        try:
            with open(path(job["mlir"])) as f:
                text = f.read()
            args = []
            for p in job.get("inputs", []):
                a = np.load(path(p))
                if a.dtype.kind == "V" and a.dtype.itemsize == 2:
                    a = a.view(ml_dtypes.bfloat16)
                args.append(a)
            t0 = time.perf_counter()
            exe = backend.compile_and_load(text, devices, xc.CompileOptions())
            t1 = time.perf_counter()
            aliases = job.get("aliases", [])
            if aliases:
                # XLA donates only buffers it owns, not zero-copy views of
                # numpy's memory, and not while their transfer is in
                # flight: copy, and wait.
                dargs = [jax.device_put(a, dev, may_alias=False).block_until_ready() for a in args]
            else:
                dargs = [jax.device_put(a, dev) for a in args]
            ptrs = [dargs[i].unsafe_buffer_pointer() for i, _ in aliases]
            outs = exe.execute(dargs)
            res["aliased"] = [outs[j].unsafe_buffer_pointer() == p for (_, j), p in zip(aliases, ptrs)]
            if aliases:
                head = exe.hlo_modules()[0].to_string().split("\n", 1)[0]
                m = re.search(r"input_output_alias=\{.*?\) \}", head)
                res["hlo_alias"] = m.group(0) if m else ""

            outs = [np.asarray(o) for o in outs]
            t2 = time.perf_counter()
            res["compile_s"], res["run_s"] = t1 - t0, t2 - t1
            want = job.get("outputs", [])
            if len(outs) != len(want):
                raise RuntimeError("%d results, the manifest names %d output files" % (len(outs), len(want)))
            for o, p in zip(outs, want):
                np.save(path(p), o)
            res["ok"] = True
        except Exception as e:
            msg = str(e) or repr(e)
            if not msg.strip():
                msg = traceback.format_exc()
            res["error"] = msg
        out.write(json.dumps(res) + "\n")
        out.flush()
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
