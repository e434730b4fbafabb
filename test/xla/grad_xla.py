#!/usr/bin/env python3
"""Differentiate StableHLO programs with JAX: the gradient oracle of test/xla.

Usage:
    grad_xla.py MANIFEST.json RESULTS.json
    grad_xla.py --probe              # exit 0 if jax imports, 3 if not

The program is Stela's own forward program, as Stela lowers and prints it.
This script parses its MLIR text with the MLIR Python bindings that jaxlib
ships (the dialects registered as jax's make_ir_context() registers them),
and interprets the module op by op with jax.lax primitives: every
stablehlo op becomes the lax primitive with the same semantics, its
attributes read from the MLIR attributes, and the regions of reduce,
reduce_window, scatter, while and case become Python callables for
lax.reduce, lax.reduce_window, scatter's update computation,
lax.while_loop and lax.switch. The interpreter is thus a JAX function of the
program's arguments, and jax.vjp and jax.jvp give JAX's own derivatives of
exactly the program Stela ran.

MANIFEST.json lists jobs, run one after another in this one process (jax
takes seconds to start; a job takes milliseconds):

    {"jobs": [{"name": "f", "kind": "vjp", "mlir": "f.mlir",
               "inputs": ["f.in0.npy", ...],
               "seeds": ["f.ct0.npy", ...],
               "outputs": ["f.out0.npy", ...],
               "derivs": ["f.d0.npy", ...]}]}

kind is one of
  eval  the program's results (no seeds, no derivs);
  vjp   its results, and the cotangent of each input for the given
        cotangents of the results (seeds: one per result; derivs: one per
        input);
  jvp   its results, and the tangent of each result for the given tangents
        of the inputs (seeds: one per input; derivs: one per result).
A seed or deriv of a value whose type is not inexact (integers, i1) has no
meaning in JAX (its tangent space is float0): such a seed's path may be ""
and its file is not read, and such a deriv is not written; the result line
lists its index in "no_deriv".

Relative paths are relative to the manifest's directory. bfloat16 travels as
numpy's '<V2' (what ml_dtypes' bfloat16 saves as; package ir/npy reads and
writes it that way). The program is traced and compiled with jax.jit, on
XLA's CPU backend, with jax_enable_x64.

stablehlo.while: JAX cannot reverse-differentiate lax.while_loop. For a vjp
job of a program with a while loop, the program first runs once eagerly on
the given inputs, each while loop as a Python loop and each case as a
Python branch, which records every loop's trip count and every case's
branch in the order they run; the traced program then replays that path:
each loop unrolled to its recorded count, each case calling its recorded
branch. The derivative is that of the program along the path the inputs
take, which is the program's derivative wherever the path does not change
under small changes of the inputs (trip counts and branch indices are
integers). jvp jobs use lax.while_loop and lax.switch as they are.

RESULTS.json gets one line per job, in order, written as each job ends
(JSON Lines, flushed): {"name", "ok", "error", "no_deriv", "compile_s",
"run_s"}. A job that fails (an op the interpreter does not map, a program
JAX cannot differentiate) is reported there, its error naming the op, and
the batch goes on. The script prints "job NAME" to stderr before each job,
so that the job a crash happened in can be named.

Exit status: 0 when every job ran (even if some failed), 2 on a bad manifest,
3 when jax/jaxlib cannot be imported (the Go test then skips).
"""
import functools
import json
import os
import re
import sys
import time
import traceback

try:
    import numpy as np
    import jax
    import ml_dtypes
    from jax import lax
    from jax._src.interpreters import mlir as jmlir
    from jax._src.lib.mlir import ir
    from jax._src.lib.mlir.dialects import hlo
    IMPORT_ERROR = None
except Exception as e:  # ImportError, or a broken install
    IMPORT_ERROR = e


class Unsupported(Exception):
    """A program uses something the interpreter does not map."""


class OpError(Exception):
    """JAX rejected what an op became; the message names the op."""


def main(argv):
    if IMPORT_ERROR is not None:
        print("grad_xla.py: cannot import jax/jaxlib: %r" % (IMPORT_ERROR,), file=sys.stderr)
        return 3
    if argv[1:] == ["--probe"]:
        print("jax %s" % jax.__version__)
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    jax.config.update("jax_enable_x64", True)
    _init_handlers()

    manifest_path, results_path = argv[1], argv[2]
    base = os.path.dirname(os.path.abspath(manifest_path))
    try:
        with open(manifest_path) as f:
            jobs = json.load(f)["jobs"]
    except Exception as e:
        print("grad_xla.py: bad manifest %s: %r" % (manifest_path, e), file=sys.stderr)
        return 2

    def path(p):
        return p if os.path.isabs(p) else os.path.join(base, p)

    def load(p):
        a = np.load(path(p))
        if a.dtype.kind == "V" and a.dtype.itemsize == 2:
            a = a.view(ml_dtypes.bfloat16)
        return a

    ctx = jmlir.make_ir_context()
    out = open(results_path, "w")
    for job in jobs:
        name = job.get("name", "?")
        print("job " + name, file=sys.stderr, flush=True)
        res = {"name": name, "ok": False, "error": "", "no_deriv": [], "compile_s": 0.0, "run_s": 0.0}
        try:
            with open(path(job["mlir"])) as f:
                text = f.read()
            prog = Program(ctx, text)
            args = [load(p) for p in job.get("inputs", [])]
            seeds = [load(p) if p else None for p in job.get("seeds", [])]
            outs, derivs, none, tc, tr = run_job(prog, job.get("kind", "eval"), args, seeds)
            res["compile_s"], res["run_s"] = tc, tr
            want = job.get("outputs", [])
            if len(outs) != len(want):
                raise RuntimeError("%d results, the manifest names %d output files" % (len(outs), len(want)))
            for o, p in zip(outs, want):
                np.save(path(p), np.asarray(o))
            dpaths = job.get("derivs", [])
            if derivs is not None:
                if len(derivs) != len(dpaths):
                    raise RuntimeError("%d derivatives, the manifest names %d deriv files" % (len(derivs), len(dpaths)))
                for k, (d, p) in enumerate(zip(derivs, dpaths)):
                    if k not in none:
                        np.save(path(p), np.asarray(d))
            res["no_deriv"] = sorted(none)
            res["ok"] = True
        except Exception as e:
            msg = str(e) or repr(e)
            if not msg.strip():
                msg = traceback.format_exc()
            if not isinstance(e, (Unsupported, OpError)):
                msg = "%s: %s" % (type(e).__name__, msg)
            res["error"] = msg
        out.write(json.dumps(res) + "\n")
        out.flush()
    out.close()
    return 0


# ---------------------------------------------------------------------------
# Jobs

def inexact(dtype):
    """Whether JAX differentiates values of dtype (floats, bfloat16
    included, and complex numbers)."""
    return jax.dtypes.issubdtype(dtype, np.inexact)


def run_job(prog, kind, args, seeds):
    """Runs one job; returns (outs, derivs, indices without deriv, compile
    seconds, run seconds)."""
    main = prog.funcs["main"]
    if len(args) != len(main.args):
        raise RuntimeError("@main takes %d arguments, the job gives %d" % (len(main.args), len(args)))
    out_types = main.ret_types
    in_types = [(tuple(a.shape), a.dtype) for a in args]
    for k, (got, want) in enumerate(zip(in_types, main.body.arg_types)):
        if got != want:
            raise RuntimeError("argument #%d is %s%s, @main takes %s%s" % (k, got[1], list(got[0]), want[1], list(want[0])))
    for k, s in enumerate(seeds):
        vals = main.body.arg_types if kind == "jvp" else out_types
        if k < len(vals) and inexact(vals[k][1]) and (s is None or (tuple(s.shape), s.dtype) != vals[k]):
            raise RuntimeError("%s: seed #%d is %s, want %s%s" % (
                kind, k, "missing" if s is None else "%s%s" % (s.dtype, list(s.shape)), vals[k][1], list(vals[k][0])))

    def f(*xs):
        return tuple(prog.call("main", list(xs)))

    if kind == "eval":
        fn, fargs, none = f, tuple(args), set()
    elif kind == "jvp":
        if len(seeds) != len(args):
            raise RuntimeError("jvp: %d tangents for %d inputs" % (len(seeds), len(args)))
        diff = [k for k, (_, d) in enumerate(in_types) if inexact(d)]
        none = {k for k, (_, d) in enumerate(out_types) if not inexact(d)}

        def fn(xs, ts):
            full = [np.zeros(s, jax.dtypes.float0) for s, _ in in_types]
            for k, t in zip(diff, ts):
                full[k] = t
            o, to = jax.jvp(f, tuple(xs), tuple(full))
            return o, tuple(t for k, t in enumerate(to) if k not in none)
        fargs = (tuple(args), tuple(seeds[k] for k in diff))
    elif kind == "vjp":
        if len(seeds) != len(out_types):
            raise RuntimeError("vjp: %d cotangents for %d results" % (len(seeds), len(out_types)))
        diff = [k for k, (_, d) in enumerate(out_types) if inexact(d)]
        none = {k for k, (_, d) in enumerate(in_types) if not inexact(d)}
        g = f
        if prog.has_while:
            # See the doc comment: record the path eagerly, replay it traced.
            path = []
            prog.mode, prog.path = "record", path
            try:
                f(*[jax.device_put(a) for a in args])
            finally:
                prog.mode, prog.path = "trace", None

            def g(*xs):
                prog.mode, prog.path = "replay", list(path)
                try:
                    return f(*xs)
                finally:
                    prog.mode, prog.path = "trace", None

        def fn(xs, cts):
            o, pull = jax.vjp(g, *xs)
            full = [np.zeros(s, jax.dtypes.float0) for s, _ in out_types]
            for k, c in zip(diff, cts):
                full[k] = c
            gs = pull(tuple(full))
            return o, tuple(c for k, c in enumerate(gs) if k not in none)
        fargs = (tuple(args), tuple(seeds[k] for k in diff))
    else:
        raise RuntimeError("unknown job kind %r" % (kind,))

    prog.differentiating = kind != "eval"
    t0 = time.perf_counter()
    compiled = jax.jit(fn).lower(*fargs).compile()
    t1 = time.perf_counter()
    res = compiled(*fargs)
    res = jax.tree_util.tree_map(np.asarray, res)
    t2 = time.perf_counter()
    if kind == "eval":
        return list(res), None, none, t1 - t0, t2 - t1
    outs, ds = res
    n = len(args) if kind == "vjp" else len(out_types)
    derivs, it = [], iter(ds)
    for k in range(n):
        derivs.append(None if k in none else next(it))
    return list(outs), derivs, none, t1 - t0, t2 - t1


# ---------------------------------------------------------------------------
# The module, converted from MLIR into plain Python objects.

def np_dtype(t):
    """The numpy dtype of an MLIR element type."""
    s = str(t)
    table = {
        "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
        "si8": np.int8, "si16": np.int16, "si32": np.int32, "si64": np.int64,
        "ui8": np.uint8, "ui16": np.uint16, "ui32": np.uint32, "ui64": np.uint64,
        "f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64,
        "complex<f32>": np.complex64, "complex<f64>": np.complex128,
    }
    if s not in table:
        raise Unsupported("element type %s is not supported" % s)
    return np.dtype(table[s])


def tensor_type(t):
    rt = ir.RankedTensorType(t)
    return tuple(rt.shape), np_dtype(rt.element_type)


class Block:
    """A block: argument ids, the ops, and the ids it returns."""

    def __init__(self, args, arg_types, ops, ret):
        self.args, self.arg_types, self.ops, self.ret = args, arg_types, ops, ret


class Node:
    """One op: its name, operand and result ids, result types, decoded
    attributes (params) and regions."""

    def __init__(self, name, operands, results, types, params, regions):
        self.name, self.operands, self.results, self.types = name, operands, results, types
        self.params, self.regions = params, regions


class Func:
    def __init__(self, name, body, ret_types):
        self.name, self.body, self.ret_types = name, body, ret_types
        self.args = body.args


class Program:
    """A parsed module and its interpreter."""

    def __init__(self, ctx, text):
        self.ids = {}
        self.has_while = False
        self.mode, self.path = "trace", None
        self.differentiating = False
        with ctx:
            m = ir.Module.parse(text)
            self.funcs = {}
            for op in m.body.operations:
                o = op.operation
                if o.name != "func.func":
                    raise Unsupported("module-level op %s is not supported" % o.name)
                name = ir.StringAttr(o.attributes["sym_name"]).value
                ftype = ir.FunctionType(ir.TypeAttr(o.attributes["function_type"]).value)
                body = self.block(o.regions[0].blocks[0])
                self.funcs[name] = Func(name, body, [tensor_type(t) for t in ftype.results])
        if "main" not in self.funcs:
            raise Unsupported("module has no @main")
        self.ids = None  # the MLIR values; the module is read

    def vid(self, v):
        k = self.ids.get(v)
        if k is None:
            k = self.ids[v] = len(self.ids)
        return k

    def block(self, blk):
        args = [self.vid(a) for a in blk.arguments]
        arg_types = [tensor_type(a.type) for a in blk.arguments]
        ops, ret = [], None
        for op in blk.operations:
            o = op.operation
            if o.name in ("func.return", "stablehlo.return"):
                ret = [self.vid(v) for v in o.operands]
                continue
            ops.append(self.node(o))
        if ret is None:
            raise Unsupported("a block has no terminator")
        return Block(args, arg_types, ops, ret)

    def node(self, o):
        name = o.name
        if name not in HANDLERS:
            raise Unsupported("op %s is not supported by grad_xla.py's interpreter" % name)
        if name == "stablehlo.while":
            self.has_while = True
        operands = [self.vid(v) for v in o.operands]
        results = [self.vid(v) for v in o.results]
        types = [tensor_type(r.type) for r in o.results]
        regions = [self.block(r.blocks[0]) for r in o.regions]
        dec = DECODERS.get(name)
        try:
            params = dec(o) if dec else {}
        except Unsupported:
            raise
        except Exception as e:
            raise Unsupported("%s: cannot read its attributes: %r" % (name, e))
        return Node(name, operands, results, types, params, regions)

    # -- interpretation --

    def call(self, fname, args):
        f = self.funcs.get(fname)
        if f is None:
            raise Unsupported("call of unknown function @%s" % fname)
        return self.run_block(f.body, args, {})

    def run_block(self, blk, args, outer):
        env = Env(outer)
        if len(args) != len(blk.args):
            raise RuntimeError("block takes %d arguments, given %d" % (len(blk.args), len(args)))
        for k, v in zip(blk.args, args):
            env[k] = v
        for n in blk.ops:
            xs = [env[k] for k in n.operands]
            try:
                ys = HANDLERS[n.name](self, n, xs, env)
            except (Unsupported, OpError):
                raise
            except Exception as e:
                raise OpError("%s: %s: %s" % (n.name, type(e).__name__, e)) from e
            if len(ys) != len(n.results):
                raise RuntimeError("%s: interpreter made %d results, want %d" % (n.name, len(ys), len(n.results)))
            for k, y in zip(n.results, ys):
                env[k] = y
        return [env[k] for k in blk.ret]

    def region_fn(self, blk, env):
        """The region as a Python function of its block arguments."""
        def fn(*args):
            return self.run_block(blk, list(args), env)
        return fn


class Env:
    """Values by id, falling back to the enclosing region's (case branches
    and while bodies may use values defined above them)."""

    def __init__(self, outer):
        self.d, self.outer = {}, outer

    def __setitem__(self, k, v):
        self.d[k] = v

    def __getitem__(self, k):
        e = self
        while isinstance(e, Env):
            if k in e.d:
                return e.d[k]
            e = e.outer
        return e[k]


# ---------------------------------------------------------------------------
# Attribute decoders: MLIR attributes to Python values, once per op.

def _attr(o, name):
    return o.attributes[name] if name in o.attributes else None


def _ints(o, name, default=None):
    a = _attr(o, name)
    if a is None:
        return default
    try:
        return [int(x) for x in ir.DenseI64ArrayAttr(a)]
    except Exception:
        pass
    try:
        return [int(x) for x in ir.DenseBoolArrayAttr(a)]
    except Exception:
        pass
    return [int(x) for x in np.array(a).reshape(-1)]


def _int(o, name, default=None):
    a = _attr(o, name)
    return default if a is None else int(ir.IntegerAttr(a).value)


def _bool(o, name):
    a = _attr(o, name)
    return False if a is None else bool(ir.BoolAttr(a).value)


def _pairs(o, name):
    a = _attr(o, name)
    if a is None:
        return None
    return [tuple(int(v) for v in row) for row in np.array(a).reshape(-1, 2)]


def _precision(o):
    a = _attr(o, "precision_config")
    if a is None:
        return None
    names = [hlo.PrecisionAttr(x).value for x in ir.ArrayAttr(a)]
    return tuple(getattr(lax.Precision, n) for n in names) if names else None


def dec_constant(o):
    shape, dtype = tensor_type(o.results[0].type)
    return {"value": dense_value(o, shape, dtype)}


def is_float(dtype):
    return np.dtype(dtype).kind == "f" or np.dtype(dtype) == np.dtype(ml_dtypes.bfloat16)


def dense_value(o, shape, dtype):
    """The value of a constant: through numpy's buffer protocol where the
    bindings support the type, else from the attribute's text (bf16 and
    complex, which the bindings cannot hand to numpy)."""
    n = int(np.prod(shape))
    if dtype != np.dtype(ml_dtypes.bfloat16) and dtype.kind != "c":
        v = np.array(o.attributes["value"])
        if v.dtype != dtype or v.size not in (1, n):
            raise Unsupported("stablehlo.constant: read %s[%d] for %s%s" % (v.dtype, v.size, dtype, list(shape)))
        return np.broadcast_to(v.reshape(-1)[:1].reshape(()), shape).copy() if v.size != n else v.reshape(shape).copy()
    return parse_dense(str(o), shape, dtype)


_DENSE = re.compile(r"dense<(.*)>\s*:\s*tensor<", re.S)


def parse_dense(text, shape, dtype):
    """Parses dense<...> as MLIR prints it: a hex string of the raw data, or
    a (nested) list or splat of literals; a float literal is a decimal or
    0x followed by its bits (NaNs with payloads, infinities); a complex one
    (re, im)."""
    m = _DENSE.search(text)
    if not m:
        raise Unsupported("stablehlo.constant: cannot read its value from %r" % text[:200])
    body = m.group(1).strip()
    n = int(np.prod(shape))
    if body.startswith('"0x'):
        v = np.frombuffer(bytes.fromhex(body[3:-1]), dtype=dtype)
    else:
        part = np.dtype({np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}.get(dtype, dtype))
        bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}

        def scalar(tok):
            tok = tok.strip()
            if tok in ("true", "false"):
                return np.array(tok == "true").astype(part)
            if is_float(part):
                if tok.lower().startswith("0x"):
                    return np.array(int(tok, 16), dtype=bits[part.itemsize]).view(part)
                return np.array(float(tok)).astype(part)
            return np.array(int(tok, 0)).astype(part)

        if dtype.kind == "c":
            toks = re.findall(r"\(([^,()]+),([^,()]+)\)", body)
            v = np.empty(len(toks), dtype=dtype)
            # Through views of the parts, which keeps NaN payloads.
            parts = v.view(part).reshape(-1, 2)
            for i, (a, b) in enumerate(toks):
                parts[i, 0], parts[i, 1] = scalar(a), scalar(b)
        else:
            toks = [t for t in re.split(r"[\[\],\s]+", body) if t]
            v = np.empty(len(toks), dtype=dtype)
            for i, t in enumerate(toks):
                v[i:i + 1] = scalar(t).reshape(1)
    if v.size == 1:
        v = np.broadcast_to(v.reshape(()), shape)
    if v.size != n:
        raise Unsupported("stablehlo.constant: %d values for %d elements" % (v.size, n))
    return v.reshape(shape).copy()


def dec_compare(o):
    d = hlo.ComparisonDirectionAttr(o.attributes["comparison_direction"]).value
    t = _attr(o, "compare_type")
    return {"dir": d, "type": hlo.ComparisonTypeAttr(t).value if t is not None else None}


def dec_dot(o):
    d = hlo.DotDimensionNumbers(o.attributes["dot_dimension_numbers"])
    if _attr(o, "algorithm") is not None:
        raise Unsupported("stablehlo.dot_general: the algorithm attribute is not supported")
    return {"dn": ((list(d.lhs_contracting_dimensions), list(d.rhs_contracting_dimensions)),
                   (list(d.lhs_batching_dimensions), list(d.rhs_batching_dimensions))),
            "precision": _precision(o)}


def dec_conv(o):
    d = hlo.ConvDimensionNumbers(o.attributes["dimension_numbers"])
    return {
        "lhs_spec": (d.input_batch_dimension, d.input_feature_dimension, *d.input_spatial_dimensions),
        "rhs_spec": (d.kernel_output_feature_dimension, d.kernel_input_feature_dimension, *d.kernel_spatial_dimensions),
        "out_spec": (d.output_batch_dimension, d.output_feature_dimension, *d.output_spatial_dimensions),
        "strides": _ints(o, "window_strides"),
        "padding": _pairs(o, "padding"),
        "lhs_dilation": _ints(o, "lhs_dilation"),
        "rhs_dilation": _ints(o, "rhs_dilation"),
        "reversal": _ints(o, "window_reversal"),
        "fgc": _int(o, "feature_group_count", 1),
        "bgc": _int(o, "batch_group_count", 1),
        "precision": _precision(o),
    }


def dec_gather(o):
    d = hlo.GatherDimensionNumbers(o.attributes["dimension_numbers"])
    return {"offset_dims": list(d.offset_dims), "collapsed": list(d.collapsed_slice_dims),
            "operand_batching": list(d.operand_batching_dims),
            "indices_batching": list(d.start_indices_batching_dims),
            "start_index_map": list(d.start_index_map), "ivd": d.index_vector_dim,
            "slice_sizes": _ints(o, "slice_sizes"), "sorted": _bool(o, "indices_are_sorted")}


def dec_scatter(o):
    d = hlo.ScatterDimensionNumbers(o.attributes["scatter_dimension_numbers"])
    return {"update_window_dims": list(d.update_window_dims), "inserted": list(d.inserted_window_dims),
            "input_batching": list(d.input_batching_dims),
            "indices_batching": list(d.scatter_indices_batching_dims),
            "to_operand": list(d.scattered_dims_to_operand_dims), "ivd": d.index_vector_dim,
            "sorted": _bool(o, "indices_are_sorted"), "unique": _bool(o, "unique_indices")}


def dec_composite(o):
    return {"decomposition": ir.FlatSymbolRefAttr(o.attributes["decomposition"]).value}


def dec_call(o):
    return {"callee": ir.FlatSymbolRefAttr(o.attributes["callee"]).value}


DECODERS = {
    "stablehlo.custom_call": lambda o: dec_custom_call(o),
    "stablehlo.constant": dec_constant,
    "stablehlo.iota": lambda o: {"dim": _int(o, "iota_dimension")},
    "stablehlo.reduce_precision": lambda o: {"e": _int(o, "exponent_bits"), "m": _int(o, "mantissa_bits")},
    "stablehlo.compare": dec_compare,
    "stablehlo.broadcast_in_dim": lambda o: {"dims": _ints(o, "broadcast_dimensions")},
    "stablehlo.transpose": lambda o: {"perm": _ints(o, "permutation")},
    "stablehlo.slice": lambda o: {"start": _ints(o, "start_indices"), "limit": _ints(o, "limit_indices"),
                                  "strides": _ints(o, "strides")},
    "stablehlo.dynamic_slice": lambda o: {"sizes": _ints(o, "slice_sizes")},
    "stablehlo.concatenate": lambda o: {"dim": _int(o, "dimension")},
    "stablehlo.pad": lambda o: {"lo": _ints(o, "edge_padding_low"), "hi": _ints(o, "edge_padding_high"),
                                "interior": _ints(o, "interior_padding")},
    "stablehlo.reverse": lambda o: {"dims": _ints(o, "dimensions")},
    "stablehlo.fft": lambda o: {"type": hlo.FftTypeAttr(o.attributes["fft_type"]).value,
                                "lengths": _ints(o, "fft_length")},
    "stablehlo.dot_general": dec_dot,
    "stablehlo.reduce": lambda o: {"dims": _ints(o, "dimensions")},
    "stablehlo.reduce_window": lambda o: {
        "window": _ints(o, "window_dimensions"), "strides": _ints(o, "window_strides"),
        "base_dilations": _ints(o, "base_dilations"), "window_dilations": _ints(o, "window_dilations"),
        "padding": _pairs(o, "padding")},
    "stablehlo.convolution": dec_conv,
    "stablehlo.gather": dec_gather,
    "stablehlo.scatter": dec_scatter,
    "stablehlo.composite": dec_composite,
    "stablehlo.sort": lambda o: {"dim": _int(o, "dimension"), "stable": _bool(o, "is_stable")},
    "func.call": dec_call,
}


# ---------------------------------------------------------------------------
# Op handlers: h(prog, node, operands, env) -> results.

def out_dtype(n, k=0):
    return n.types[k][1]


def unary(fn):
    return lambda p, n, xs, env: [fn(xs[0])]


def binary(fn):
    return lambda p, n, xs, env: [fn(xs[0], xs[1])]


def is_bool(x):
    return np.dtype(x.dtype) == np.bool_


def _real(x):
    return lax.real(x) if np.issubdtype(x.dtype, np.complexfloating) else x


def _imag(x):
    if np.issubdtype(x.dtype, np.complexfloating):
        return lax.imag(x)
    return lax.full_like(x, 0)


def _add(x, y):
    # StableHLO's add on i1 is logical or; lax.add does not take booleans.
    return lax.bitwise_or(x, y) if is_bool(x) else lax.add(x, y)


def _mul(x, y):
    return lax.bitwise_and(x, y) if is_bool(x) else lax.mul(x, y)


def _power(x, y):
    if inexact(x.dtype):
        return lax.pow(x, y)
    # lax.pow takes no integer base; integers have no derivative, so the
    # op is emitted as it is (int_power_p below).
    return int_power_p.bind(x, y, shape=x.shape, dtype=x.dtype)


def _bitcast(p, n, xs, env):
    x = xs[0]
    shape, dt = n.types[0]
    if np.dtype(x.dtype) == np.bool_ or dt == np.bool_:
        # lax.bitcast_convert_type takes no booleans; StableHLO's i1 is a
        # byte.
        return [bitcast_p.bind(x, shape=shape, dtype=dt)]
    return [lax.bitcast_convert_type(x, dt)]


def _compare(p, n, xs, env):
    x, y = xs
    d, t = n.params["dir"], n.params["type"]
    if t == "TOTALORDER":
        from jax._src.lax import lax as laxint
        eq, lt, le = laxint.eq_to_p.bind, laxint.lt_to_p.bind, laxint.le_to_p.bind
        r = {"EQ": lambda: eq(x, y), "NE": lambda: lax.bitwise_not(eq(x, y)), "LT": lambda: lt(x, y),
             "LE": lambda: le(x, y), "GT": lambda: lt(y, x), "GE": lambda: le(y, x)}[d]()
        return [r]
    # The compare type of FLOAT, SIGNED and UNSIGNED follows from the
    # operand type in lax; another one (UNSIGNED on signed integers) has no
    # lax equivalent.
    dt = np.dtype(x.dtype)
    natural = "FLOAT" if inexact(dt) else "SIGNED" if np.issubdtype(dt, np.signedinteger) else "UNSIGNED"
    if t is not None and t != natural:
        raise Unsupported("stablehlo.compare: compare_type %s on %s is not supported (lax compares %s as %s)" % (
            t, dt, dt, natural))
    fn = {"EQ": lax.eq, "NE": lax.ne, "LT": lax.lt, "LE": lax.le, "GT": lax.gt, "GE": lax.ge}[d]
    if np.issubdtype(x.dtype, np.complexfloating) and d not in ("EQ", "NE"):
        # lax orders no complex numbers; the spec orders them
        # lexicographically, (real, imag).
        xr, yr = lax.real(x), lax.real(y)
        return [lax.bitwise_or(lax.lt(xr, yr) if d in ("LT", "LE") else lax.gt(xr, yr),
                               lax.bitwise_and(lax.eq(xr, yr), fn(lax.imag(x), lax.imag(y))))]
    return [fn(x, y)]


def _iota(p, n, xs, env):
    shape, dtype = n.types[0]
    return [lax.broadcasted_iota(dtype, shape, n.params["dim"])]


def _clamp(p, n, xs, env):
    lo, x, hi = xs
    # lax.clamp takes scalar bounds, but its derivative rule for them
    # fails (it selects between a scalar and a tensor): broadcast them,
    # which is what a scalar bound means.
    shape = tuple(x.shape)
    lo, hi = (lax.broadcast(b, shape) if tuple(b.shape) != shape else b for b in (lo, hi))
    if np.issubdtype(x.dtype, np.complexfloating):
        # lax.clamp lowers to stablehlo.clamp, which XLA's fusion emitters
        # order by real parts only; the spec's clamp is min(max(x, lo), hi),
        # with lax's lexicographic maximum and minimum.
        return [lax.min(lax.max(x, lo), hi)]
    return [lax.clamp(lo, x, hi)]


def _broadcast_in_dim(p, n, xs, env):
    x, dims = xs[0], list(n.params["dims"])
    if dims != sorted(dims):
        # StableHLO's dimensions may be in any order (a transposing
        # broadcast); lax's derivative rule assumes increasing ones, so
        # transpose first.
        perm = sorted(range(len(dims)), key=lambda i: dims[i])
        x, dims = lax.transpose(x, perm), sorted(dims)
    return [lax.broadcast_in_dim(x, n.types[0][0], dims)]


def _dynamic_slice(p, n, xs, env):
    from jax._src.lax import slicing
    # The primitive, not lax.dynamic_slice: that wraps negative indices as
    # numpy does, StableHLO clamps them.
    return [slicing.dynamic_slice_p.bind(xs[0], *xs[1:], slice_sizes=tuple(n.params["sizes"]))]


def _dynamic_update_slice(p, n, xs, env):
    from jax._src.lax import slicing
    return [slicing.dynamic_update_slice_p.bind(xs[0], xs[1], *xs[2:])]


def _pad(p, n, xs, env):
    q = n.params
    return [lax.pad(xs[0], xs[1], list(zip(q["lo"], q["hi"], q["interior"])))]


def _dot_general(p, n, xs, env):
    q = n.params
    return [lax.dot_general(xs[0], xs[1], q["dn"], precision=q["precision"], preferred_element_type=out_dtype(n))]


# Regions made of one binary op on the two block arguments: the monoids
# lax reduces with its own primitives (and their derivatives).
MONOIDS = {
    "stablehlo.add": "add", "stablehlo.multiply": "mul", "stablehlo.maximum": "max",
    "stablehlo.minimum": "min", "stablehlo.and": "and", "stablehlo.or": "or", "stablehlo.xor": "xor",
}


def monoid_of(blk, k=0, n=1):
    """The monoid result k of a region (acc..., elem...) computes, when it
    is one op of MONOIDS on accumulator k and element k (either order),
    or None."""
    a, b = blk.args[k], blk.args[n + k]
    r = blk.ret[k]
    for op in blk.ops:
        if op.results == [r] and op.name in MONOIDS and sorted(op.operands) == sorted([a, b]):
            return MONOIDS[op.name]
    return None


def monoid_fn(m, dtype):
    b = np.dtype(dtype) == np.bool_
    return {"add": lax.bitwise_or if b else lax.add, "mul": lax.bitwise_and if b else lax.mul,
            "max": lax.max, "min": lax.min, "and": lax.bitwise_and, "or": lax.bitwise_or,
            "xor": lax.bitwise_xor}[m]


def monoid_identity(m, dtype):
    from jax._src.lax import lax as laxint
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return np.array({"add": False, "mul": True, "max": False, "min": True, "and": True,
                         "or": False, "xor": False}[m])
    return {"add": lambda: np.array(0, dtype), "mul": lambda: np.array(1, dtype),
            "max": lambda: laxint._get_max_identity(dtype), "min": lambda: laxint._get_min_identity(dtype),
            "and": lambda: np.array(-1).astype(dtype), "or": lambda: np.array(0, dtype),
            "xor": lambda: np.array(0, dtype)}[m]()


def is_identity(init, ident):
    """Whether init is concretely the identity, bit for bit."""
    if not isinstance(init, np.ndarray):
        try:
            from jax._src import core
            if not core.is_concrete(init):
                return False
            init = np.asarray(init)
        except Exception:
            return False
    a, b = np.asarray(init, dtype=ident.dtype).reshape(()), ident.reshape(())
    return a.tobytes() == b.tobytes()


def _reduce(p, n, xs, env):
    k = len(xs) // 2
    ops, inits = xs[:k], xs[k:]
    dims = tuple(n.params["dims"])
    blk = n.regions[0]
    m = monoid_of(blk) if k == 1 else None
    if m is not None:
        # lax's monoid reductions (reduce_sum, reduce_max, ...), whose
        # derivatives JAX defines, take the identity as the init value;
        # another init value is combined with the result, which is the
        # same function.
        dt = out_dtype(n)
        ident, fn = monoid_identity(m, dt), monoid_fn(m, dt)
        r = lax.reduce(ops[0], ident, fn, dims)
        if not is_identity(inits[0], ident):
            r = fn(lax.broadcast(lax.convert_element_type(inits[0], dt), r.shape), r)
        return [r]
    # Any other region (a variadic argmax, say): lax.reduce's general path,
    # which emits the region as it is; JAX's derivative of it assumes, as
    # lax.reduce documents, that the region and init values form a monoid.
    comp = p.region_fn(blk, {})
    return list(lax.reduce(tuple(ops), tuple(inits), lambda a, b: tuple(comp(*a, *b)), dims))


def _reduce_window(p, n, xs, env):
    k = len(xs) // 2
    ops, inits = xs[:k], xs[k:]
    q = n.params
    rank = len(ops[0].shape)
    win = q["window"]
    strides = q["strides"] or [1] * rank
    base = q["base_dilations"] or [1] * rank
    wdil = q["window_dilations"] or [1] * rank
    pad = q["padding"] or [(0, 0)] * rank
    blk = n.regions[0]
    m = monoid_of(blk) if k == 1 else None
    if m is not None:
        dt = out_dtype(n)
        ident, fn = monoid_identity(m, dt), monoid_fn(m, dt)
        x = ops[0]
        if not is_identity(inits[0], ident):
            # StableHLO pads (and dilates the base) with the init value, and
            # starts each window with it: pad explicitly, reduce with the
            # identity, then combine.
            init = lax.convert_element_type(inits[0], dt)
            x = lax.pad(x, init, [(lo, hi, b - 1) for (lo, hi), b in zip(pad, base)])
            r = lax.reduce_window(x, ident, fn, win, strides, [(0, 0)] * rank, None, wdil)
            return [fn(lax.broadcast(init, r.shape), r)]
        return [lax.reduce_window(x, ident, fn, win, strides, pad, base, wdil)]
    comp = p.region_fn(blk, {})
    r = lax.reduce_window(tuple(ops), tuple(inits), lambda a, b: tuple(comp(*a, *b)), win, strides, pad, base, wdil)
    return list(r)


def _convolution(p, n, xs, env):
    q = n.params
    lhs, rhs = xs
    nsp = len(q["lhs_spec"]) - 2
    if q["reversal"] and any(q["reversal"]):
        # window_reversal flips the kernel's spatial dimensions.
        rsp = q["rhs_spec"][2:]
        rhs = lax.rev(rhs, [rsp[i] for i, r in enumerate(q["reversal"]) if r])
    dn = lax.ConvDimensionNumbers(q["lhs_spec"], q["rhs_spec"], q["out_spec"])
    return [lax.conv_general_dilated(
        lhs, rhs, q["strides"] or [1] * nsp, q["padding"] or [(0, 0)] * nsp,
        lhs_dilation=q["lhs_dilation"] or [1] * nsp, rhs_dilation=q["rhs_dilation"] or [1] * nsp,
        dimension_numbers=dn, feature_group_count=q["fgc"], batch_group_count=q["bgc"],
        precision=q["precision"], preferred_element_type=out_dtype(n))]


def index_vector_last(indices, ivd, batching):
    """lax wants the index vector dimension last: move it there (or add it,
    when it is the rank), renumbering the indices' batching dimensions."""
    r = len(indices.shape)
    if ivd == r:
        return lax.expand_dims(indices, (r,)), list(batching)
    if ivd == r - 1:
        return indices, list(batching)
    perm = [d for d in range(r) if d != ivd] + [ivd]
    return lax.transpose(indices, perm), [d if d < ivd else d - 1 for d in batching]


def _gather(p, n, xs, env):
    q = n.params
    idx, ib = index_vector_last(xs[1], q["ivd"], q["indices_batching"])
    dn = lax.GatherDimensionNumbers(offset_dims=tuple(q["offset_dims"]), collapsed_slice_dims=tuple(q["collapsed"]),
                                    start_index_map=tuple(q["start_index_map"]),
                                    operand_batching_dims=tuple(q["operand_batching"]),
                                    start_indices_batching_dims=tuple(ib))
    # CLIP clamps the start indices before the gather, as StableHLO's
    # gather does itself, and its transpose scatters to the clamped
    # indices, so that the derivative is right for out-of-range indices too.
    return [lax.gather(xs[0], idx, dn, tuple(q["slice_sizes"]), indices_are_sorted=q["sorted"],
                       mode=lax.GatherScatterMode.CLIP)]


SCATTERS = {"add": "scatter_add", "mul": "scatter_mul", "max": "scatter_max", "min": "scatter_min"}


def _scatter(p, n, xs, env):
    from jax._src.lax import slicing
    from jax._src.lax import lax as laxint
    q = n.params
    k = (len(xs) - 1) // 2
    inputs, indices, updates = xs[:k], xs[k], xs[k + 1:]
    idx, ib = index_vector_last(indices, q["ivd"], q["indices_batching"])
    dn = lax.ScatterDimensionNumbers(update_window_dims=tuple(q["update_window_dims"]),
                                     inserted_window_dims=tuple(q["inserted"]),
                                     scatter_dims_to_operand_dims=tuple(q["to_operand"]),
                                     operand_batching_dims=tuple(q["input_batching"]),
                                     scatter_indices_batching_dims=tuple(ib))
    blk = n.regions[0]
    # XLA skips a window that does not fit; FILL_OR_DROP is that.
    mode = lax.GatherScatterMode.FILL_OR_DROP
    kw = dict(indices_are_sorted=q["sorted"], unique_indices=q["unique"], mode=mode)
    outs = []
    for j in range(k):
        a, b, r = blk.args[j], blk.args[k + j], blk.ret[j]
        dt = out_dtype(n, j)
        m = monoid_of(blk, j, k)
        sub = None
        for op in blk.ops:
            if op.results == [r] and op.name == "stablehlo.subtract" and op.operands == [a, b]:
                sub = True
        if r == b:  # (old, new) -> new: overwrite
            outs.append(lax.scatter(inputs[j], idx, updates[j], dn, **kw))
        elif sub and np.dtype(dt) != np.bool_:
            outs.append(lax.scatter_sub(inputs[j], idx, updates[j], dn, **kw))
        elif m in SCATTERS and np.dtype(dt) != np.bool_:
            outs.append(getattr(lax, SCATTERS[m])(inputs[j], idx, updates[j], dn, **kw))
        else:
            # Any other update computation: scatter_p with the region as its
            # update jaxpr, which JAX lowers as the region; its derivative
            # rule is overwrite's, so only values without derivatives may
            # take this path when differentiating.
            if p.differentiating and inexact(dt):
                raise Unsupported("stablehlo.scatter: update computation of result #%d is not one JAX "
                                  "differentiates (overwrite, add, subtract, multiply, maximum, minimum)" % j)
            if k > 1 and not separable(blk, j, k):
                raise Unsupported("stablehlo.scatter: result #%d of the update computation depends on "
                                  "other inputs than its own" % j)

            def comp(x, y, j=j):
                args = [lax.full((), 0, blk.arg_types[i][1]) for i in range(2 * k)]
                args[j], args[k + j] = x, y
                return p.run_block(blk, args, {})[j]
            jaxpr, consts = laxint._reduction_jaxpr(comp, jax.core.ShapedArray((), dt))
            outs.append(slicing.scatter_p.bind(inputs[j], idx, updates[j], update_jaxpr=jaxpr, update_consts=consts,
                                               dimension_numbers=dn, indices_are_sorted=q["sorted"],
                                               unique_indices=q["unique"], mode=mode))
    return outs


def separable(blk, j, k):
    """Whether result j of a scatter region uses no block argument but
    arguments j and k+j."""
    allowed = {blk.args[j], blk.args[k + j]}
    others = set(blk.args) - allowed
    prod = {r: op for op in blk.ops for r in op.results}
    seen, stack = set(), [blk.ret[j]]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        if v in others:
            return False
        if v in prod:
            stack.extend(prod[v].operands)
    return True


def _while(p, n, xs, env):
    cond_b, body_b = n.regions
    cond = p.region_fn(cond_b, env)
    body = p.region_fn(body_b, env)
    if p.mode == "record":
        # The loop's entry comes before those of the cases and loops in its
        # body, in the order replay meets them. The condition runs as it
        # does when traced (replay does not run it).
        entry = len(p.path)
        p.path.append(None)
        state, count = list(xs), 0
        while True:
            p.mode = "trace"
            try:
                go = bool(cond(*state)[0])
            finally:
                p.mode = "record"
            if not go:
                break
            state = body(*state)
            count += 1
        p.path[entry] = ("while", count)
        return state
    if p.mode == "replay":
        count = replay(p, "while")
        state = list(xs)
        for _ in range(count):
            state = body(*state)
        return state
    return list(lax.while_loop(lambda s: cond(*s)[0], lambda s: tuple(body(*s)), tuple(xs)))


def replay(p, kind):
    """The next recorded entry, which must be of this kind."""
    if not p.path or p.path[0][0] != kind:
        raise RuntimeError("replay of the recorded path: expected a %s, the path has %r" % (
            kind, p.path[0] if p.path else "nothing left"))
    return p.path.pop(0)[1]


def _case(p, n, xs, env):
    idx = xs[0]
    branches = [p.region_fn(b, env) for b in n.regions]
    nb = len(branches)
    if p.mode == "record":
        i = int(idx)
        i = nb - 1 if i < 0 or i >= nb else i
        p.path.append(("case", i))
        return branches[i]()
    if p.mode == "replay":
        return branches[replay(p, "case")]()
    # StableHLO runs the last branch for an index out of range; lax.switch
    # would clamp -1 to the first.
    i = lax.convert_element_type(idx, np.int32)
    i = lax.select(lax.bitwise_or(lax.lt(i, np.int32(0)), lax.ge(i, np.int32(nb))), np.int32(nb - 1), i)
    return list(lax.switch(i, [lambda b=b: tuple(b()) for b in branches]))


def _sort(p, n, xs, env):
    """lax.sort takes no comparator: the comparator must be a < b on the
    first operand (num_keys=1, ascending), the order lax.sort gives for
    operands without NaN."""
    blk = n.regions[0]
    ops = blk.ops
    if (len(ops) == 1 and ops[0].name == "stablehlo.compare" and ops[0].params["dir"] == "LT"
            and ops[0].operands == [blk.args[0], blk.args[1]] and blk.ret == ops[0].results):
        return list(lax.sort(tuple(xs), dimension=n.params["dim"], is_stable=n.params["stable"], num_keys=1))
    raise Unsupported("stablehlo.sort: only the comparator a < b on the first operand is supported")


def _composite(p, n, xs, env):
    return p.call(n.params["decomposition"], list(xs))


def _call(p, n, xs, env):
    return p.call(n.params["callee"], list(xs))


def dec_custom_call(o):
    return {"target": ir.StringAttr(o.attributes["call_target_name"]).value}


def _custom_call(p, n, xs, env):
    """@Sharding (a sharding constraint in annotate mode) is the identity
    on one device, what jax.lax.with_sharding_constraint lowers to; no
    other target has a JAX equivalent."""
    if n.params["target"] == "Sharding" and len(xs) == 1:
        return [xs[0]]
    raise Unsupported("stablehlo.custom_call @%s has no JAX equivalent" % n.params["target"])


def _native_prim(name, lower):
    """A primitive without derivatives whose result type is its params
    shape and dtype, lowered by lower(ctx, *operands) to a StableHLO op:
    for what lax does not take but StableHLO does, on values that have no
    derivative (integer power, bitcasts from and to i1)."""
    from jax._src import core, dispatch
    from jax._src.interpreters import mlir
    prim = core.Primitive(name)
    prim.def_impl(lambda *xs, **kw: dispatch.apply_primitive(prim, *xs, **kw))
    prim.def_abstract_eval(lambda *xs, shape, dtype: core.ShapedArray(shape, dtype))
    mlir.register_lowering(prim, lower)
    return prim


def _native_lowerings():
    """Lowers lax primitives that jax lowers to other ops than the StableHLO
    op of the same name as that op, so that the forward program is the one
    Stela ran; their derivative rules stay JAX's (and use those primitives,
    lowered the same way)."""
    from jax._src.interpreters import mlir
    from jax._src.lax import lax as laxint

    def native(op):
        def lower(ctx, x, **params):
            return [op(x)]
        return lower
    # jax computes logistic as 1 / (1 + exp(-x)) (a TODO there says it
    # means to lower to stablehlo.logistic), which rounds differently in
    # bf16; and complex sine and cosine through expm1, which differs from
    # XLA's at infinities.
    mlir.register_lowering(laxint.logistic_p, native(hlo.logistic))
    mlir.register_lowering(laxint.sin_p, native(hlo.sine))
    mlir.register_lowering(laxint.cos_p, native(hlo.cosine))
    # On CPU jax expands a complex convolution into three real ones
    # (Gauss's trick), which rounds differently: emit it as it is.
    from jax._src.lax import convolution
    mlir.register_lowering(convolution.conv_general_dilated_p,
                           functools.partial(convolution._conv_general_dilated_lower,
                                             expand_complex_convolutions=False),
                           platform="cpu")


int_power_p = bitcast_p = None


def _init_handlers():
    global HANDLERS, int_power_p, bitcast_p
    from jax._src.interpreters import mlir
    int_power_p = _native_prim("stela_int_power", lambda ctx, x, y, **_: [hlo.power(x, y)])
    bitcast_p = _native_prim("stela_bitcast_convert", lambda ctx, x, **_: [
        hlo.bitcast_convert(mlir.aval_to_ir_type(ctx.module_context, ctx.avals_out[0]), x)])
    _native_lowerings()
    rm = lax.RoundingMethod
    HANDLERS.update({
        "stablehlo.constant": lambda p, n, xs, env: [n.params["value"]],
        "stablehlo.iota": _iota,
        "stablehlo.abs": unary(lax.abs),
        "stablehlo.negate": unary(lax.neg),
        "stablehlo.sign": unary(lax.sign),
        "stablehlo.exponential": unary(lax.exp),
        "stablehlo.exponential_minus_one": unary(lax.expm1),
        "stablehlo.log": unary(lax.log),
        "stablehlo.log_plus_one": unary(lax.log1p),
        "stablehlo.logistic": unary(lax.logistic),
        "stablehlo.sqrt": unary(lax.sqrt),
        "stablehlo.rsqrt": unary(lax.rsqrt),
        "stablehlo.cbrt": unary(lax.cbrt),
        "stablehlo.tanh": unary(lax.tanh),
        "stablehlo.sine": unary(lax.sin),
        "stablehlo.cosine": unary(lax.cos),
        "stablehlo.tan": unary(lax.tan),
        "chlo.erf": unary(lax.erf),
        "stablehlo.floor": unary(lax.floor),
        "stablehlo.ceil": unary(lax.ceil),
        "stablehlo.round_nearest_afz": unary(lambda x: lax.round(x, rm.AWAY_FROM_ZERO)),
        "stablehlo.round_nearest_even": unary(lambda x: lax.round(x, rm.TO_NEAREST_EVEN)),
        "stablehlo.not": unary(lax.bitwise_not),
        "stablehlo.popcnt": unary(lax.population_count),
        "stablehlo.count_leading_zeros": unary(lax.clz),
        "stablehlo.is_finite": unary(lax.is_finite),
        "stablehlo.real": unary(_real),
        "stablehlo.imag": unary(_imag),
        "stablehlo.reduce_precision": lambda p, n, xs, env: [
            lax.reduce_precision(xs[0], n.params["e"], n.params["m"])],
        "stablehlo.add": binary(_add),
        "stablehlo.subtract": binary(lax.sub),
        "stablehlo.multiply": binary(_mul),
        "stablehlo.divide": binary(lax.div),
        "stablehlo.remainder": binary(lax.rem),
        "stablehlo.power": binary(_power),
        "stablehlo.maximum": binary(lax.max),
        "stablehlo.minimum": binary(lax.min),
        "stablehlo.atan2": binary(lax.atan2),
        "stablehlo.and": binary(lax.bitwise_and),
        "stablehlo.or": binary(lax.bitwise_or),
        "stablehlo.xor": binary(lax.bitwise_xor),
        "stablehlo.shift_left": binary(lax.shift_left),
        "stablehlo.shift_right_arithmetic": binary(lax.shift_right_arithmetic),
        "stablehlo.shift_right_logical": binary(lax.shift_right_logical),
        "stablehlo.complex": binary(lax.complex),
        "stablehlo.compare": _compare,
        "stablehlo.select": lambda p, n, xs, env: [lax.select(*xs)],
        "stablehlo.clamp": _clamp,
        "stablehlo.convert": lambda p, n, xs, env: [lax.convert_element_type(xs[0], out_dtype(n))],
        "stablehlo.bitcast_convert": _bitcast,
        "stablehlo.broadcast_in_dim": _broadcast_in_dim,
        "stablehlo.reshape": lambda p, n, xs, env: [lax.reshape(xs[0], n.types[0][0])],
        "stablehlo.transpose": lambda p, n, xs, env: [lax.transpose(xs[0], n.params["perm"])],
        "stablehlo.slice": lambda p, n, xs, env: [
            lax.slice(xs[0], n.params["start"], n.params["limit"], n.params["strides"])],
        "stablehlo.dynamic_slice": _dynamic_slice,
        "stablehlo.dynamic_update_slice": _dynamic_update_slice,
        "stablehlo.concatenate": lambda p, n, xs, env: [lax.concatenate(xs, n.params["dim"])],
        "stablehlo.pad": _pad,
        "stablehlo.reverse": lambda p, n, xs, env: [lax.rev(xs[0], n.params["dims"])],
        "stablehlo.fft": lambda p, n, xs, env: [lax.fft(xs[0], lax.FftType[n.params["type"]], tuple(n.params["lengths"]))],
        "stablehlo.dot_general": _dot_general,
        "stablehlo.reduce": _reduce,
        "stablehlo.reduce_window": _reduce_window,
        "stablehlo.convolution": _convolution,
        "stablehlo.gather": _gather,
        "stablehlo.scatter": _scatter,
        "stablehlo.while": _while,
        "stablehlo.case": _case,
        "stablehlo.composite": _composite,
        "stablehlo.sort": _sort,
        "stablehlo.custom_call": _custom_call,
        "func.call": _call,
    })


HANDLERS = {}


if __name__ == "__main__":
    sys.exit(main(sys.argv))
