package lowering

import (
	"math"
	"testing"

	"github.com/stela-ml/stela/ir"
)

// TestContentKey checks what makes two decompositions the same.
func TestContentKey(t *testing.T) {
	ty := tt(ir.F32, 4)
	withConst := func(v float32) *ir.Func {
		return region(t, "c", []ir.Type{ty}, func(r *fb) []*ir.Value {
			c := r.e1(ir.OpConstant, ir.ConstantAttr{Value: ir.LiteralOf([]int{4}, v, v, v, v)})
			return []*ir.Value{r.e1(ir.OpAdd, nil, r.p(0), c)}
		})
	}
	withNested := func(v any) *ir.Func {
		return region(t, "n", []ir.Type{ty}, func(r *fb) []*ir.Value {
			return r.emit(ir.OpComposite, ir.CompositeAttr{Name: "x", Attrs: []ir.NamedAttr{{Name: "a", Value: v}}}, []*ir.Value{r.p(0)}, doubler(t, ty))
		})
	}
	located := doubler(t, ty)
	located.Name = "other name"
	located.Body[0].Loc = ir.Loc{File: "x.go", Line: 1}
	nan1, nan2 := float32FromBits(0x7FC00001), float32FromBits(0x7FC00002)
	for _, c := range []struct {
		name string
		a, b *ir.Func
		same bool
	}{
		{"same ops", doubler(t, ty), doubler(t, ty), true},
		{"names and locations do not count", doubler(t, ty), located, true},
		{"other type", doubler(t, ty), doubler(t, tt(ir.F32, 5)), false},
		{"other constant", withConst(1), withConst(2), false},
		{"NaN payloads differ", withConst(nan1), withConst(nan2), false},
		{"same constant", withConst(1.5), withConst(1.5), true},
		{"int and float attribute", withNested(int64(1)), withNested(1.0), false},
		{"NaN attributes", withNested(math.NaN()), withNested(-math.NaN()), false},
		{"same attribute", withNested("s"), withNested("s"), true},
	} {
		if got := contentKey(c.a) == contentKey(c.b); got != c.same {
			t.Errorf("%s: same key %v, want %v\n%s\n%s", c.name, got, c.same, contentKey(c.a), contentKey(c.b))
		}
	}
}
