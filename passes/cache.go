package passes

import (
	"fmt"
	"strings"
	"sync"

	"github.com/stela-ml/stela/ir"
)

// The run cache: a pipeline's output by its input, in this process. A
// pass gives the same output for the same input, byte for byte (Pass), so
// a module whose text is that of a module the pipeline already ran on
// gets a copy of that run's output instead of running the passes again:
// compiling the same function a second time (a new jit.Compile of it,
// `stela bench`'s W6 "again in the same process") skips them.
//
// The key is the pipeline (its passes by identity) and the module's full
// text: every function with its values' IDs, the instructions' locations
// and attributes, the mesh and the input, output and value shardings,
// the regions. The text is what ir.Parse reads back, and the passes'
// determinism check (STELA_DEBUG=verify) already relies on a parse of it
// giving them the same input; donation and compile options are not part
// of the IR and not the passes' business. Runs that print, dump, verify
// each pass, check determinism, shuffle or report remarks as they go are
// not cached (they want the passes to run).
const (
	// runCacheMax bounds the cache's entries, runCacheMaxBytes the text it
	// holds (keys and outputs); when either is exceeded it starts again.
	runCacheMax      = 64
	runCacheMaxBytes = 64 << 20
	// runCacheMaxConstant is the most elements of a constant a cached
	// module has: printing a large literal for the key would cost more
	// than it saves, and the key would be mostly that literal.
	runCacheMaxConstant = 4096
)

var runCache struct {
	sync.Mutex
	m     map[string]*cachedRun
	bytes int
}

// cachedRun is one pipeline run: its output (copied for each user) and
// its remarks.
type cachedRun struct {
	out     []*ir.Func
	remarks []Remark
}

// cacheable reports whether a run with opts may be served by the cache.
func cacheable(opts Options) bool {
	return !opts.VerifyEach && len(opts.PrintBefore) == 0 && len(opts.PrintAfter) == 0 &&
		!opts.PrintChanged && opts.DumpDir == "" && !opts.CheckDeterminism &&
		!opts.Shuffle && !opts.Remarks
}

// smallConstants reports whether m has no constant larger than
// runCacheMaxConstant.
func smallConstants(m *ir.Module) bool {
	for _, f := range m.Funcs {
		if ir.MaxConstant(f) > runCacheMaxConstant {
			return false
		}
	}
	return true
}

// runKey is the cache key of running pipeline on m.
func runKey(m *ir.Module, pipeline []*Pass) string {
	var b strings.Builder
	// About an instruction's line each (with its location): growing the
	// builder by doubling copied the text several times.
	n := 0
	for _, f := range m.Funcs {
		n += len(f.Body)
	}
	b.Grow(160 * n)
	for _, p := range pipeline {
		fmt.Fprintf(&b, "%p,", p)
	}
	b.WriteByte('\n')
	ir.PrintModule(&b, m, ir.PrintOptions{Locations: true, StableNames: true})
	return b.String()
}

// cachedOutput replaces m's functions, in place, by copies of the cached
// output for key, and returns its remarks; ok is false on a miss.
func cachedOutput(m *ir.Module, key string) (remarks []Remark, ok bool) {
	runCache.Lock()
	c := runCache.m[key]
	runCache.Unlock()
	if c == nil || len(c.out) != len(m.Funcs) {
		return nil, false
	}
	gs := make([]*ir.Func, len(c.out))
	for i, f := range c.out {
		var ok bool
		if gs[i], ok = ir.CloneFuncIDs(f); !ok {
			return nil, false // storeOutput copied it, so this does not happen
		}
	}
	for i, g := range gs {
		replaceFunc(m.Funcs[i], g)
	}
	return append([]Remark(nil), c.remarks...), true
}

// storeOutput caches m, the pipeline's output for key, if a copy of it
// prints as it does, value IDs included (a copy of the copy is what later
// runs get, and is then what this run's output is).
func storeOutput(m *ir.Module, key string, remarks []Remark) {
	out := make([]*ir.Func, len(m.Funcs))
	var want, got strings.Builder
	full := ir.PrintOptions{Locations: true, StableNames: true}
	for i, f := range m.Funcs {
		var ok bool
		if out[i], ok = ir.CloneFuncIDs(f); !ok {
			return
		}
		ir.Print(&want, f, full)
		ir.Print(&got, out[i], full)
	}
	if want.String() != got.String() {
		return
	}
	size := len(key) + got.Len()
	runCache.Lock()
	defer runCache.Unlock()
	if runCache.m == nil || len(runCache.m) >= runCacheMax || runCache.bytes+size > runCacheMaxBytes {
		runCache.m = map[string]*cachedRun{}
		runCache.bytes = 0
	}
	runCache.m[key] = &cachedRun{out: out, remarks: append([]Remark(nil), remarks...)}
	runCache.bytes += size
}

// replaceFunc makes dst the function src is (src is not used after):
// callers that hold dst see the pipeline's output, as when the passes
// rewrite it in place.
func replaceFunc(dst, src *ir.Func) {
	*dst = *src
	for _, p := range dst.Params {
		p.Func = dst
	}
	for _, in := range dst.Body {
		in.Func = dst
		for _, r := range in.Results {
			r.Func = dst
		}
		for _, r := range in.Regions {
			r.Parent = in
		}
	}
}
