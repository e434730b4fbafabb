"""JAX plugin for Stela's CPU PJRT plugin (docs/jax.md).

JAX imports every module of the jax_plugins namespace package and calls
its initialize(). With this directory on PYTHONPATH (or after
`pip install ./python`), JAX_PLATFORMS=stela runs a JAX program on Stela:

    PYTHONPATH=<stela>/python JAX_PLATFORMS=stela python3 prog.py

The plugin library and the compile worker are found as follows:

- STELA_PJRT_PLUGIN: the plugin .so; otherwise `<stela> plugin path`
  builds (or finds in ~/.cache/stela) the plugin of the stela binary.
- STELA_CPU_WORKER_PATH: the compile worker (a stela binary); otherwise
  the stela binary.
- The stela binary: STELA_BIN, else `stela` on PATH.

STELA_CPU_DEVICES=N gives the client N virtual CPU devices (the plugin
reads it; default 1). STELA_CACHE_DIR, STELA_LOG and the
other STELA_* switches apply as for any client of the plugin
(docs/cpu-plugin.md).
"""
import os
import shutil
import subprocess

PLATFORM = "stela"


def _stela_binary():
    b = os.environ.get("STELA_BIN") or shutil.which("stela")
    if not b:
        raise RuntimeError(
            "jax_plugins.stela: no stela binary: set STELA_BIN, put `stela` on PATH "
            "(go build -o ~/go/bin/stela ./cmd/stela), or set STELA_PJRT_PLUGIN and STELA_CPU_WORKER_PATH")
    return b


def library_path():
    """Returns the path of the plugin shared object."""
    p = os.environ.get("STELA_PJRT_PLUGIN")
    if p:
        return p
    out = subprocess.run([_stela_binary(), "plugin", "path"], check=True, capture_output=True, text=True)
    return out.stdout.strip()


def worker_path():
    """Returns the compile worker the plugin runs."""
    return os.environ.get("STELA_CPU_WORKER_PATH") or _stela_binary()


def initialize():
    import jax
    from jax._src import xla_bridge

    # Stela's SPMD partitioner reads GSPMD shardings (mhlo.sharding), not
    # Shardy's (sdy dialect): unless the user chose, use GSPMD, so that
    # pmap and sharded programs partition on Stela's devices.
    if "JAX_USE_SHARDY_PARTITIONER" not in os.environ:
        jax.config.update("jax_use_shardy_partitioner", False)

    options = {"stela_worker": worker_path()}
    if os.environ.get("STELA_CACHE_DIR"):
        options["stela_cache_dir"] = os.environ["STELA_CACHE_DIR"]
    xla_bridge.register_plugin(PLATFORM, library_path=library_path(), options=options)
