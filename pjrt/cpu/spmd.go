package cpu

import (
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/stablehlo"
)

// The plugin's SPMD partitioner (docs/cpu-plugin.md, "SPMD programs").
//
// A program compiled with use_spmd_partitioning and several partitions
// is annotated, as for XLA: mhlo.sharding on @main's arguments and
// results and on custom_call @Sharding constraints. The worker partitions
// it with Stela's own partitioner, the one mode "partition" uses on the
// client side: it imports the StableHLO into the IR (lowering.Import),
// reads the HLO sharding strings onto a mesh (the prime factors of the
// partition count: every iota tile assignment fits it), propagates,
// partitions, lowers the per-device program and compiles that. JAX's
// shard_map (and Stela's manual_computation in annotate mode), the custom
// calls @SPMDFullToShardShape and @SPMDShardToFullShape around a
// per-device body, become manual_computation ops on import
// (ImportOptions.ManualComputations), whose bodies the partitioner inlines
// on each device's pieces. The
// per-device StableHLO, with the module attributes stela.collectives
// ("all_reduce=1,all_gather=2") and stela.bytes_moved (bytes each device
// receives per run), is kept in the object for
// PJRT_Executable_OptimizedProgram.

// spmdRequested reads ExecutableBuildOptionsProto.use_spmd_partitioning
// (field 6 of field 3) from serialized compile options.
func spmdRequested(opts []byte) bool {
	for b := opts; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		if num == 3 && typ == protowire.BytesType {
			eb, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return false
			}
			b = b[n:]
			for len(eb) > 0 {
				num, typ, n := protowire.ConsumeTag(eb)
				if n < 0 {
					return false
				}
				eb = eb[n:]
				if num == 6 && typ == protowire.VarintType {
					v, n := protowire.ConsumeVarint(eb)
					return n >= 0 && v != 0
				}
				if n = protowire.ConsumeFieldValue(num, typ, eb); n < 0 {
					return false
				}
				eb = eb[n:]
			}
			continue
		}
		if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
			return false
		}
		b = b[n:]
	}
	return false
}

// partitionSPMD partitions an annotated module for n partitions and
// returns the per-device module and its text (with the collectives'
// summary attributes).
func partitionSPMD(m *stablehlo.Module, n int) (*stablehlo.Module, string, error) {
	mesh := lowering.PrimeMesh(n)
	im, err := lowering.ImportWithOptions(m, lowering.ImportOptions{KeepShardingCalls: true, ManualComputations: true, Mesh: mesh,
		Ignore: []string{"mhlo.frontend_attributes", "mhlo.layout_mode", "mhlo.memory_kind", "jax.buffer_donor"}})
	if err != nil {
		return nil, "", fmt.Errorf("spmd: %w", err)
	}
	if im.NumReplicas > 1 {
		return nil, "", fmt.Errorf("spmd: %d replicas: the partitioner runs programs of one replica", im.NumReplicas)
	}
	// Calls are inlined on import: the entry is the whole program (the
	// other functions, @shmap_body say, are the callees' own copies).
	f := im.Module.Funcs[0]
	f.Mesh = mesh
	for i, s := range im.ArgShardings {
		if s == "" || i >= len(f.Params) {
			continue
		}
		sh, err := lowering.ParseHLOSharding(s, mesh, f.Params[i].Type)
		if err != nil {
			return nil, "", fmt.Errorf("spmd: argument #%d: %w", i, err)
		}
		for len(f.InShardings) <= i {
			f.InShardings = append(f.InShardings, nil)
		}
		f.InShardings[i] = sh
	}
	for i, s := range im.ResultShardings {
		if s == "" || i >= len(f.Results) {
			continue
		}
		sh, err := lowering.ParseHLOSharding(s, mesh, f.Results[i].Type)
		if err != nil {
			return nil, "", fmt.Errorf("spmd: result #%d: %w", i, err)
		}
		for len(f.OutShardings) <= i {
			f.OutShardings = append(f.OutShardings, nil)
		}
		f.OutShardings[i] = sh
	}
	for _, c := range im.ShardingCalls {
		if c.Target != "Sharding" {
			// shard_map's calls became manual computations on import.
			return nil, "", ir.Errorf(c.Loc, "custom_call", "spmd: custom_call @%s with mhlo.sharding %q is not supported by the Stela CPU plugin's partitioner", c.Target, c.Sharding)
		}
		if c.Instr == nil {
			continue
		}
		sh, err := lowering.ParseHLOSharding(c.Sharding, mesh, c.Operand.Type)
		if err != nil {
			return nil, "", ir.Errorf(c.Loc, "custom_call", "spmd: @Sharding: %v", err)
		}
		// The call becomes the constraint it stands for, in place.
		c.Instr.Op = ir.OpShardingConstraint
		c.Instr.Attr = ir.ShardingConstraintAttr{Sharding: *sh}
	}
	rep, err := passes.PrepareSharding(f)
	if err != nil {
		return nil, "", fmt.Errorf("spmd: %w", err)
	}
	p, err := passes.Partition(f, rep)
	if err != nil {
		return nil, "", fmt.Errorf("spmd: %w", err)
	}
	mod := &ir.Module{Funcs: []*ir.Func{p.Func}}
	if _, err := passes.Run(mod, passes.Default, passes.Options{}); err != nil {
		return nil, "", fmt.Errorf("spmd: %w", err)
	}
	lo := im.LowerOptions()
	lo.NumReplicas, lo.NumPartitions, lo.Aliases = 1, n, nil
	out, err := lowering.Lower(mod.Funcs[0], lo)
	if err != nil {
		return nil, "", fmt.Errorf("spmd: %w", err)
	}
	stablehlo.SetAttr(&out.Attrs, "stela.collectives", stablehlo.StringAttr(collectiveSummary(p.Collectives)))
	stablehlo.SetAttr(&out.Attrs, "stela.bytes_moved", stablehlo.I64Attr(p.BytesMoved))
	return out, string(stablehlo.Format(withGlobalShardings(out, mesh, p), stablehlo.PrintOptions{Locations: true})), nil
}

// withGlobalShardings returns a copy of the per-device module with the
// global program's parameter and result shardings as the module
// attributes mhlo.spmd_parameters_shardings and mhlo.spmd_output_sharding,
// which XLA's MLIR-to-HLO translation reads: XLA's PJRT C-API client (so
// JAX) takes an executable's shardings from its optimized program. A
// sharding without a GSPMD spelling leaves the module as it is.
func withGlobalShardings(out *stablehlo.Module, mesh *ir.Mesh, p *passes.Partitioned) *stablehlo.Module {
	hlo := func(s *ir.Sharding) (string, bool) {
		if s == nil {
			return "{replicated}", true
		}
		t, err := lowering.HLOSharding(mesh, s)
		return t, err == nil
	}
	var params stablehlo.ArrayAttr
	for i := range p.Func.Params {
		var s *ir.Sharding
		if i < len(p.InShardings) {
			s = p.InShardings[i]
		}
		t, ok := hlo(s)
		if !ok {
			return out
		}
		params = append(params, stablehlo.StringAttr(t))
	}
	var outs []string
	for i := range p.Func.Results {
		var s *ir.Sharding
		if i < len(p.OutShardings) {
			s = p.OutShardings[i]
		}
		t, ok := hlo(s)
		if !ok {
			return out
		}
		outs = append(outs, t)
	}
	res := "{" + strings.Join(outs, ", ") + "}"
	if len(outs) == 1 {
		res = outs[0]
	}
	c := *out
	c.Attrs = append([]stablehlo.NamedAttr(nil), out.Attrs...)
	stablehlo.SetAttr(&c.Attrs, "mhlo.spmd_output_sharding", stablehlo.StringAttr(res))
	if params != nil {
		stablehlo.SetAttr(&c.Attrs, "mhlo.spmd_parameters_shardings", params)
	}
	return &c
}

// collectiveSummary prints counts as "all_gather=2,all_reduce=1".
func collectiveSummary(c map[string]int) string {
	var names []string
	for k := range c {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%s=%d", k, c[k])
	}
	return strings.Join(parts, ",")
}
