package main

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// ruleKinds maps each sharding rule function of ir/sharding_rules.go to
// the kind `stela ops` must report for it (a prefix of the status). A
// rule function missing here fails TestOpsShardingColumn: add it.
var ruleKinds = map[string]string{
	"ruleElementwise":        "elementwise",
	"ruleGenerated":          "generated",
	"ruleBitcastConvert":     "elementwise",
	"ruleBroadcastInDim":     "broadcast",
	"ruleReshape":            "reshape",
	"ruleTranspose":          "transpose",
	"ruleSlice":              "pass-through",
	"ruleDynamicSlice":       "pass-through",
	"ruleDynamicUpdateSlice": "pass-through",
	"ruleConcatenate":        "pass-through",
	"rulePad":                "pass-through",
	"ruleReverse":            "pass-through",
	"ruleSort":               "pass-through",
	"ruleReduceWindow":       "pass-through",
	"ruleDotGeneral":         "dot_general",
	"ruleReduce":             "reduce",
	"ruleConvolution":        "convolution",
}

// TestOpsShardingColumn fails when the sharding column of `stela ops`
// and docs/ops.md misreports an op: it must name the kind of the rule
// function the op table holds (ir.OpInfo.Sharding), say "replicated (no
// rule)" for an op without one that the partitioner computes whole, and
// keep the ops the partitioner handles itself (collectives, loops,
// cases, manual computations, composites, constraints) apart.
func TestOpsShardingColumn(t *testing.T) {
	special := map[ir.Op]string{
		ir.OpShardingConstraint: "constraint",
		ir.OpWhile:              "regions",
		ir.OpCase:               "regions",
		ir.OpManualComputation:  "manual",
		ir.OpComposite:          "inlined",
	}
	rows := opRows()
	md := opsMarkdown()
	for i, op := range ir.AllOps() {
		info, r := op.Info(), rows[i]
		if r.name != info.Name {
			t.Fatalf("row %d is %s, want %s", i, r.name, info.Name)
		}
		var want string
		switch {
		case info.Has(ir.Collective):
			want = "only inside sharding.Map"
		case special[op] != "":
			want = special[op]
		case info.Sharding == nil:
			want = "replicated (no rule)"
		default:
			fn := runtime.FuncForPC(reflect.ValueOf(info.Sharding).Pointer()).Name()
			fn = fn[strings.LastIndex(fn, ".")+1:]
			kind, ok := ruleKinds[fn]
			if !ok {
				t.Errorf("op %s: sharding rule %s is not in ruleKinds", info.Name, fn)
				continue
			}
			want = kind
			if info.ShardingRuleKind() != r.sharding {
				t.Errorf("op %s: sharding column %q, but ShardingRuleKind is %q", info.Name, r.sharding, info.ShardingRuleKind())
			}
		}
		if !strings.HasPrefix(r.sharding, want) {
			t.Errorf("op %s: sharding column %q, want it to start with %q (OpInfo.Sharding set: %v)", info.Name, r.sharding, want, info.Sharding != nil)
		}
		if info.Sharding == nil && info.ShardingRuleKind() != "" {
			t.Errorf("op %s: no rule, but ShardingRuleKind is %q", info.Name, info.ShardingRuleKind())
		}
		if !strings.Contains(md, " | "+r.grad+" | "+r.sharding+" | ") {
			t.Errorf("op %s: docs/ops.md's row lacks the sharding status %q", info.Name, r.sharding)
		}
	}
}
