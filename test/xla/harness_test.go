package xla

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/stela-ml/stela/internal/pyenv"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/ir/npy"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/stablehlo"
)

// errNoJaxlib says that Python cannot import jaxlib: the test skips.
var errNoJaxlib = errors.New("no python3 with jaxlib")

// oracle runs batches of StableHLO programs through a Python script:
// run_xla.py, which runs them on XLA's CPU compiler, or grad_xla.py, which
// interprets them with jax.lax and differentiates them (grad_oracle_test.go).
type oracle struct {
	python string
	env    []string
	script string
}

// fastXLAFlags make XLA compile three to eight times faster, which the CI
// budget needs (over a thousand distinct kernels at 50-150 ms each
// otherwise): LLVM at -O0, and XLA's elemental IR emitters (the ones its
// HloEvaluator-era backends share) instead of the newer MLIR fusion
// emitters. -O0 changes nothing that is computed; the emitters differ in a
// few places, which known_test.go lists per mode. STELA_XLA_FLAGS=default
// runs XLA as jax.jit does (about a minute on two cores), against the
// tables' "default" entries.
const fastXLAFlags = "--xla_backend_optimization_level=0 --xla_cpu_use_fusion_emitters=false"

// xlaMode is "fast" (fastXLAFlags) or "default" (XLA's own flags): the
// tables of known_test.go hold entries for one mode or for both ("").
var xlaMode = "fast"

func init() {
	if os.Getenv("STELA_XLA_FLAGS") == "default" {
		xlaMode = "default"
	}
}

// inMode reports whether a table entry for mode applies to this run.
func inMode(mode string) bool { return mode == "" || mode == xlaMode }

// findOracle returns the oracle, or an error wrapping errNoJaxlib when
// python3 cannot find jax, jaxlib, numpy and ml_dtypes. It looks them up
// without importing them (importing jax takes seconds, which the batch pays
// once); a broken install shows when the batch fails to import them, and
// run_xla.py then exits with status 3, which skips the test too.
func findOracle() (*oracle, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("%w: python3 not found", errNoJaxlib)
	}
	script, err := filepath.Abs("run_xla.py")
	if err != nil {
		return nil, err
	}
	env := pyenv.Environ()
	if xlaMode == "fast" {
		env = append(env, "XLA_FLAGS="+strings.TrimSpace(fastXLAFlags+" "+os.Getenv("XLA_FLAGS")))
	}
	probe := exec.Command(py, "-c", `import importlib.util as u, sys
missing = [m for m in ("jax", "jaxlib", "numpy", "ml_dtypes") if u.find_spec(m) is None]
print(" ".join(missing)); sys.exit(3 if missing else 0)`)
	probe.Env = env
	if out, err := probe.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w: python3 lacks %s (set STELA_JAXLIB_PYTHONPATH to a directory with jax and jaxlib from pip)",
			errNoJaxlib, strings.TrimSpace(string(out)))
	}
	return &oracle{python: py, env: env, script: script}, nil
}

// scriptName is the oracle's script, for messages.
func (o *oracle) scriptName() string { return filepath.Base(o.script) }

// job is one program for XLA: MLIR text and its arguments.
type job struct {
	name  string
	mlir  string
	args  []*ir.Literal
	nOuts int
	// aliases are (argument, result) pairs of the program's
	// tf.aliasing_output: XLA reports whether each result came back in
	// its (donated) argument's memory.
	aliases [][2]int
	// For grad_xla.py: kind is "eval", "vjp" or "jvp" (empty for
	// run_xla.py); seeds are the vjp's result cotangents or the jvp's
	// argument tangents (nil for a value whose type is not inexact), and
	// nDerivs the number of derivatives it gives back (one per argument
	// for vjp, per result for jvp).
	kind    string
	seeds   []*ir.Literal
	nDerivs int
	// numPartitions > 0 makes a sharded job for run_xla.py: XLA's SPMD
	// partitioner compiles the program for that many devices, args are
	// the global arrays and the results come back global
	// (shard_oracle_test.go). nOuts < 0 (run_xla.py only) takes as many
	// results as the program returns.
	numPartitions int
	// useShardy sets the build option use_shardy_partitioner for a
	// sharded job (XLA falls back to GSPMD for mhlo.sharding).
	useShardy bool
	// lenient lets a sharded job's module hold mhlo.sharding strings XLA
	// cannot parse (which XLA drops) instead of failing the job.
	lenient bool
	result  jobResult
}

// jobResult is what XLA did with a job.
type jobResult struct {
	ok       bool
	err      string // compile or run error, when !ok
	outs     []*ir.Literal
	derivs   []*ir.Literal // grad_xla.py's derivatives; nil where JAX has none
	compileS float64
	runS     float64
	aliased  []bool // per job.aliases: the result is the argument's memory
	hloAlias string // the compiled module's input_output_alias={...}
	// Of a sharded job: the shardings XLA compiled for each parameter and
	// result (HLO sharding text), the collectives of its partitioned
	// module, and that module's text.
	paramShardings []string
	outShardings   []string
	collectives    []collective
	hlo            string
	// canonical maps each mhlo.sharding string of a sharded job's module
	// to XLA's canonical text of it (what paramShardings and
	// outShardings are written in).
	canonical map[string]string
}

// run runs the jobs on XLA and stores each one's result in it. A crash of
// the Python process (XLA aborts on some programs it should reject) marks
// the job it was in as failed, and the jobs after it run in a new process.
func (o *oracle) run(dir string, jobs []*job) error {
	for part := 0; len(jobs) > 0; part++ {
		crashed, err := o.runOnce(filepath.Join(dir, fmt.Sprintf("p%d", part)), jobs)
		if err != nil {
			return err
		}
		if crashed < 0 {
			return nil
		}
		jobs = jobs[crashed+1:]
	}
	return nil
}

// runOnce writes the jobs' programs and arguments under dir, runs them in
// one Python process and reads back their results into the jobs. It returns
// the index of the job the process crashed in, or -1.
func (o *oracle) runOnce(dir string, jobs []*job) (int, error) {
	type mjob struct {
		Name    string   `json:"name"`
		Kind    string   `json:"kind,omitempty"`
		MLIR    string   `json:"mlir"`
		Inputs  []string `json:"inputs"`
		Seeds   []string `json:"seeds,omitempty"`
		Outputs []string `json:"outputs"`
		Aliases [][2]int `json:"aliases,omitempty"`
		Derivs  []string `json:"derivs,omitempty"`
		// Sharded jobs.
		NumPartitions int    `json:"num_partitions,omitempty"`
		OutputPrefix  string `json:"output_prefix,omitempty"`
		HLO           string `json:"hlo,omitempty"`
		UseShardy     bool   `json:"use_shardy_partitioner,omitempty"`
		Lenient       bool   `json:"lenient_shardings,omitempty"`
	}
	var m struct {
		Jobs []mjob `json:"jobs"`
	}
	for i, j := range jobs {
		jd := fmt.Sprintf("j%04d", i)
		if err := os.MkdirAll(filepath.Join(dir, jd), 0o755); err != nil {
			return -1, err
		}
		mj := mjob{Name: fmt.Sprintf("%d %s", i, j.name), Kind: j.kind, MLIR: filepath.Join(jd, "prog.mlir"), Inputs: []string{}, Outputs: []string{}, Aliases: j.aliases}
		if err := os.WriteFile(filepath.Join(dir, mj.MLIR), []byte(j.mlir), 0o644); err != nil {
			return -1, err
		}
		for k, a := range j.args {
			p := filepath.Join(jd, fmt.Sprintf("in%d.npy", k))
			if err := npy.WriteFile(filepath.Join(dir, p), a); err != nil {
				return -1, fmt.Errorf("job %s: argument #%d: %w", j.name, k, err)
			}
			mj.Inputs = append(mj.Inputs, p)
		}
		for k, a := range j.seeds {
			p := ""
			if a != nil {
				p = filepath.Join(jd, fmt.Sprintf("seed%d.npy", k))
				if err := npy.WriteFile(filepath.Join(dir, p), a); err != nil {
					return -1, fmt.Errorf("job %s: seed #%d: %w", j.name, k, err)
				}
			}
			mj.Seeds = append(mj.Seeds, p)
		}
		for k := range j.nOuts {
			mj.Outputs = append(mj.Outputs, filepath.Join(jd, fmt.Sprintf("out%d.npy", k)))
		}
		if j.nOuts < 0 {
			mj.OutputPrefix = filepath.Join(jd, "out")
		}
		if j.numPartitions > 0 {
			mj.NumPartitions = j.numPartitions
			mj.HLO = filepath.Join(jd, "partitioned.hlo")
			mj.UseShardy = j.useShardy
			mj.Lenient = j.lenient
		}
		for k := range j.nDerivs {
			mj.Derivs = append(mj.Derivs, filepath.Join(jd, fmt.Sprintf("deriv%d.npy", k)))
		}
		m.Jobs = append(m.Jobs, mj)
	}
	mb, err := json.Marshal(m)
	if err != nil {
		return -1, err
	}
	manifest := filepath.Join(dir, "manifest.json")
	results := filepath.Join(dir, "results.json")
	if err := os.WriteFile(manifest, mb, 0o644); err != nil {
		return -1, err
	}
	cmd := exec.Command(o.python, o.script, manifest, results)
	cmd.Env = o.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	runErr := cmd.Run()
	if ee, ok := runErr.(*exec.ExitError); ok && ee.ExitCode() == 3 {
		return -1, fmt.Errorf("%w: %s", errNoJaxlib, strings.TrimSpace(stderr.String()))
	}
	type result struct {
		Name     string  `json:"name"`
		OK       bool    `json:"ok"`
		Error    string  `json:"error"`
		CompileS float64 `json:"compile_s"`
		RunS     float64 `json:"run_s"`
		Aliased  []bool  `json:"aliased"`
		HLOAlias string  `json:"hlo_alias"`
		NoDeriv  []int   `json:"no_deriv"`
		// Sharded jobs.
		ParamShardings []string          `json:"param_shardings"`
		OutShardings   []string          `json:"out_shardings"`
		Canonical      map[string]string `json:"canonical_shardings"`
		Collectives    []collective      `json:"collectives"`
		NOuts          int               `json:"n_outs"`
	}
	var rs []result
	if rb, err := os.ReadFile(results); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(rb)), "\n") {
			if line == "" {
				continue
			}
			var r result
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				return -1, fmt.Errorf("results.json: %w", err)
			}
			rs = append(rs, r)
		}
	}
	crashed := -1
	if runErr != nil {
		if len(rs) >= len(jobs) || !strings.Contains(stderr.String(), "job ") {
			return -1, fmt.Errorf("%s: %v\n%s", o.scriptName(), runErr, tail(stderr.String(), 4000))
		}
		crashed = len(rs)
		msg := stderr.String()
		if i := strings.LastIndex(msg, "job "); i >= 0 {
			msg = msg[i:]
		}
		jobs[crashed].result = jobResult{err: fmt.Sprintf("XLA crashed the process (%v):\n%s", runErr, tail(msg, 3000))}
	} else if len(rs) != len(jobs) {
		return -1, fmt.Errorf("results.json has %d results for %d jobs", len(rs), len(jobs))
	}
	for i, res := range rs {
		j := jobs[i]
		j.result = jobResult{ok: res.OK, err: res.Error, compileS: res.CompileS, runS: res.RunS, aliased: res.Aliased, hloAlias: res.HLOAlias,
			paramShardings: res.ParamShardings, outShardings: res.OutShardings, canonical: res.Canonical, collectives: res.Collectives}
		if p := m.Jobs[i].HLO; p != "" {
			if b, err := os.ReadFile(filepath.Join(dir, p)); err == nil {
				j.result.hlo = string(b)
			}
		}
		if !res.OK {
			continue
		}
		outputs := m.Jobs[i].Outputs
		if p := m.Jobs[i].OutputPrefix; p != "" && len(outputs) == 0 {
			for k := range res.NOuts {
				outputs = append(outputs, fmt.Sprintf("%s%d.npy", p, k))
			}
		}
		for _, p := range outputs {
			l, err := npy.ReadFile(filepath.Join(dir, p))
			if err != nil {
				j.result.ok = false
				j.result.err = err.Error()
				break
			}
			j.result.outs = append(j.result.outs, l)
		}
		if !j.result.ok || j.nDerivs == 0 {
			continue
		}
		none := map[int]bool{}
		for _, k := range res.NoDeriv {
			none[k] = true
		}
		j.result.derivs = make([]*ir.Literal, j.nDerivs)
		for k, p := range m.Jobs[i].Derivs {
			if none[k] {
				continue
			}
			l, err := npy.ReadFile(filepath.Join(dir, p))
			if err != nil {
				j.result.ok = false
				j.result.err = err.Error()
				break
			}
			j.result.derivs[k] = l
		}
	}
	return crashed, nil
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// lowerText lowers f and prints it as MLIR text; a function with a mesh
// in annotate mode (its shardings as mhlo.sharding attributes).
func lowerText(f *ir.Func) (string, error) {
	m, err := lowering.Lower(f, lowering.Options{Verify: true, Annotate: f.Mesh != nil})
	if err != nil {
		return "", err
	}
	return string(stablehlo.Format(m, stablehlo.PrintOptions{})), nil
}

// buildErr is the panic value fb uses to abandon a case whose program does
// not build (the op's type rule rejects it): the case is then not run.
type buildErr struct{ err error }

// fb builds programs. emit panics with buildErr on a rejected instruction,
// and build recovers it.
type fb struct {
	f *ir.Func
}

func (b *fb) emit(op ir.Op, attr any, args []*ir.Value, regions ...*ir.Func) []*ir.Value {
	rs, err := b.f.Emit(ir.UnknownLoc, op, args, attr, regions...)
	if err != nil {
		panic(buildErr{err})
	}
	return rs
}

func (b *fb) e1(op ir.Op, attr any, args ...*ir.Value) *ir.Value {
	return b.emit(op, attr, args)[0]
}

// region builds an isolated region with scalar or tensor parameters.
func region(params []ir.Type, body func(r *fb, ps []*ir.Value) []*ir.Value) *ir.Func {
	r := &fb{f: ir.NewFunc("region", params...)}
	r.f.Return(body(r, r.f.Params)...)
	return r.f
}

// binRegion is the region (a, b) → op(a, b) over scalars of d.
func binRegion(op ir.Op, d ir.DType) *ir.Func {
	s := ir.Scalar(d)
	return region([]ir.Type{s, s}, func(r *fb, p []*ir.Value) []*ir.Value {
		return []*ir.Value{r.e1(op, nil, p[0], p[1])}
	})
}

// tcase is one differential test: a program over inputs, built into a
// function of its own (for ir.Eval) and into a job shared with other cases
// (for XLA).
type tcase struct {
	name  string // "add/f32": op, then what varies
	op    ir.Op  // the op under test, for coverage and the tables
	dtype ir.DType
	in    []*ir.Literal
	build func(b *fb, ps []*ir.Value) []*ir.Value
	// elementwise: result element i depends on input elements i only,
	// so that a mismatch can be reported (and matched in known.go)
	// with its inputs.
	elementwise bool
	// sumTerms > 0 marks a sum of that many products or terms per result
	// element (dot_general, convolution, reduce with add): floats then
	// compare within sumTerms·u·Σ|terms| + 1 ulp, where u is the unit
	// roundoff and Σ|terms| comes from evaluating the program on |inputs|.
	sumTerms int
	// sumScale > 0 replaces every element's Σ|terms| with this bound
	// (fft, whose terms are not the program on |inputs|).
	sumScale float64
	// bits asks for bit-identical results, NaN payloads included (data
	// movement); otherwise NaN equals NaN and floats compare by ULPs.
	bits bool
	// ulp overrides the bound of tolerances.go (-1: use the table).
	ulp int
	// sweep marks a case of a sweep over element types: when the op's
	// type rule rejects the type, the case is dropped, not failed.
	sweep bool
	// fixed, when set, is the whole program (the examples): build is
	// not used and the case gets a job of its own.
	fixed *ir.Func
	// allClose, when set, compares floats with LiteralsAllClose's atol
	// and rtol instead of ULPs (the examples: whole networks).
	allClose *[2]float64

	fn       *ir.Func      // the case's own function
	want     []*ir.Literal // ir.Eval's results
	got      []*ir.Literal // XLA's results
	rejected bool          // the type rule rejected the program
}

// instantiate builds c's program into f with ps as its parameters, and
// returns its results; a rejected instruction comes back as an error.
func (c *tcase) instantiate(f *ir.Func, ps []*ir.Value) (res []*ir.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			be, ok := r.(buildErr)
			if !ok {
				panic(r)
			}
			err = be.err
		}
	}()
	return c.build(&fb{f: f}, ps), nil
}

func (c *tcase) paramTypes() []ir.Type {
	ts := make([]ir.Type, len(c.in))
	for i, l := range c.in {
		ts[i] = l.Type
	}
	return ts
}

// prepare builds the case's own function and evaluates it.
func (c *tcase) prepare() error {
	f := c.fixed
	if f == nil {
		f = ir.NewFunc(funcName(c.name), c.paramTypes()...)
		res, err := c.instantiate(f, f.Params)
		if err != nil {
			c.rejected = true
			return err
		}
		f.Return(res...)
	}
	if err := ir.Verify(f); err != nil {
		return err
	}
	c.fn = f
	want, err := ir.Eval(f, c.in...)
	if err != nil {
		return fmt.Errorf("ir.Eval: %w", err)
	}
	c.want = want
	return nil
}

// funcName makes an identifier of a case name.
func funcName(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// makeJob puts cases into one program: each case's parameters and results
// after the previous case's.
func makeJob(name string, cs []*tcase) (*job, error) {
	if len(cs) == 1 && cs[0].fixed != nil {
		text, err := lowerText(cs[0].fixed)
		if err != nil {
			return nil, err
		}
		return &job{name: name, mlir: text, args: cs[0].in, nOuts: len(cs[0].fixed.Results)}, nil
	}
	f := ir.NewFunc(funcName(name))
	var args []*ir.Literal
	var results []*ir.Value
	for _, c := range cs {
		ps := make([]*ir.Value, len(c.in))
		for i, l := range c.in {
			ps[i] = f.AddParam(l.Type, ir.UnknownLoc)
		}
		res, err := c.instantiate(f, ps)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		results = append(results, res...)
		args = append(args, c.in...)
	}
	f.Return(results...)
	text, err := lowerText(f)
	if err != nil {
		return nil, err
	}
	return &job{name: name, mlir: text, args: args, nOuts: len(results)}, nil
}
