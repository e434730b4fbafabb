package runtime

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/stablehlo"
)

// This file is the StableHLO-over-PJRT compile driver: every program a
// PJRT platform compiles, for one device or for several, is lowered,
// printed, hashed and compiled here (platform.compileProgram).

// LowerOptions are what the driver asks of the lowering beyond the
// function: the fields of lowering.Options that a compile decides.
type LowerOptions struct {
	// NumReplicas and NumPartitions, when positive, become the module's
	// mhlo.num_replicas and mhlo.num_partitions. The driver sets them
	// for programs of several devices only, so that a one-device
	// program's text (and hash) is what it always was.
	NumReplicas, NumPartitions int
	// Aliases pairs parameters with results (tf.aliasing_output).
	Aliases []int
	// Annotate lowers a function with a mesh with its shardings as
	// mhlo.sharding (lowering.Options.Annotate), for a compile with the
	// compiler's own SPMD partitioner (CompileSpec.SPMD).
	Annotate bool
}

// LowerFunc turns a function into the StableHLO module a PJRT plugin
// compiles: package lowering's Lower with o's fields.
type LowerFunc func(f *ir.Func, o LowerOptions) (*stablehlo.Module, error)

var lowerFunc atomic.Pointer[LowerFunc]

// SetLowering gives the runtime its lowering. The runtime compiles
// StableHLO and may not import package lowering (ARCHITECTURE.md: runtime
// → pjrt, stablehlo), so the frontend, which imports both, injects it:
// frontend/tensor does so from its init, and any program that makes
// tensors has it. The last call wins.
func SetLowering(fn LowerFunc) { lowerFunc.Store(&fn) }

// lower is the injected lowering of f.
func lower(f *ir.Func, o LowerOptions) (*stablehlo.Module, error) {
	fn := lowerFunc.Load()
	if fn == nil || *fn == nil {
		return nil, fmt.Errorf("@%s: the runtime has no lowering to StableHLO: import github.com/stela-ml/stela/frontend/tensor (or call runtime.SetLowering)", f.Name)
	}
	return (*fn)(f, o)
}

// ProgramHash is the stable key of a compiled program: SHA-256 over the
// StableHLO text, the compile options and the plugin's identity (platform
// name, version, path), in hex. The same program gets the same hash in
// every process; `stela hash` prints it. The options cover a compile
// spec's replicas, partitions, device assignment and SPMD; the text its
// aliases.
func ProgramHash(identity string, stablehlo string, options []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "stela-program-v1\x00%s\x00%d\x00", identity, len(options))
	h.Write(options)
	h.Write([]byte(stablehlo))
	return hex.EncodeToString(h.Sum(nil))
}

// HashOf returns the program hash under which the named device's platform
// caches f (ProgramHash of f's StableHLO), without compiling it.
func HashOf(device string, f *ir.Func) (string, error) {
	text, err := StableHLO(f)
	if err != nil {
		return "", err
	}
	return HashOfText(device, text)
}

// HashOfText is HashOf for StableHLO text in the form StableHLO prints.
func HashOfText(device, text string) (string, error) {
	d, err := Lookup(device)
	if err != nil {
		return "", err
	}
	pd, ok := d.(*pjrtDevice)
	if !ok {
		return "", fmt.Errorf("device %s has no program cache", d.Name())
	}
	return pd.p.hash(text), nil
}

// hash is ProgramHash of a program text compiled with the platform's
// single-device compile options.
func (p *platform) hash(text string) string {
	return ProgramHash(p.identity, text, p.compileOptsBytes)
}

// StableHLO lowers f to StableHLO text without locations: the form
// ProgramHash is computed over, which does not depend on where in Go the
// program was written.
func StableHLO(f *ir.Func) (string, error) {
	m, err := lower(f, LowerOptions{})
	if err != nil {
		return "", err
	}
	return string(stablehlo.Format(m, stablehlo.PrintOptions{})), nil
}

// StableHLOLocated lowers f to the StableHLO text a PJRT plugin compiles:
// StableHLO's form with each op's Go location (loc(...)).
func StableHLOLocated(f *ir.Func) (string, error) {
	m, err := lower(f, LowerOptions{})
	if err != nil {
		return "", err
	}
	return string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: true})), nil
}

// compile lowers f for one device (a portable executable, which runs on
// any of the platform's devices) and compiles it, unless a program of the
// same hash is cached.
func (p *platform) compile(f *ir.Func) (*compiled, error) {
	return p.compileAliased(f, nil)
}

// compileAliased is compile with the parameter → result pairs of
// LowerOptions.Aliases.
func (p *platform) compileAliased(f *ir.Func, aliases []int) (*compiled, error) {
	return p.compileProgram(f, LowerOptions{Aliases: aliases}, &p.compileOpts, p.compileOptsBytes)
}

// compileProgram is the driver: it lowers f with lo, hashes the program
// (without locations, so that the same program written on another Go line
// is found) with the serialized options optBytes of opts, and compiles it
// unless a program of that hash is cached. The plugin compiles it with
// locations (loc(...) naming the Go line of each op), so that its errors
// (a compile error of the Stela CPU plugin's worker, XLA's diagnostics)
// name the user's line.
func (p *platform) compileProgram(f *ir.Func, lo LowerOptions, opts *pjrt.CompileOptions, optBytes []byte) (*compiled, error) {
	if err := env.Err(); err != nil {
		return nil, err
	}
	// The IR's text determines its lowering (ir.Parse reads the same
	// function back), and printing it costs a fraction of lowering and
	// formatting the program to hash it: a function compiled before
	// (jit.Compile of the same function again) is found by it.
	var ik string
	if ir.MaxConstant(f) <= irKeyMaxConstant {
		ik = irKey(f, lo, optBytes)
		if c := p.byIR.get(ik); c != nil {
			stats.progHits.Add(1)
			return c, nil
		}
	}
	m, err := lower(f, lo)
	if err != nil {
		return nil, err
	}
	hash := ProgramHash(p.identity, string(stablehlo.Format(m, stablehlo.PrintOptions{})), optBytes)
	if c := p.cache.get(hash); c != nil {
		stats.progHits.Add(1)
		return p.putIR(ik, c), nil
	}
	stats.progMisses.Add(1)
	start := time.Now()
	text := string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: true}))
	le, err := p.client.Compile(text, opts)
	if err != nil {
		return nil, locateCompileError(f, fmt.Errorf("compile @%s on %s: %w", f.Name, p.key, err))
	}
	stats.compiles.Add(1)
	// The runtime never destroys a program (evicted ones are dropped, and
	// freed when unreachable): executions skip the hold against Destroy.
	le.Pin()
	if env.Log().Compile {
		where := p.key
		if r, q := max(opts.NumReplicas, 1), max(opts.NumPartitions, 1); r*q > 1 {
			where = fmt.Sprintf("%s (%d replicas x %d partitions)", p.key, r, q)
		}
		fmt.Fprintf(logOut(), "stela: compiled @%s on %s in %v (program %s)\n", f.Name, where, time.Since(start).Round(time.Microsecond), hash[:16])
	}
	c := &compiled{le: le, hash: hash, name: f.Name, what: "@" + f.Name}
	for _, v := range f.Params {
		c.params = append(c.params, v.Type)
	}
	for _, v := range f.Results {
		c.results = append(c.results, v.Type)
	}
	return p.putIR(ik, p.cache.put(hash, c)), nil
}

// irKeyMaxConstant is the most elements of a constant in a function the
// runtime finds by its IR: printing a large literal would cost more than
// lowering it.
const irKeyMaxConstant = 4096

// putIR caches c by the IR key ik, if there is one, and returns it.
func (p *platform) putIR(ik string, c *compiled) *compiled {
	if ik == "" {
		return c
	}
	return p.byIR.put(ik, c)
}

// irKey is the key of compiling f with lo and the options optBytes on a
// platform: all that the program's hash is computed from, before
// lowering.
func irKey(f *ir.Func, lo LowerOptions, optBytes []byte) string {
	var b strings.Builder
	// About an instruction's line each: growing the builder by doubling
	// copied the text several times.
	b.Grow(len(optBytes) + 64 + 100*len(f.Body))
	// The lowering in use (SetLowering) is part of it.
	fmt.Fprintf(&b, "%p %d %d %v %v %d\n", lowerFunc.Load(), lo.NumReplicas, lo.NumPartitions, lo.Aliases, lo.Annotate, len(optBytes))
	b.Write(optBytes)
	ir.Print(&b, f, ir.PrintOptions{})
	return b.String()
}

// locateCompileError locates a plugin's compile error at the op of f whose
// Go location the message names (the Stela CPU plugin's worker writes
// `at "file.go":42:0`, MLIR diagnostics `file.go:42:0:`, XLA's HLO
// `source_file="file.go" source_line=42`), the earliest one
// named: a Device's errors are located at the op they concern. An error
// that names no op's location is returned as it is.
func locateCompileError(f *ir.Func, err error) error {
	msg := err.Error()
	best, at := (*ir.Instr)(nil), len(msg)
	f.Walk(func(in *ir.Instr) {
		l := in.Loc.Primary()
		if l.File == "" {
			return
		}
		line := max(l.Line, 0)
		// XLA's HLO text carries an op's location as metadata.
		meta := fmt.Sprintf("source_file=%q source_line=%d", l.File, line)
		for _, pos := range []string{fmt.Sprintf("%q:%d:", l.File, line), fmt.Sprintf("%s:%d:", l.File, line), meta + " ", meta + "}"} {
			if i := strings.Index(msg, pos); i >= 0 && i < at {
				best, at = in, i
			}
		}
	})
	if best == nil {
		return err
	}
	return ir.Errorf(best.Loc, best.Op.String(), "%w", err)
}
