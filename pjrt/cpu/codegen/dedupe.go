package codegen

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// Kernel deduplication. A program often has kernels that are copies of
// one another but for their names: GPT-2's second layer norm repeats the
// first one's kernels (W5 has 22 kernels, 4 of them such copies). LLVM
// would optimize and compile each copy again, and its mergefunc pass does
// not help (it merges the loop bodies, which the inliner then copies
// back). So the code generator keeps one copy of each: a kernel's family
// (the functions emitted for it: the kernel, its loop body, its parallel
// chunk, nested kernels) is printed with its functions renamed by their
// position and its parameters' alignment attributes left out; families
// that print the same are one, the entry calling the first with each
// one's buffers. Parameter alignments may differ (an argument of the
// program is aligned to its element, a planned buffer to 64 bytes): the
// kept copy's parameters get the smallest alignment of the group, which
// holds for every caller. Loads and stores carry their own alignment in
// the body, which is compared.

// kernelFamily is the functions one kernel's emission added.
type kernelFamily []*ir.Func

// familyNamed matches the functions that belong to the kernel being
// emitted (k<N>.*, p<N>.*; shared helpers and declarations are named
// otherwise and are not part of any family).
var familyNamed = regexp.MustCompile(`^[kp][0-9]+\.`)

// paramAlign matches a parameter's alignment attribute in a define line.
var paramAlign = regexp.MustCompile(` align [0-9]+ %`)

// key is the family's text with its functions renamed by position and
// its parameters' alignments dropped.
func (fam kernelFamily) key() string {
	names := make([]string, len(fam))
	for i, f := range fam {
		names[i] = f.Name()
		f.SetName(fmt.Sprintf("stela.family.%d", i))
	}
	var text []byte
	for _, f := range fam {
		s := f.LLString()
		// Only the define line has parameter attributes.
		head := len(s)
		for j := range len(s) {
			if s[j] == '\n' {
				head = j
				break
			}
		}
		text = append(text, paramAlign.ReplaceAllString(s[:head], " %")...)
		text = append(text, s[head:]...)
		text = append(text, '\n')
	}
	for i, f := range fam {
		f.SetName(names[i])
	}
	return string(text)
}

// errDangling: a function dedupeKernels removed is still named in the
// module's text.
var errDangling = errors.New("codegen: a removed kernel copy is still referenced")

// dedupeKernels removes from m every family that prints as an earlier
// one and makes the instructions' operands (calls, function pointers)
// use the earlier one's functions; it returns the removed functions'
// names.
func dedupeKernels(m *ir.Module, fams []kernelFamily) []string {
	// Number the module's unnamed globals and metadata first, as printing
	// the module does: a function printed on its own would otherwise
	// print a self-referencing loop metadata node without end, and every
	// unnamed global as the same one. A kernel's loop metadata is its own
	// (distinct) node, so families with it are never merged.
	if m.AssignGlobalIDs() != nil || m.AssignMetadataIDs() != nil {
		return nil
	}
	first := map[string]kernelFamily{}
	replace := map[*ir.Func]*ir.Func{}
	for _, fam := range fams {
		if len(fam) == 0 {
			continue
		}
		k := fam.key()
		keep, ok := first[k]
		if !ok {
			first[k] = fam
			continue
		}
		for i, f := range fam {
			replace[f] = keep[i]
			minAlign(keep[i], f)
		}
	}
	if len(replace) == 0 {
		return nil
	}
	funcs := m.Funcs[:0]
	for _, f := range m.Funcs {
		if _, dup := replace[f]; !dup {
			funcs = append(funcs, f)
		}
	}
	m.Funcs = funcs
	type user interface{ Operands() []*value.Value }
	swap := func(ops []*value.Value) {
		for _, op := range ops {
			if f, ok := (*op).(*ir.Func); ok {
				if r, ok := replace[f]; ok {
					*op = r
				}
			}
		}
	}
	for _, f := range m.Funcs {
		for _, blk := range f.Blocks {
			for _, inst := range blk.Insts {
				if u, ok := inst.(user); ok {
					swap(u.Operands())
				}
			}
			if u, ok := blk.Term.(user); ok {
				swap(u.Operands())
			}
		}
	}
	var removed []string
	for _, fam := range fams {
		for _, f := range fam {
			if _, dup := replace[f]; dup {
				removed = append(removed, f.Name())
			}
		}
	}
	return removed
}

// minAlign lowers each of keep's parameters' alignment to dup's where
// dup's is smaller.
func minAlign(keep, dup *ir.Func) {
	for i, p := range keep.Params {
		if i >= len(dup.Params) {
			return
		}
		for j, a := range p.Attrs {
			ka, ok := a.(ir.Align)
			if !ok {
				continue
			}
			for _, b := range dup.Params[i].Attrs {
				if da, ok := b.(ir.Align); ok && da < ka {
					p.Attrs[j] = da
				}
			}
		}
	}
}
