"""Lists the attributes of every VHLO op, for ../vhlo_ops.go.

VHLO ops keep their attributes as ODS properties, encoded in bytecode as
one attribute reference per attribute in name order, so the reader needs
each op's attribute names. This asks the VHLO dialect that jaxlib
registers: it parses each candidate op with no attributes and adds the
attribute the verifier says is missing until the op verifies, and writes
vhlo_attrs.json (op -> sorted attribute names):

  PYTHONPATH=/root/.cache/stela-ci/py python3 vhlo_attrs.py
"""
import re, sys, json
import jax, jax.numpy as jnp
from jaxlib.mlir import ir
from jaxlib.mlir.dialects import stablehlo
import jaxlib.mlir.dialects._stablehlo_ops_gen as g
lo = jax.jit(lambda x: x+1).lower(jnp.arange(4.0, dtype=jnp.float32))
mod = lo.compiler_ir('stablehlo')
ctx = mod.context
stablehlo.serialize_portable_artifact(mod, "1.17.0")
names = sorted(set(re.findall(r'OPERATION_NAME = "stablehlo\.([a-z0-9_\-]+)"', open(g.__file__).read())))
names += ["func", "call", "return", "cross-replica-sum", "count_leading_zeros", "divide", "maximum","minimum","multiply","subtract","power","remainder","shift_left","shift_right_arithmetic","shift_right_logical"]
names = sorted(set(names))
T = "!vhlo.tensor_v1<!vhlo.f32_v1>"
out = {}
def attempt(op, nops, nres, attrs, nreg):
    args = ", ".join(f"%arg{i}" for i in range(nops))
    sig = ", ".join([T]*nops)
    props = ", ".join(f"{a} = #vhlo.bool_v1<true>" for a in attrs)
    props = f" <{{{props}}}>" if attrs else ""
    regs = " (" + ", ".join(["{\n}"]*nreg) + ")" if nreg else ""
    res = ", ".join([T]*nres)
    fsig = ", ".join([T]*(nops+1))
    lhs = f"%r:{nres} = " if nres>1 else ("%r = " if nres==1 else "")
    txt = f'''"builtin.module"() ({{
^bb0:
  "vhlo.func_v1"() <{{arg_attrs = #vhlo.array_v1<[]>, function_type = #vhlo.type_v1<!vhlo.func_v1<({fsig}) -> {T}>>, res_attrs = #vhlo.array_v1<[]>, sym_name = #vhlo.string_v1<"f">, sym_visibility = #vhlo.string_v1<"">}}> ({{
  ^bb0({", ".join(f"%arg{i}: {T}" for i in range(nops+1))}):
    {lhs}"vhlo.{op}"({args}){props}{regs} : ({sig}) -> ({res})
    "vhlo.return_v1"(%arg{nops}) : ({T}) -> ()
  }}) : () -> ()
}}) : () -> ()'''
    try:
        with ctx:
            ir.Module.parse(txt)
        return None
    except Exception as e:
        return str(e)
for base in names:
    for v in range(1, 4):
        op = f"{base}_v{v}"
        nops, nres, attrs, nreg = 0, 0, [], 0
        ok = False
        for it in range(60):
            err = attempt(op, nops, nres, attrs, nreg)
            if err is None:
                ok = True; break
            m = re.search(r"requires attribute '([^']+)'", err)
            if m: attrs.append(m.group(1)); continue
            words = {"one":1,"a single":1,"single":1,"zero":0,"two":2,"three":3,"no":0}
            m2 = re.search(r"expected (\d+) or more operands", err)
            if m2 and int(m2.group(1)) > nops: nops = int(m2.group(1)); continue
            m = re.search(r"(?:requires|expected) (at least )?(\d+|one|a single|zero|two|three|no) (operand|result|region)s?", err)
            if m:
                n = int(m.group(2)) if m.group(2).isdigit() else words[m.group(2)]
                kind = m.group(3)
                cur = {"operand":nops,"result":nres,"region":nreg}[kind]
                if m.group(1) and cur >= n: n = cur+1
                if n != cur:
                    if kind=="operand": nops=n
                    elif kind=="result": nres=n
                    else: nreg=n
                    continue
            if "Unknown op" in err or "unregistered" in err or "doesn't exist" in err or "not registered" in err or "does not exist" in err:
                break
            print("??", op, err.replace("\n"," ")[:300], file=sys.stderr)
            break
        if ok or attrs:
            out[op] = sorted(attrs)
            print(op, sorted(attrs), "ok" if ok else "partial", file=sys.stderr)
out["return_v1"] = []
json.dump(out, open("vhlo_attrs.json", "w"), indent=0, sort_keys=True)
