package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/stablehlo"
)

// opStatus is one row of `stela ops`: what exists for an op at each stage.
type opStatus struct {
	name, doc, arity, attr        string
	shape, eval, lower, cpuPlugin bool
	grad                          string // ir.OpInfo.GradStatus
	sharding                      string // passes.ShardingStatus
}

func opRows() []opStatus {
	var rows []opStatus
	for _, op := range ir.AllOps() {
		info := op.Info()
		arity := fmt.Sprint(info.NumArgs)
		if info.NumArgs < 0 {
			arity = fmt.Sprintf("%d+", info.MinArgs)
		}
		if info.NumRegions != 0 {
			r := fmt.Sprint(info.NumRegions)
			if info.NumRegions < 0 {
				r = "1+"
			}
			arity += ", " + r + " region(s)"
		}
		attr := "-"
		if info.Attr != nil {
			attr = info.Attr.Name()
		}
		rows = append(rows, opStatus{
			name: info.Name, doc: info.Doc, arity: arity, attr: attr,
			shape: info.Infer != nil, eval: info.Eval != nil, lower: lowering.HasRule(op),
			cpuPlugin: codegen.Handles("stablehlo." + info.Name),
			grad:      info.GradStatus(),
			sharding:  passes.ShardingStatus(op),
		})
	}
	return rows
}

// hloStatus is one row of `stela ops --stablehlo`: an op of StableHLO's
// op table (stablehlo.OpDefs) and, per element type the spec allows for
// it, whether the CPU plugin compiles it.
type hloStatus struct {
	name, section, arity, elem, traits string
	eval                               bool
	compiles, refuses                  string
}

func hloRows() []hloStatus {
	var rows []hloStatus
	for _, d := range stablehlo.OpDefs() {
		var traits []string
		for _, t := range []struct {
			t    stablehlo.OpTrait
			name string
		}{{stablehlo.Elementwise, "elementwise"}, {stablehlo.Commutative, "commutative"}, {stablehlo.Expensive, "expensive"}, {stablehlo.Broadcasting, "broadcasting"}} {
			if d.Has(t.t) {
				traits = append(traits, t.name)
			}
		}
		if len(traits) == 0 {
			traits = []string{"-"}
		}
		arity := d.Arity()
		switch {
		case d.Regions < 0:
			arity += ", 1+ region(s)"
		case d.Regions > 0:
			arity += fmt.Sprintf(", %d region(s)", d.Regions)
		}
		r := hloStatus{name: d.Name, section: d.Section.String(), arity: arity, elem: d.Elem.String(),
			traits: strings.Join(traits, " "), eval: d.Evaluator}
		var ok []string
		why := map[string][]string{}
		var reasons []string
		for _, e := range stablehlo.SpecElementTypes {
			if !d.Elem.Has(e) {
				continue
			}
			name := string(e)
			if e.IsQuantized() {
				name = "quant"
			}
			if yes, reason := codegen.CompilesOn(d.Name, e); yes {
				ok = append(ok, name)
			} else {
				if _, seen := why[reason]; !seen {
					reasons = append(reasons, reason)
				}
				why[reason] = append(why[reason], name)
			}
		}
		r.compiles = typeList(ok)
		var refused []string
		for _, reason := range reasons {
			refused = append(refused, typeList(why[reason])+": "+reason)
		}
		r.refuses = strings.Join(refused, "; ")
		if d.Kernel == stablehlo.KernelCheck || d.Kernel == stablehlo.KernelFunc {
			r.compiles, r.refuses = "yes", ""
		}
		if d.Kernel == stablehlo.KernelRefined && stablehlo.Refinable(d.Name) {
			r.compiles = "when its shape operands fold to constants: " + r.compiles
		}
		if len(ok) == 0 && len(reasons) == 0 && d.Kernel == stablehlo.NoKernel {
			r.refuses = d.Refused // an op on tokens only
		}
		if r.refuses == "" {
			r.refuses = "-"
		}
		rows = append(rows, r)
	}
	return rows
}

// typeList writes element types compactly: the small floats (f4, f6, f8)
// as "f4/f6/f8" and the sub-byte integers as "i2/i4/ui2/ui4" when all of
// them are there.
func typeList(ts []string) string {
	if len(ts) == 0 {
		return "none"
	}
	groups := []struct {
		name    string
		members []string
	}{
		{"f4/f6/f8", []string{"f4E2M1FN", "f6E2M3FN", "f6E3M2FN", "f8E3M4", "f8E4M3", "f8E4M3FN", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E5M2", "f8E5M2FNUZ", "f8E8M0FNU"}},
		{"i2/i4/ui2/ui4", []string{"i2", "i4", "ui2", "ui4"}},
	}
	var out []string
	done := map[string]bool{}
	for _, t := range ts {
		if done[t] {
			continue
		}
		grouped := false
		for _, g := range groups {
			if !slices.Contains(g.members, t) {
				continue
			}
			all := true
			for _, m := range g.members {
				all = all && slices.Contains(ts, m)
			}
			if all {
				out = append(out, g.name)
				for _, m := range g.members {
					done[m] = true
				}
				grouped = true
			}
		}
		if !grouped {
			out = append(out, strings.NewReplacer("complex<f32>", "c64", "complex<f64>", "c128").Replace(t))
		}
	}
	return strings.Join(out, " ")
}

func mark(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func runOps(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ops")
	md := fs.Bool("markdown", false, "print docs/ops.md (the generated IR reference)")
	shlo := fs.Bool("stablehlo", false, "list the StableHLO and chlo op table instead: each op's section, operands, element types, traits, evaluator, and on which element types the CPU plugin compiles it (or why not)")
	if err := noArgs(fs, args); err != nil {
		return err
	}
	if *md {
		_, err := io.WriteString(stdout, opsMarkdown())
		return err
	}
	if *shlo {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "OP\tSECTION\tOPERANDS\tELEMENT TYPES\tTRAITS\tEVALUATOR\tCPU PLUGIN\tCPU PLUGIN REFUSES")
		for _, r := range hloRows() {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.name, r.section, r.arity, r.elem, r.traits, mark(r.eval), r.compiles, r.refuses)
		}
		return tw.Flush()
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "OP\tOPERANDS\tATTRIBUTE\tSHAPE RULE\tEVALUATOR\tLOWERING\tCPU PLUGIN\tGRADIENT\tSHARDING\tDOC")
	for _, r := range opRows() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.name, r.arity, r.attr, mark(r.shape), mark(r.eval), mark(r.lower), mark(r.cpuPlugin), r.grad, r.sharding, r.doc)
	}
	return tw.Flush()
}

// tpuRefusals are the check files (test/check/testdata) libtpu 0.0.52
// does not compile, and what it refuses; TestCompileTPUCheckFiles holds
// libtpu to the list.
var tpuRefusals = map[string]string{
	"chlo_top_k_broadcast.mlir":       "`chlo.broadcast_subtract` (CHLO, not legalized)",
	"chlo_narrow_floats.mlir":         "the f6 types (libtpu aborts the process on them, so Stela refuses them before libtpu; without them, `chlo.erfc` on f8E4M3FN is not legalized)",
	"reduce_precision_narrow.mlir":    "the f6 types (libtpu aborts the process on them, so Stela refuses them before libtpu)",
	"conv_layouts.mlir":               "`convolution` on si64",
	"dot_general_batched.mlir":        "`dot_general` on si64",
	"dot_general_layouts.mlir":        "`dot_general` on si64",
	"dot_general_matmul.mlir":         "`dot_general` on si64",
	"reduce_precision_formats.mlir":   "`reduce_precision` on f64",
	"select_and_scatter_maxpool.mlir": "`select_and_scatter` on f64",
	"dot_general_complex_ulp.mlir":    "`dot_general` of a real and a complex operand (libtpu aborts the process on it, so Stela refuses it before libtpu)",
	"dot_general_mixed.mlir":          "`dot_general` of a real and a complex operand (libtpu aborts the process on it, so Stela refuses it before libtpu)",
	"dynamic_shapes.mlir":             "`dynamic_conv` (not translated to HLO)",
	"fft.mlir":                        "`fft` on complex128",
	"quant_per_axis.mlir":             "`uniform_dequantize` (quantized types are not translated to HLO)",
	"quant_result_type_form.mlir":     "`uniform_quantize` (quantized types are not translated to HLO)",
	"quant_roundtrip.mlir":            "`uniform_quantize` (quantized types are not translated to HLO)",
	"quant_uniform.mlir":              "`uniform_quantize` (quantized types are not translated to HLO)",
	"batch_norm_quant.mlir":           "`uniform_quantize` (quantized types are not translated to HLO)",
	"quant_constant_region.mlir":      "a quantized `constant` (quantized types are not translated to HLO)",
	"bitcast_convert_i1.mlir":         "`bitcast_convert` between i1 and wider types (XLA counts PRED as 8 bits, the spec's i1 as 1)",
	"chlo_ragged_dot.mlir":            "`chlo.ragged_dot` with si64 group sizes (no 64-bit rewrite of ragged-dot)",
	"chlo_scan.mlir":                  "`chlo.scan` with more outputs than carries (libtpu wants one output per carry)",
	"types_f6.mlir":                   "the f6 types (libtpu aborts the process on them, so Stela refuses them before libtpu)",
	"types_subbyte_int.mlir":          "i2/ui2 tensors of rank 1 (\"INT2 is not supported for rank 1\")",
}

// opsMarkdown renders docs/ops.md from the op table. A test keeps the
// committed file equal to this output.
func opsMarkdown() string {
	var b strings.Builder
	b.WriteString("<!-- Code generated by `stela ops --markdown`. DO NOT EDIT. -->\n\n")
	b.WriteString("# Stela IR ops\n\n")
	b.WriteString("Generated from the op table (`ir/ops.go`). Element type names: i1, si8–si64, ui8–ui64, f16, bf16, f32, f64, c64, c128. ")
	b.WriteString("Attributes are printed in `.sir` text as `{field = value, ...}` with the field names of the attribute struct. ")
	b.WriteString("The CPU plugin column says whether the Stela CPU plugin's code generator compiles the op on at least one element type ")
	b.WriteString("(on every element type the op accepts; custom_call only for the check.* targets and @Sharding). ")
	b.WriteString("The gradient column is the op's autodiff status (`ir/autodiff.go`, `passes/autodiff`): `vjp+jvp` has a reverse-mode and a forward-mode rule, ")
	b.WriteString("`not differentiable` has no derivative (asking for one through it is an error at the op's Go line); ")
	b.WriteString("every rule is checked against finite differences in f64 and against JAX's jax.vjp/jax.jvp ")
	b.WriteString("(the collectives' rules against finite differences and the adjoint identity on grids of devices, with ir.EvalSPMD). ")
	b.WriteString("The collectives (all_reduce, all_gather, reduce_scatter, all_to_all, collective_permute, replica_id, partition_id; trait Collective) ")
	b.WriteString("evaluate on ir.Eval as a grid of one device and on ir.EvalSPMD as a grid of replicas × partitions; ")
	b.WriteString("their replica groups name devices as StableHLO's process-group strategies say (ir/collective.go).\n\n")
	b.WriteString("The sharding column is how sharding propagation and Stela's SPMD partitioner treat the op (docs/sharding.md; `passes.ShardingStatus`): ")
	b.WriteString("the kind of its sharding rule (`ir/sharding_rules.go`: Shardy-style factors; `pass-through` keeps every dimension in place except the ones named, which must be whole; ")
	b.WriteString("dot_general, reduce and convolution have reduction factors, which leave partial results the partitioner finishes with all_reduce or reduce_scatter), ")
	b.WriteString("`replicated (no rule)` for an op computed whole on every device (operands gathered, results sliced; a remark says so), ")
	b.WriteString("or how the partitioner handles the op itself: loops and cases through their regions, manual_computation (sharding.Map) by its in and out specs, ")
	b.WriteString("composites by their decompositions, and collectives only inside sharding.Map (an error in a program partitioned automatically).\n\n")
	b.WriteString("| op | operands | attribute | shape rule | evaluator | lowering | CPU plugin | gradient | sharding | semantics |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range opRows() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.arity, r.attr, mark(r.shape), mark(r.eval), mark(r.lower), mark(r.cpuPlugin), r.grad, r.sharding, strings.ReplaceAll(r.doc, "|", `\|`))
	}
	b.WriteString("\n## StableHLO and chlo ops\n\n")
	b.WriteString("StableHLO's op table (`stablehlo/opdefs.go`, `stela ops --stablehlo`): every op of the StableHLO specification ")
	b.WriteString("(section spec; the ops it lists as not in HLO and as dynamism), of chlo, of the check dialect and the func ops, ")
	b.WriteString("as `stela check`, `stela run` and the importer (docs/import.md) read them. Element types: the classes the spec allows for the op's operands. ")
	b.WriteString("Evaluator: the importer turns the op into Stela IR, whose reference evaluator runs it. ")
	b.WriteString("CPU plugin: the element types on which the code generator compiles the op (its element kinds, narrowed for the elementwise ops by their per-type rules), ")
	b.WriteString("and the rest with the reason it refuses them (`stela check` exits 2 with `unsupported: ...`).\n\n")
	b.WriteString("The narrow types: f4/f6/f8 (f8E4M3FN, f8E5M2, f8E4M3FNUZ, f8E5M2FNUZ, f8E4M3B11FNUZ, f8E4M3, f8E3M4, f8E8M0FNU, f6E2M3FN, f6E3M2FN, f4E2M1FN) ")
	b.WriteString("and i2/i4/ui2/ui4 take one byte per element in buffers (the bit pattern in the low bits, the upper bits zero, as XLA's host literals and ml_dtypes hold them). ")
	b.WriteString("The floats compute in f32 (f8E8M0FNU in f64) and round once, to nearest even, with each format's rules (internal/minifloat, checked against ml_dtypes on every code); ")
	b.WriteString("the sub-byte integers compute as 8-bit integers and wrap. PJRT has no buffer type for f6E2M3FN and f6E3M2FN: the CPU plugin compiles them as intermediate values only.\n\n")
	b.WriteString("| op | section | operands | element types | traits | evaluator | CPU plugin | CPU plugin refuses |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, r := range hloRows() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", r.name, r.section, r.arity, r.elem, r.traits, mark(r.eval), r.compiles, strings.ReplaceAll(r.refuses, "|", `\|`))
	}
	b.WriteString("\n## TPU (libtpu)\n\n")
	b.WriteString("Every spec check file (`test/check/testdata`) is compiled for `tpu:v5e:2x2` with libtpu 0.0.52 (no TPU needed; docs/tpu.md). ")
	b.WriteString("libtpu refuses these, mostly for element types rather than ops: the TPU compiler has no 64-bit rewrite of matrix products, ")
	b.WriteString("convolutions, ragged-dot, reduce_precision and select_and_scatter, does not legalize CHLO broadcasting ops, translates no quantized types, ")
	b.WriteString("counts i1 as 8 bits in bitcasts, and takes only scans with one output per carry. Every other file compiles.\n\n")
	b.WriteString("| check file | what libtpu refuses |\n| --- | --- |\n")
	var files []string
	for f := range tpuRefusals {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		fmt.Fprintf(&b, "| `%s` | %s |\n", f, tpuRefusals[f])
	}
	b.WriteString("\n## Attribute fields\n\n")
	seen := map[string]bool{}
	for _, op := range ir.AllOps() {
		info := op.Info()
		if info.Attr == nil || seen[info.Attr.Name()] {
			continue
		}
		seen[info.Attr.Name()] = true
		fmt.Fprintf(&b, "### %s\n\n", info.Attr.Name())
		for i := 0; i < info.Attr.NumField(); i++ {
			f := info.Attr.Field(i)
			tag := f.Tag.Get("sir")
			name, opt, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			line := fmt.Sprintf("- `%s`: %s", name, f.Type)
			if opt == "omitempty" {
				line += " (optional)"
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}
