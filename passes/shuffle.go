package passes

import (
	"math/rand/v2"

	"github.com/stela-ml/stela/ir"
)

// shuffle reorders f's instructions (and those of its regions) into another
// valid order: a random topological order of the data dependences in which
// side-effecting instructions keep their relative order. Run does it before
// each pass under Options.Shuffle (STELA_DEBUG=shuffle) to flush out passes
// whose result depends on program order, as Go's SSA check mode does. The
// seed makes a run reproducible.
func shuffle(f *ir.Func, r *rand.Rand) {
	for _, in := range f.Body {
		for _, reg := range in.Regions {
			shuffle(reg, r)
		}
	}
	n := len(f.Body)
	index := make(map[*ir.Instr]int, n)
	for i, in := range f.Body {
		index[in] = i
	}
	users := make([][]int, n)
	deps := make([]int, n)
	lastEffect := -1
	for i, in := range f.Body {
		seen := map[int]bool{}
		add := func(j int) {
			if !seen[j] {
				seen[j] = true
				users[j] = append(users[j], i)
				deps[i]++
			}
		}
		for _, a := range in.Args {
			if j, ok := index[a.Def]; ok && a.Def != nil {
				add(j)
			}
		}
		if !in.IsPure() {
			if lastEffect >= 0 {
				add(lastEffect)
			}
			lastEffect = i
		}
	}
	var ready []int
	for i := range f.Body {
		if deps[i] == 0 {
			ready = append(ready, i)
		}
	}
	out := make([]*ir.Instr, 0, n)
	for len(ready) > 0 {
		k := r.IntN(len(ready))
		i := ready[k]
		ready[k] = ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		out = append(out, f.Body[i])
		for _, u := range users[i] {
			if deps[u]--; deps[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	f.Body = out
}
