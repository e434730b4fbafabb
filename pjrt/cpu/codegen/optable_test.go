package codegen

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/stablehlo"
)

// The op table (stablehlo.OpDefs) is where the code generator's op sets
// come from; these tests fail when an op is in one place and not another.

// TestOpTableDispatch: every op the table gives a kernel reaches a case
// of the planner (an op without operands fails there with an error about
// its operands or attributes, not as unsupported), and every op the table
// refuses is refused as unsupported, by name.
func TestOpTableDispatch(t *testing.T) {
	for _, d := range stablehlo.OpDefs() {
		if d.Kernel == stablehlo.KernelCheck || d.Kernel == stablehlo.KernelFunc || d.Kernel == stablehlo.KernelRefined {
			continue // no case of their own: checks, inlined, or made static before planning
		}
		p := &planner{mod: &stablehlo.Module{}, prog: &Program{}}
		op := &stablehlo.Op{Name: d.Name}
		err := func() (err error) {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			_, err = p.op(op, "main", nil)
			return err
		}()
		var u *UnsupportedError
		refused := errors.As(err, &u) && u.What == d.Name
		switch {
		case d.Kernel == stablehlo.NoKernel && !refused:
			t.Errorf("%s: the op table refuses it (%s), but the planner says %v", d.Name, d.Refused, err)
		case d.Kernel != stablehlo.NoKernel && refused:
			t.Errorf("%s: the op table gives kernel %s, but the planner refuses it: %v", d.Name, d.Kernel, err)
		case d.Kernel != stablehlo.NoKernel && strings.HasPrefix(fmt.Sprint(err), "panic"):
			t.Errorf("%s: %v", d.Name, err)
		}
	}
}

// TestOpTableChlo: the chlo ops of kernel chlo are those misc.go computes
// (chloUnary, chloBroadcast, next_after, mulhi, zeta, polygamma, top_k).
func TestOpTableChlo(t *testing.T) {
	var table []string
	for _, d := range stablehlo.OpDefs() {
		if d.Kernel == stablehlo.KernelChlo {
			table = append(table, d.Short())
		}
	}
	impl := append(slices.Collect(maps.Keys(chloUnary)), slices.Collect(maps.Keys(chloBroadcast))...)
	impl = append(impl, "next_after", "mulhi", "zeta", "polygamma", "top_k")
	slices.Sort(table)
	slices.Sort(impl)
	if !slices.Equal(table, impl) {
		t.Errorf("chlo ops of kernel chlo in the op table:\n  %v\nin misc.go:\n  %v", table, impl)
	}
	for short, target := range chloBroadcast {
		if d, ok := stablehlo.LookupOp("chlo." + short); !ok || !d.Has(stablehlo.Broadcasting) {
			t.Errorf("chlo.%s: not a Broadcasting op in the op table", short)
		}
		if !strings.Contains(target, ".") && !binaryOps[target] && target != "compare" && target != "select" {
			t.Errorf("chlo.%s applies %s, which is no elementwise StableHLO op of the table", short, target)
		}
	}
}

// TestOpTableMath: the functions with inline approximations (mathULP)
// are expensive elementwise ops of the table.
func TestOpTableMath(t *testing.T) {
	for k, m := range mathULP {
		for name := range m {
			if !expensive[name] {
				t.Errorf("mathULP[%s] has %s, which the op table does not mark Expensive", k.mlir(), name)
			}
		}
	}
	for name := range unaryOps {
		if d, _ := stablehlo.LookupOp("stablehlo." + name); d.Operands != 1 || !d.Has(stablehlo.Elementwise) {
			t.Errorf("stablehlo.%s: kernel unary, but not a one-operand elementwise op in the table", name)
		}
	}
	for name := range binaryOps {
		if d, _ := stablehlo.LookupOp("stablehlo." + name); d.Operands != 2 || !d.Has(stablehlo.Elementwise) {
			t.Errorf("stablehlo.%s: kernel binary, but not a two-operand elementwise op in the table", name)
		}
	}
}
