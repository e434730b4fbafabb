package runtime

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/stablehlo"
)

// Ahead-of-time compilation for hardware this machine does not have:
// libtpu compiles for a named TPU slice ("v5e:2x2") through
// PJRT_TopologyDescription_Create and PJRT_Compile, on any Linux machine,
// and the executable's cost and memory analyses say what the program
// would cost on that slice (docs/tpu.md).

// EnvLibTPU names libtpu.so for CompileFor (libtpu's own variable, which
// JAX reads too).
const EnvLibTPU = "TPU_LIBRARY_PATH"

// LibTPUPath finds libtpu.so: $TPU_LIBRARY_PATH, then pjrt.FindPlugin("tpu")
// (the plugin search path), then the libtpu wheel in Python's
// site-packages (pip install libtpu), then the copy .ci/run installs in
// ~/.cache/stela-ci/plugins.
func LibTPUPath() (string, error) {
	if p := os.Getenv(EnvLibTPU); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s=%s: %w", EnvLibTPU, p, err)
		}
		return p, nil
	}
	if p, err := pjrt.FindPlugin("tpu"); err == nil {
		return p, nil
	}
	var looked []string
	if py, err := exec.LookPath("python3"); err == nil {
		out, err := exec.Command(py, "-c", "import site; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))").Output()
		if err == nil {
			for _, d := range strings.Fields(string(out)) {
				p := filepath.Join(d, "libtpu", "libtpu.so")
				looked = append(looked, p)
				if regular(p) {
					return p, nil
				}
			}
		}
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".cache")
		}
	}
	if cache != "" {
		p := filepath.Join(cache, "stela-ci", "plugins", "libtpu", "libtpu.so")
		looked = append(looked, p)
		if regular(p) {
			return p, nil
		}
	}
	return "", fmt.Errorf("libtpu not found (set %s, or `pip install libtpu`; looked in the plugin search path and %s)", EnvLibTPU, strings.Join(looked, ", "))
}

func regular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// Target is a compile-only target: a plugin and one of its topologies,
// written "tpu:v5e:2x2" (the family, then the plugin's topology name).
type Target struct {
	Name     string // "tpu:v5e:2x2"
	Family   string // "tpu"
	Topology *pjrt.Topology
}

// Chip is the generation of the target's chips, the topology name's
// first part ("v5e").
func (t *Target) Chip() string {
	chip, _, _ := strings.Cut(t.Topology.Name(), ":")
	return chip
}

// DeviceMemory is the memory of one device in bytes, as the topology
// reports it (0 if it does not).
func (t *Target) DeviceMemory() int64 {
	for _, d := range t.Topology.Devices() {
		for _, a := range d.Attributes {
			if v, ok := a.Value.(int64); ok && a.Name == "device_memory_bytes_limit" {
				return v
			}
		}
	}
	return 0
}

var targets = struct {
	sync.Mutex
	m map[string]*Target
}{m: map[string]*Target{}}

// OpenTarget loads the plugin of a target and creates its topology, once
// per process. Only "tpu:TOPOLOGY" is known: libtpu, found by LibTPUPath,
// with TPU_WORKER_HOSTNAMES=localhost, TPU_SKIP_MDS_QUERY=1,
// TPU_WORKER_ID=0 and ALLOW_MULTIPLE_LIBTPU_LOAD=1 set where unset, so that
// libtpu does not look for the rest of a slice or for Google Cloud's
// metadata server, and several processes can compile at once.
func OpenTarget(name string) (*Target, error) {
	family, topo, ok := strings.Cut(name, ":")
	if !ok || topo == "" {
		return nil, fmt.Errorf("target %q: want FAMILY:TOPOLOGY, e.g. tpu:v5e:2x2", name)
	}
	if family != "tpu" {
		return nil, fmt.Errorf("target %q: compile-only targets are TPU topologies (tpu:v5e:2x2); %s compiles with a client of its devices", name, family)
	}
	targets.Lock()
	defer targets.Unlock()
	if t := targets.m[name]; t != nil {
		return t, nil
	}
	path, err := LibTPUPath()
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", name, err)
	}
	for k, v := range libtpuEnv {
		if _, ok := os.LookupEnv(k); !ok {
			os.Setenv(k, v)
		}
	}
	p, err := pjrt.LoadPlugin(path)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", name, err)
	}
	tp, err := p.NewTopology(topo)
	if err != nil {
		return nil, fmt.Errorf("target %s: %w", name, err)
	}
	t := &Target{Name: name, Family: family, Topology: tp}
	targets.m[name] = t
	return t, nil
}

// libtpuEnv is what OpenTarget sets where unset: no host discovery, no
// metadata server, and no lock on libtpu (/tmp/libtpu_lockfile), which
// otherwise lets only one process at a time load it, compile-only or not.
var libtpuEnv = map[string]string{"TPU_SKIP_MDS_QUERY": "1", "TPU_WORKER_ID": "0", "TPU_WORKER_HOSTNAMES": "localhost", "ALLOW_MULTIPLE_LIBTPU_LOAD": "1"}

// AOTResult is a program compiled for a target, with what the compiler
// says of it.
type AOTResult struct {
	Target     *Target
	Executable *pjrt.Executable
	// StableHLO is the text compiled (with locations).
	StableHLO   string
	CompileTime time.Duration
	// NumReplicas and NumPartitions are the executable's.
	NumReplicas, NumPartitions int
	// Cost is the compiler's cost analysis, per device.
	Cost pjrt.CostAnalysis
	// Memory is the compiler's memory plan, per device.
	Memory pjrt.MemoryStats
	// Opcodes counts the optimized HLO's instructions by opcode, fusions'
	// bodies included; Collectives is the part of it that moves data
	// between devices (all-reduce, all-gather, ...). Nil when the plugin
	// gives no optimized program.
	Opcodes, Collectives map[string]int
}

// CompileFor lowers f and compiles it for the target (OpenTarget). A
// function with a mesh is lowered with its shardings as annotations
// (LowerOptions.Annotate) and compiled for as many partitions as the mesh
// has devices, partitioned by the plugin's SPMD partitioner; any other
// compiles for one device. A compile error that names a Go line is
// located at that op.
func CompileFor(target string, f *ir.Func) (*AOTResult, error) {
	lo := LowerOptions{}
	parts := 1
	if f.Mesh != nil {
		parts = f.Mesh.NumDevices()
		lo = LowerOptions{NumReplicas: 1, NumPartitions: parts, Annotate: true}
	}
	m, err := lower(f, lo)
	if err != nil {
		return nil, err
	}
	text := string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: true}))
	res, err := CompileTextFor(target, text, parts)
	if err != nil {
		return nil, locateCompileError(f, fmt.Errorf("compile @%s for %s: %w", f.Name, target, err))
	}
	return res, nil
}

// CompileTextFor compiles StableHLO text for the target: for one device,
// or SPMD-partitioned over partitions devices (the text carries its
// shardings).
func CompileTextFor(target, text string, partitions int) (*AOTResult, error) {
	t, err := OpenTarget(target)
	if err != nil {
		return nil, err
	}
	if t.Family == "tpu" {
		if err := tpuAbortGuard(text); err != nil {
			return nil, err
		}
	}
	opts := &pjrt.CompileOptions{}
	if partitions > 1 {
		opts = &pjrt.CompileOptions{NumPartitions: partitions, UseSPMDPartitioning: true}
	}
	start := time.Now()
	exe, err := t.Topology.Compile([]byte(text), pjrt.FormatMLIR, opts)
	if err != nil {
		return nil, err
	}
	r := &AOTResult{Target: t, Executable: exe, StableHLO: text, CompileTime: time.Since(start),
		NumReplicas: exe.NumReplicas(), NumPartitions: exe.NumPartitions()}
	if r.Cost, err = exe.CostAnalysis(); err != nil {
		return nil, fmt.Errorf("cost analysis: %w", err)
	}
	if r.Memory, err = exe.MemoryStats(); err != nil {
		return nil, fmt.Errorf("memory stats: %w", err)
	}
	if code, format, err := exe.OptimizedProgram(); err == nil {
		if r.Opcodes, err = HLOOpcodes(code, format); err != nil {
			return nil, fmt.Errorf("optimized program: %w", err)
		}
		r.Collectives = map[string]int{}
		for op, n := range r.Opcodes {
			if collectiveOpcodes[strings.TrimSuffix(strings.TrimSuffix(op, "-start"), "-done")] && !strings.HasSuffix(op, "-done") {
				r.Collectives[strings.TrimSuffix(op, "-start")] += n
			}
		}
	}
	return r, nil
}

// collectiveOpcodes are the HLO opcodes that move data between devices
// (an asynchronous one is counted once, by its -start).
var collectiveOpcodes = map[string]bool{
	"all-reduce": true, "all-gather": true, "reduce-scatter": true, "all-to-all": true,
	"collective-permute": true, "collective-broadcast": true, "ragged-all-to-all": true,
}

// CollectiveList is the collectives as "all-reduce×2, all-gather×1",
// sorted, or "none".
func (r *AOTResult) CollectiveList() string {
	if len(r.Collectives) == 0 {
		return "none"
	}
	var names []string
	for n := range r.Collectives {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, fmt.Sprintf("%s×%d", n, r.Collectives[n]))
	}
	return strings.Join(parts, ", ")
}

// Field numbers of the HLO protos HLOOpcodes reads.
const (
	fieldWithConfigModule      = 1 // HloModuleProtoWithConfig.hlo_module
	fieldModuleComputations    = 3 // HloModuleProto.computations
	fieldComputationInstrs     = 2 // HloComputationProto.instructions
	fieldInstructionOpcode     = 2 // HloInstructionProto.opcode
	formatHLO, formatHLOConfig = "hlo", "hlo_with_config"
)

// HLOOpcodes counts the instructions of a serialized HloModuleProto
// (format "hlo") or HloModuleProtoWithConfig ("hlo_with_config") by
// opcode, over all its computations.
func HLOOpcodes(code []byte, format string) (map[string]int, error) {
	switch format {
	case formatHLOConfig:
		mod, err := protoField(code, fieldWithConfigModule)
		if err != nil {
			return nil, err
		}
		if mod == nil {
			return nil, fmt.Errorf("hlo_with_config without an hlo_module")
		}
		code = mod
	case formatHLO:
	default:
		return nil, fmt.Errorf("program format %q is not HLO", format)
	}
	counts := map[string]int{}
	err := eachBytesField(code, fieldModuleComputations, func(comp []byte) error {
		return eachBytesField(comp, fieldComputationInstrs, func(instr []byte) error {
			op, err := protoField(instr, fieldInstructionOpcode)
			if err != nil {
				return err
			}
			counts[string(op)]++
			return nil
		})
	})
	return counts, err
}

// protoField is the last occurrence of a length-delimited field (nil if
// absent).
func protoField(b []byte, num protowire.Number) (out []byte, err error) {
	err = eachBytesField(b, num, func(v []byte) error { out = v; return nil })
	return
}

// eachBytesField calls fn with every length-delimited field num of b.
func eachBytesField(b []byte, num protowire.Number, fn func([]byte) error) error {
	for len(b) > 0 {
		n, typ, tl := protowire.ConsumeTag(b)
		if tl < 0 {
			return fmt.Errorf("malformed protobuf: %v", protowire.ParseError(tl))
		}
		b = b[tl:]
		vl := protowire.ConsumeFieldValue(n, typ, b)
		if vl < 0 {
			return fmt.Errorf("malformed protobuf: %v", protowire.ParseError(vl))
		}
		if n == num && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b)
			if err := fn(v); err != nil {
				return err
			}
		}
		b = b[vl:]
	}
	return nil
}

// Chip is a TPU generation's published per-chip peaks, the figures
// AOTResult.Estimate divides by (docs/tpu.md gives the sources).
type Chip struct {
	Name string
	// PeakFlops is the dense bf16 matrix peak in FLOP/s.
	PeakFlops float64
	// HBMBytesPerSecond is the HBM bandwidth; HBMBytes the capacity.
	HBMBytesPerSecond float64
	HBMBytes          int64
	Source            string
}

// Chips are the TPU generations whose peaks Stela knows, by the name
// topologies use (from Google Cloud's TPU system architecture pages).
var Chips = map[string]Chip{
	"v4":  {"TPU v4", 275e12, 1228e9, 32 << 30, "https://cloud.google.com/tpu/docs/v4"},
	"v5e": {"TPU v5e", 197e12, 819e9, 16 << 30, "https://cloud.google.com/tpu/docs/v5e"},
	"v5p": {"TPU v5p", 459e12, 2765e9, 95 << 30, "https://cloud.google.com/tpu/docs/v5p"},
	"v6e": {"TPU v6e (Trillium)", 918e12, 1640e9, 32 << 30, "https://cloud.google.com/tpu/docs/v6e"},
}

// Estimate is a roofline estimate of one step of the program on one of
// the target's chips.
type Estimate struct {
	Chip Chip
	// StepTime is max(flops / peak flops, bytes accessed / HBM
	// bandwidth): the time if the chip ran at its published peak, a lower
	// bound that ignores collectives, latency and overheads.
	StepTime time.Duration
	// MFU is the model flops utilization that step time implies: the
	// program's flops per second over the peak (1 when compute-bound;
	// less when memory-bound).
	MFU float64
	// ComputeBound says which term of the roofline won.
	ComputeBound bool
	// CompilerTime is the compiler's own estimate ("optimal_seconds"),
	// 0 when it gives none.
	CompilerTime time.Duration
}

// Estimate returns the roofline estimate on the target's chip; ok is
// false for a chip not in Chips.
func (r *AOTResult) Estimate() (e Estimate, ok bool) {
	if r.Target == nil {
		return e, false
	}
	chip, ok := Chips[r.Target.Chip()]
	if !ok {
		return e, false
	}
	e.Chip = chip
	flops, bytes := r.Cost.Flops(), r.Cost.BytesAccessed()
	tc, tm := flops/chip.PeakFlops, bytes/chip.HBMBytesPerSecond
	t := max(tc, tm)
	e.ComputeBound = tc >= tm
	e.StepTime = time.Duration(t * 1e9)
	if t > 0 {
		e.MFU = flops / t / chip.PeakFlops
	}
	if s, ok := r.Cost.Get("optimal_seconds"); ok && s > 0 {
		e.CompilerTime = time.Duration(s * 1e9)
	}
	return e, true
}

// tpuAbortGuard refuses what libtpu (0.0.52) does not refuse but aborts
// the whole process on, a CHECK failure no caller could recover from:
//   - a dot_general, dot or convolution of a real and a complex operand
//     ("Check failed: ElementIsComplex(complex_shape)" in its complex
//     rewriter). StableHLO allows the mix; converting the real operand to
//     complex first gives the same product and compiles;
//   - any value of the f6 types (f6E2M3FN, f6E3M2FN): libtpu dies with an
//     illegal instruction while translating them (XLA's CPU compiler in
//     jaxlib 0.10.2 does the same), so no f6 program reaches it.
func tpuAbortGuard(text string) error {
	m, err := stablehlo.Parse([]byte(text))
	if err != nil {
		return nil // libtpu's parser reports it
	}
	var bad, f6 *stablehlo.Op
	var f6Type string
	isF6 := func(v *stablehlo.Value) bool {
		tt, ok := v.Type.(stablehlo.TensorType)
		if !ok {
			return false
		}
		if e := fmt.Sprint(tt.Elem); strings.HasPrefix(e, "f6E") {
			f6Type = e
			return true
		}
		return false
	}
	var walk func(r *stablehlo.Region)
	walk = func(r *stablehlo.Region) {
		for _, b := range r.Blocks {
			for _, op := range b.Ops {
				if f6 == nil && (slices.ContainsFunc(op.Operands, isF6) || slices.ContainsFunc(op.Results, isF6)) {
					f6 = op
				}
				switch op.Name {
				case "stablehlo.dot_general", "stablehlo.dot", "stablehlo.convolution":
					if len(op.Operands) >= 2 && bad == nil {
						a, aok := op.Operands[0].Type.(stablehlo.TensorType)
						c, cok := op.Operands[1].Type.(stablehlo.TensorType)
						if aok && cok && a.Elem.IsComplex() != c.Elem.IsComplex() {
							bad = op
						}
					}
				}
				for _, sub := range op.Regions {
					walk(sub)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		if f.Body != nil {
			walk(f.Body)
		}
	}
	if f6 != nil {
		where := ""
		if f6.Loc != nil {
			where = " at " + f6.Loc.String()
		}
		return fmt.Errorf("%s%s: element type %s is refused for TPU: libtpu aborts the process on f6 types instead of refusing them", f6.Name, where, f6Type)
	}
	if bad == nil {
		return nil
	}
	a := bad.Operands[0].Type.(stablehlo.TensorType)
	c := bad.Operands[1].Type.(stablehlo.TensorType)
	where := ""
	if bad.Loc != nil {
		where = " at " + bad.Loc.String()
	}
	return fmt.Errorf("%s%s: a product of %s and %s operands is refused for TPU: libtpu aborts the process on a real×complex product instead of refusing it; convert the real operand to complex first",
		bad.Name, where, a.Elem, c.Elem)
}
