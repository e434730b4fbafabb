#!/usr/bin/env python3
"""Run SPMD StableHLO programs on XLA's CPU compiler across virtual devices:
the oracle of test/xla's TestXLASPMD.

Usage:
    run_xla_spmd.py MANIFEST.json RESULTS.json

MANIFEST.json lists jobs, run one after another in this one process:

    {"jobs": [{"name": "...", "mlir": "prog.mlir", "replicas": 2, "partitions": 2,
               "inputs": [["d0.in0.npy", ...], ...],     # per device, per argument
               "outputs": [["d0.out0.npy", ...], ...]}]}  # per device, per result

Each job is compiled for replicas × partitions devices of XLA's CPU client
(--xla_force_host_platform_device_count gives it 8), device d = replica ×
partitions + partition as the device assignment (what ir.EvalSPMD numbers
d); with more than one partition XLA's SPMD partitioner runs, so the
program's arguments and results must carry mhlo.sharding = "{manual}".
Device d runs on inputs[d] and its results are written to outputs[d].

RESULTS.json gets one JSON line per job: {"name", "ok", "error"}. Exit
status: 0 when every job ran (even if some failed), 2 on a bad manifest, 3
when jax/jaxlib cannot be imported (the Go test then skips).
"""
import json
import os
import sys


def main(argv):
    flags = os.environ.get("XLA_FLAGS", "")
    os.environ["XLA_FLAGS"] = (flags + " --xla_force_host_platform_device_count=8").strip()
    try:
        import numpy as np
        import jax
        from jax._src import xla_bridge as xb
        from jax._src.lib import xla_client as xc
        from jax.sharding import Mesh, NamedSharding, PartitionSpec
        import ml_dtypes
    except Exception as e:  # ImportError, or a broken install
        print("run_xla_spmd.py: cannot import jax/jaxlib: %r" % (e,), file=sys.stderr)
        return 3
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    jax.config.update("jax_enable_x64", True)
    backend = xb.get_backend("cpu")
    manifest_path, results_path = argv[1], argv[2]
    base = os.path.dirname(os.path.abspath(manifest_path))
    try:
        with open(manifest_path) as f:
            jobs = json.load(f)["jobs"]
    except Exception as e:
        print("run_xla_spmd.py: bad manifest %s: %r" % (manifest_path, e), file=sys.stderr)
        return 2

    def path(p):
        return p if os.path.isabs(p) else os.path.join(base, p)

    def load(p):
        a = np.load(path(p))
        if a.dtype.kind == "V" and a.dtype.itemsize == 2:
            a = a.view(ml_dtypes.bfloat16)
        return a

    out = open(results_path, "w")
    for job in jobs:
        name = job.get("name", "?")
        print("job " + name, file=sys.stderr, flush=True)
        res = {"name": name, "ok": False, "error": ""}
        try:
            nr, np_ = job["replicas"], job["partitions"]
            n = nr * np_
            devs = backend.devices()[:n]
            if len(devs) < n:
                raise RuntimeError("XLA has %d CPU devices, the job needs %d" % (len(devs), n))
            opts = xc.CompileOptions()
            opts.num_replicas = nr
            opts.num_partitions = np_
            if np_ > 1:
                opts.executable_build_options.use_spmd_partitioning = True
            opts.device_assignment = xc.DeviceAssignment.create(np.arange(n).reshape(nr, np_))
            with open(path(job["mlir"])) as f:
                text = f.read()
            exe = backend.compile_and_load(text, xc.DeviceList(tuple(devs)), opts)
            mesh = Mesh(np.array(devs), ("d",))
            inputs = job["inputs"]
            args = []
            for k in range(len(inputs[0])):
                shards = [jax.device_put(load(inputs[d][k]), devs[d]) for d in range(n)]
                # Each device's argument is its own value: a "replicated"
                # array whose shards differ hands execute_sharded one buffer
                # per device.
                args.append(jax.make_array_from_single_device_arrays(
                    shards[0].shape, NamedSharding(mesh, PartitionSpec()), shards))
            results = exe.execute_sharded(args).disassemble_into_single_device_arrays()
            want = job["outputs"]
            if len(results) != len(want[0]):
                raise RuntimeError("%d results, the manifest names %d" % (len(results), len(want[0])))
            for k, per_dev in enumerate(results):
                by_dev = {a.devices().pop().id: a for a in per_dev}
                for d in range(n):
                    np.save(path(want[d][k]), np.asarray(by_dev[devs[d].id]))
            res["ok"] = True
        except Exception as e:
            res["error"] = str(e) or repr(e)
        out.write(json.dumps(res) + "\n")
        out.flush()
    out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
