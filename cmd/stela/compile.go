package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/runtime"
)

// compileReport is `stela compile --json`'s object: exactly these fields
// (docs/tpu.md).
type compileReport struct {
	Target          string           `json:"target"`
	CompileMS       float64          `json:"compile_ms"`
	NumPartitions   int              `json:"num_partitions"`
	Flops           float64          `json:"flops"`
	BytesAccessed   float64          `json:"bytes_accessed"`
	Memory          map[string]int64 `json:"memory"`
	EstimatedStepMS float64          `json:"estimated_step_ms"`
	OK              bool             `json:"ok"`
}

// runCompile compiles a program for a target without running it: a TPU
// topology through libtpu (no TPU needed), or a plugin with devices here,
// and prints what the compiler says it costs.
func runCompile(argv []string, stdout, stderr io.Writer) error {
	fs := newFlags("compile")
	target := fs.String("target", "tpu:v5e:2x2", "compile for `TARGET`: tpu:TOPOLOGY (tpu:v5e:2x2, tpu:v6e:2x2, tpu:v5p:2x2x1; libtpu, no TPU needed), or a plugin with devices here (cpu, cuda, a path)")
	example := fs.String("example", "", "compile the built-in example `NAME` instead of a file: "+strings.Join(examples.Names(), ", "))
	shardCase := fs.String("sharding-case", "", "compile the sharding case `NAME` (stela demo sharding) over all the target topology's devices, in annotate mode")
	pipeline := fs.String("pipeline", "", "run this `PIPELINE` on Stela IR before lowering (e.g. default)")
	out := fs.String("out", "", "write the serialized executable to `FILE` (load it with PJRT_Executable_DeserializeAndLoad on the target)")
	asJSON := fs.Bool("json", false, "print one JSON object: target, compile_ms, num_partitions, flops, bytes_accessed, memory, estimated_step_ms, ok")
	pos, err := parseArgs(fs, argv)
	if err != nil {
		return err
	}
	var (
		f    *ir.Func
		text string
		name string
	)
	given := len(pos)
	if *example != "" {
		given++
	}
	if *shardCase != "" {
		given++
	}
	switch {
	case given > 1:
		return usagef("give one of --example, --sharding-case and a file")
	case *shardCase != "":
		if f, err = traceShardingCase(*target, *shardCase); err != nil {
			return err
		}
		name = *shardCase
	case *example != "":
		tr, err := examples.TraceNamed(*example)
		if err != nil {
			return err
		}
		f, name = tr.Func, *example
	case len(pos) == 1:
		name = pos[0]
		src, err := readInput(name)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".sir") {
			m, err := ir.Parse(string(src))
			if err != nil {
				return fmt.Errorf("%s:%w", name, err)
			}
			if len(m.Funcs) == 0 {
				return fmt.Errorf("%s: no function", name)
			}
			f = m.Funcs[0]
		} else {
			text = string(src)
		}
	default:
		return usagef("give --example NAME or one FILE.mlir or FILE.sir")
	}
	if f != nil {
		if err := ir.Verify(f); err != nil {
			return fmt.Errorf("%s does not verify:\n%v", name, err)
		}
		if *pipeline != "" {
			ps, err := passes.ParsePipeline(*pipeline)
			if err != nil {
				return err
			}
			if _, err := passes.Run(&ir.Module{Funcs: []*ir.Func{f}}, ps, passes.Options{VerifyEach: true}); err != nil {
				return err
			}
		}
	} else if *pipeline != "" {
		return usagef("--pipeline runs on Stela IR: give --example or a .sir file")
	}

	var (
		res *runtime.AOTResult
		le  *pjrt.LoadedExecutable
	)
	if strings.Contains(*target, ":") {
		if f != nil {
			res, err = runtime.CompileFor(*target, f)
		} else {
			res, err = runtime.CompileTextFor(*target, text, modulePartitions(text))
		}
	} else {
		res, le, err = compileOnClient(*target, f, text)
	}
	if err != nil {
		if *asJSON {
			writeJSON(stdout, compileReport{Target: *target, Memory: map[string]int64{}})
		}
		return err
	}
	rep := report(*target, res)
	if *out != "" {
		var data []byte
		if res.Executable != nil {
			data, err = res.Executable.Serialize()
		} else {
			data, err = le.Serialize()
		}
		if err == nil && len(data) == 0 {
			err = fmt.Errorf("the plugin serialized the executable to 0 bytes")
		}
		if err == nil {
			err = os.WriteFile(*out, data, 0o644)
		}
		if err != nil {
			rep.OK = false
			if *asJSON {
				writeJSON(stdout, rep)
			}
			return fmt.Errorf("--out %s: %w", *out, err)
		}
	}
	if *asJSON {
		return writeJSON(stdout, rep)
	}
	printReport(stdout, name, res, rep, *out)
	return nil
}

// traceShardingCase traces the named sharding case for all the devices of
// a compile-only target.
func traceShardingCase(target, name string) (*ir.Func, error) {
	if !strings.Contains(target, ":") {
		return nil, usagef("--sharding-case compiles for a topology (tpu:v5e:2x2); run sharding cases on devices with stela demo sharding")
	}
	var c *examples.ShardingCase
	var names []string
	for _, sc := range examples.ShardingCases() {
		names = append(names, sc.Name)
		if sc.Name == name {
			c = sc
		}
	}
	if c == nil {
		return nil, fmt.Errorf("no sharding case %q (have %s)", name, strings.Join(names, ", "))
	}
	t, err := runtime.OpenTarget(target)
	if err != nil {
		return nil, err
	}
	return c.TraceSharded(len(t.Topology.Devices()))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

var numPartitionsRE = regexp.MustCompile(`mhlo\.num_partitions\s*=\s*(\d+)`)

// modulePartitions is a StableHLO module's mhlo.num_partitions (1 if it
// has none).
func modulePartitions(text string) int {
	if m := numPartitionsRE.FindStringSubmatch(text); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			return n
		}
	}
	return 1
}

func report(target string, r *runtime.AOTResult) compileReport {
	m := r.Memory
	rep := compileReport{
		Target: target, CompileMS: float64(r.CompileTime.Microseconds()) / 1e3,
		NumPartitions: r.NumPartitions, Flops: r.Cost.Flops(), BytesAccessed: r.Cost.BytesAccessed(),
		Memory: map[string]int64{
			"arguments": m.Arguments, "outputs": m.Outputs, "aliases": m.Aliases,
			"temporaries": m.Temporaries, "generated_code": m.GeneratedCode, "peak": m.Peak, "total": m.Total(),
		},
		OK: true,
	}
	if e, ok := r.Estimate(); ok {
		rep.EstimatedStepMS = e.StepTime.Seconds() * 1e3
	}
	return rep
}

func printReport(w io.Writer, name string, r *runtime.AOTResult, rep compileReport, out string) {
	fmt.Fprintf(w, "%s for %s: compiled in %.0f ms, %d partition(s) × %d replica(s)\n", name, rep.Target, rep.CompileMS, r.NumPartitions, r.NumReplicas)
	m := r.Memory
	limit := int64(0)
	if r.Target != nil {
		limit = r.Target.DeviceMemory()
	}
	fmt.Fprintf(w, "memory per device: %s arguments, %s outputs, %s temporaries, %s generated code", bytesStr(m.Arguments), bytesStr(m.Outputs), bytesStr(m.Temporaries), bytesStr(m.GeneratedCode))
	if m.Aliases > 0 {
		fmt.Fprintf(w, ", %s aliased", bytesStr(m.Aliases))
	}
	fmt.Fprintf(w, "; %s in all", bytesStr(m.Total()))
	if limit > 0 {
		fmt.Fprintf(w, " of %s (%.1f%%)", bytesStr(limit), 100*float64(m.Total())/float64(limit))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "per device: %.4g flops, %.4g bytes accessed", rep.Flops, rep.BytesAccessed)
	if v, ok := r.Cost.Get("transcendentals"); ok && v > 0 {
		fmt.Fprintf(w, ", %.4g transcendentals", v)
	}
	fmt.Fprintln(w)
	if r.Collectives != nil && r.NumPartitions*r.NumReplicas > 1 {
		fmt.Fprintf(w, "collectives: %s\n", r.CollectiveList())
	}
	if e, ok := r.Estimate(); ok {
		bound := "memory-bound"
		if e.ComputeBound {
			bound = "compute-bound"
		}
		fmt.Fprintf(w, "estimated step: %s (roofline, %s) on %s at %.0f TFLOP/s bf16, %.0f GB/s HBM: MFU %.1f%%",
			durStr(e.StepTime), bound, e.Chip.Name, e.Chip.PeakFlops/1e12, e.Chip.HBMBytesPerSecond/1e9, 100*e.MFU)
		if e.CompilerTime > 0 {
			fmt.Fprintf(w, "; the compiler's estimate %s (MFU %.1f%%)", durStr(e.CompilerTime), 100*rep.Flops/e.CompilerTime.Seconds()/e.Chip.PeakFlops)
		}
		fmt.Fprintln(w)
	}
	if out != "" {
		fmt.Fprintf(w, "wrote the serialized executable to %s\n", out)
	}
}

func bytesStr(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func durStr(d time.Duration) string {
	switch {
	case d >= time.Millisecond:
		return fmt.Sprintf("%.3f ms", d.Seconds()*1e3)
	default:
		return fmt.Sprintf("%.2f µs", d.Seconds()*1e6)
	}
}

// compileOnClient compiles for a plugin with devices here (--target cpu,
// cuda or a path), with the analyses the plugin gives.
func compileOnClient(target string, f *ir.Func, text string) (*runtime.AOTResult, *pjrt.LoadedExecutable, error) {
	if f != nil {
		if f.Mesh != nil {
			return nil, nil, fmt.Errorf("--target %s: sharded programs compile for TPU topologies here (tpu:v5e:2x2); run them with stela demo sharding", target)
		}
		var err error
		if text, err = runtime.StableHLOLocated(f); err != nil {
			return nil, nil, err
		}
	}
	client, _, err := runtime.OpenClient(target)
	if err != nil {
		return nil, nil, err
	}
	start := time.Now()
	le, err := client.Compile(text, nil)
	if err != nil {
		return nil, nil, err
	}
	r := &runtime.AOTResult{StableHLO: text, CompileTime: time.Since(start), NumReplicas: le.NumReplicas(), NumPartitions: le.NumPartitions()}
	if r.Cost, err = le.CostAnalysis(); err != nil && !isUnimplemented(err) {
		return nil, nil, err
	}
	if r.Memory, err = le.MemoryStats(); err != nil && !isUnimplemented(err) {
		return nil, nil, err
	}
	return r, le, nil
}

func isUnimplemented(err error) bool {
	e, ok := err.(*pjrt.Error)
	return ok && (e.Code == pjrt.CodeUnimplemented || e.Code == pjrt.CodeNotFound)
}
