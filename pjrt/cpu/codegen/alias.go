package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llir/llvm/ir/value"
	"github.com/stela-ml/stela/stablehlo"
)

// Input/output aliasing (buffer donation).
//
// An argument of the entry function may carry `tf.aliasing_output = J :
// i32` (what JAX emits for donate_argnums, and what XLA reads as a
// may-alias pair of its input_output_alias): result J then lives in the
// argument's buffer. The plugin passes the same pointer as args[I] and
// results[J] whenever the pair is set, donated or not (when the caller
// does not donate, the plugin copies the argument into a fresh result
// buffer first, and passes that buffer for both), so the program may
// rely on it: args[I] == results[J].
//
// The result is then written over the argument, which must not be read
// afterwards. Where it is computed (the planner's buffer assignment):
//
//   - result J is argument I unchanged: nothing to do (no copy);
//   - the kernel that defines result J runs after the last read of
//     argument I: it writes the result buffer in place, whatever the
//     kernel (a matmul, a transpose);
//   - that kernel is itself the last reader of argument I, and reads it
//     only at the element it writes (an elementwise kernel, or a fused
//     loop whose every load of the argument is at the store's offset),
//     or is a one-operand all_reduce (collective.go), or a
//     dynamic_update_slice of the argument (which then writes only the
//     update: a decode step's key/value cache): it writes in
//     place, loading the argument through the result's pointer, so that
//     LLVM sees one pointer and still vectorizes (two noalias pointers
//     to the same bytes would be undefined);
//   - otherwise (a transpose or matmul of the argument, the argument
//     read by a later kernel or returned again as another result): the
//     result is computed into the arena like any intermediate value and
//     copied into the buffer at the end.
//
// The copies at the end run in two phases: first the copies into
// results that alias nothing (they may read any argument, none has been
// overwritten yet), and the staging of aliased arguments that a later
// copy reads into arena slots; then the copies into aliased results.
// So a swap (two donated arguments returned crosswise) is correct.

// aliasAttr is the argument attribute that pairs an argument with a
// result.
const aliasAttr = "tf.aliasing_output"

// entryAliases reads the entry's tf.aliasing_output attributes: per
// result, the argument whose buffer it lives in, or -1; nil when no
// argument has one.
func entryAliases(f *stablehlo.Func, args, results []*tval) ([]int, error) {
	var aliases []int
	for i, a := range f.Args {
		for _, na := range a.Attrs {
			if na.Name != aliasAttr {
				continue
			}
			v, ok := na.Value.(stablehlo.IntAttr)
			if !ok {
				return nil, fmt.Errorf("argument #%d of @%s: %s is %v, want an integer (the result index)", i, f.Name, aliasAttr, na.Value)
			}
			j := int(v.Value)
			if v.Value < 0 || j >= len(results) {
				return nil, fmt.Errorf("argument #%d of @%s: %s = %d, but @%s has %d results", i, f.Name, aliasAttr, v.Value, f.Name, len(results))
			}
			if !results[j].t.equal(args[i].t) {
				return nil, fmt.Errorf("argument #%d of @%s has type %s but its %s, result #%d, has type %s: an aliased result must have the argument's type",
					i, f.Name, args[i].t, aliasAttr, j, results[j].t)
			}
			if aliases == nil {
				aliases = slices.Repeat([]int{-1}, len(results))
			}
			if k := aliases[j]; k >= 0 {
				return nil, fmt.Errorf("arguments #%d and #%d of @%s both alias result #%d (%s)", k, i, f.Name, j, aliasAttr)
			}
			aliases[j] = i
		}
	}
	return aliases, nil
}

// Aliases is the text of the stela_aliases symbol: one line
// `<result> <argument>` per aliased result, in result order; "" when no
// result is aliased.
func (p *Program) Aliases() string {
	var sb strings.Builder
	for j, i := range p.aliases {
		if i >= 0 {
			fmt.Fprintf(&sb, "%d %d\n", j, i)
		}
	}
	return sb.String()
}

// assignAliased decides where each aliased result is computed (see the
// top of this file) and returns which results it handled. It runs after
// the live ranges are known (end is the index past the last node) and
// before the other results get their buffers.
func (p *planner) assignAliased(end int) []bool {
	prog := p.prog
	done := make([]bool, len(prog.results))
	for j, i := range prog.aliases {
		if i < 0 {
			continue
		}
		done[j] = true
		a := prog.args[i]
		r := prog.results[j]
		root := r.root()
		if root == a {
			prog.inPlaceResults++
			continue // the argument unchanged: already there
		}
		if n := root.def; n != nil && n.kind != kConstant && root.st == stNone && a.last <= root.first {
			if a.last < root.first || readsInPlace(n, root, a) {
				root.st, root.idx = stResult, j
				if a.last == root.first {
					for k, x := range n.in {
						if x.root() == a {
							n.inPlace = append(n.inPlace, k)
						}
					}
				}
				prog.inPlaceResults++
				continue
			}
		}
		prog.copies = append(prog.copies, resultCopy{res: j, src: r})
	}
	return done
}

// readsInPlace reports whether node n, which defines out, may write out
// over argument a's buffer while it reads a: it is the only output and
// every read of a is of the element being written.
func readsInPlace(n *node, out, a *tval) bool {
	if len(n.out) != 1 || n.out[0] != out || n.kind == kReduce {
		return false
	}
	if n.kind == kDot {
		// A GEMM that accumulates into in[2] reads each element of it
		// once, before writing it (β·C), and must not read it as A or B.
		return n.acc && n.in[2].root() == a && n.in[0].root() != a && n.in[1].root() != a
	}
	if n.kind == kDynUpdate {
		// A dynamic_update_slice of the argument (a key/value cache
		// updated at one position) writes the update into it and leaves
		// the rest as it is: no copy of the operand (gather.go).
		if n.in[0].root() != a {
			return false
		}
		for _, x := range n.in[1:] {
			if x.root() == a {
				return false
			}
		}
		return true
	}
	if n.kind == kAllReduce {
		// A one-operand all_reduce writes in place (collective.go): each
		// segment of the argument is read by one device before that
		// device overwrites it.
		return len(n.in) == 1 && n.in[0].root() == a
	}
	if n.fused == nil {
		// An elementwise kernel reads its full operands at the index it
		// writes (a reshaped operand too: its flat order is the same).
		return isElementwise(n.kind)
	}
	rg, err := buildGraph(n, n.fused.ops, n.fused.inline)
	if err != nil {
		return false
	}
	want := rg.outMap.String()
	ok := true
	seen := map[*fx]bool{}
	var walk func(f *fx)
	walk = func(f *fx) {
		if f == nil || seen[f] || !ok {
			return
		}
		seen[f] = true
		if f.kind == fxLeaf && f.v == a && rg.maps[f.m].String() != want {
			ok = false
		}
		for _, x := range f.args {
			walk(x)
		}
	}
	for _, f := range rg.out {
		walk(f)
	}
	return ok
}

// orderCopies puts the result copies in the order the top of this file
// gives, adding the staging copies; staged returns the arena values
// they need (placed by the caller).
func (p *planner) orderCopies(end int) (staged []*tval) {
	prog := p.prog
	if prog.aliases == nil {
		return nil
	}
	// Results whose buffer (an aliased argument's) a copy writes.
	written := map[int]bool{}
	for _, c := range prog.copies {
		if prog.aliases[c.res] >= 0 {
			written[prog.aliases[c.res]] = true
		}
	}
	var plain, stage, into []resultCopy
	for _, c := range prog.copies {
		if prog.aliases[c.res] < 0 {
			plain = append(plain, c)
			continue
		}
		if r := c.src.root(); r.st == stArg && written[r.idx] {
			s := &tval{t: c.src.t, arg: -1, first: end, last: end}
			staged = append(staged, s)
			stage = append(stage, resultCopy{res: -1, src: c.src, to: s})
			c.src = s
		}
		into = append(into, c)
	}
	prog.copies = append(append(plain, stage...), into...)
	return staged
}

// aliasIns returns the kernel's input pointers with those n reads in
// place (n.inPlace) replaced by its output's pointer: one pointer for
// the bytes it loads and stores (its parameters are noalias).
func (b *fb) aliasIns(n *node, outs, ins []value.Value) []value.Value {
	if len(n.inPlace) == 0 {
		return ins
	}
	ins = slices.Clone(ins)
	for _, k := range n.inPlace {
		o := outs[0]
		if !o.Type().Equal(ins[k].Type()) {
			o = b.cur.NewBitCast(o, ins[k].Type())
		}
		ins[k] = o
	}
	return ins
}

// InPlaceResults is the number of aliased results written straight into
// their argument's buffer (no arena, no copy): for tests and logs.
func (p *Program) InPlaceResults() int { return p.inPlaceResults }
