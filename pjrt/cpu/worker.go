package cpu

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/pjrt/cpu/codegen"
	"github.com/stela-ml/stela/pjrt/cpu/internal/llvmlib"
	"github.com/stela-ml/stela/stablehlo"
	"github.com/stela-ml/stela/stablehlo/bytecode"
	"google.golang.org/protobuf/encoding/protowire"
)

// The compile worker (docs/cpu-plugin.md, "Worker mode"): StableHLO text →
// a shared object exporting stela_signature, stela_num_checks and
// stela_entry. The pipeline:
//
//	parse     stablehlo.Parse
//	verify    Module.Verify, then codegen.Plan: pick the entry, inline
//	          calls, check types and ops, plan buffers
//	codegen   LLVM IR text (codegen.Program.LLVM), written to a .ll file
//	split     a module of many functions is cut into parts (llvm-split),
//	          one per CPU (at most 8), so that opt and llc run in parallel
//	opt       opt -O2 (its verifier on) per part: .ll → .bc
//	llc       llc -O2 -filetype=obj -relocation-model=pic -mcpu -mattr per part
//	link      ld -shared -o out.so part*.o -lm (cc -shared where there is
//	          no ld on PATH), then an atomic rename
//
// opt and llc run in the worker's own process where libLLVM-14 loads
// (package llvmlib: the same passes and code generator through LLVM's C
// API, one thread per part, no process starts, no bitcode between them);
// STELA_CPU_LLVM=tools runs the opt and llc programs instead, and a
// module that fails in process is compiled again by the programs, whose
// errors the worker reports. In process, llvmlib splits the module
// itself (no llvm-split).
//
// Why -O2 and not -O3: on the transformer block O3 takes 1.7 times the
// CPU time in opt and llc (it mostly unrolls more, doubling the code) for
// kernels that run about as fast (memory bound, or calls to the GEMM);
// see docs/cpu-plugin.md, "Compile time".
//
// Any Go program that links this package is a worker: init runs it and
// exits when STELA_CPU_WORKER=1, before main or tests run.

// Exit statuses of the worker. They are not 1 or 2, which other code
// exits with: Go's runtime exits 2 on a fatal error (out of memory, a
// deadlock) and on an unrecovered panic, and a shell 1 or 2 on its own
// errors. The plugin (csrc/compile.c) reports 10 as INVALID_ARGUMENT, 11
// as UNIMPLEMENTED and every other status, or a signal, as INTERNAL with
// the first lines of stderr (a Go stack dump is cut off), 13 as
// UNAVAILABLE.
//
// A failure of opt, llc, llvm-split or cc is never the program's fault:
// one that exits with an error or dies of a signal is exit 12 (the
// module is the code generator's, or the tool is broken); a tool that
// is missing, cannot be started or runs past the compile's time limit
// is exit 13 (the machine's state: install the tool, retry on a less
// busy machine or with a longer stela_compile_timeout_ms).
const (
	exitCompileError = 10 // malformed or invalid program
	exitUnsupported  = 11 // valid StableHLO the code generator does not handle
	exitInternal     = 12 // a bug in the worker (a recovered panic), a tool failed
	exitUnavailable  = 13 // a tool is missing or ran past the time limit
)

// Classes of tool errors (toolErr), for the exit status.
var (
	errToolFailed      = errors.New("tool failed")
	errToolUnavailable = errors.New("tool unavailable")
)

// classed is an error of a class (errToolFailed, errToolUnavailable)
// whose message is its own.
type classed struct {
	error
	class error
}

func (c classed) Is(target error) bool { return target == c.class }
func (c classed) Unwrap() error        { return c.error }

// workerTimeoutVar is how the plugin gives the worker its compile
// timeout (stela_compile_timeout_ms), in milliseconds: the worker's
// tools share nine tenths of it, so that the worker reports a tool that
// overran before the plugin kills the worker.
const workerTimeoutVar = "STELA_CPU_WORKER_TIMEOUT_MS"

// defaultToolTimeout is the tools' time limit without workerTimeoutVar:
// nine tenths of the plugin's default compile timeout of 120 s.
const defaultToolTimeout = 108 * time.Second

// toolTimeout reads workerTimeoutVar.
func toolTimeout() time.Duration {
	if ms, err := strconv.ParseInt(os.Getenv(workerTimeoutVar), 10, 64); err == nil && ms > 0 {
		return time.Duration(ms) * time.Millisecond * 9 / 10
	}
	return defaultToolTimeout
}

func init() {
	if os.Getenv("STELA_CPU_WORKER") != "1" {
		return
	}
	os.Exit(workerMain(os.Args, os.Stderr))
}

// workerMain runs the worker on a command line and returns its exit
// status. It never writes to stdout.
func workerMain(args []string, stderr io.Writer) (code int) {
	var prog []byte
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprintf("internal error: the compile worker panicked: %v", r)
			fmt.Fprintf(stderr, "%s%s\n%s", msg, saveReproducer(prog, msg), debug.Stack())
			code = exitInternal
		}
	}()
	if os.Getenv("STELA_CPU_LLVM") != "tools" {
		// Load libLLVM (about 15 ms of relocations and static
		// constructors) while the program is parsed and planned.
		go llvmlib.Open()
	}
	if len(args) != 5 || args[1] != "compile" {
		fmt.Fprintf(stderr, "stela cpu worker: usage: STELA_CPU_WORKER=1 %s compile <program.mlir> <compile_options.pb> <out.so>\n", filepath.Base(args[0]))
		return exitCompileError
	}
	prog, err := os.ReadFile(args[2])
	if err != nil {
		prog = nil
		fmt.Fprintf(stderr, "reading the program: %v\n", err)
		return exitCompileError
	}
	opts, err := os.ReadFile(args[3])
	if err != nil {
		fmt.Fprintf(stderr, "reading the compile options: %v\n", err)
		return exitCompileError
	}
	_, tm, err := Compile(prog, CompileConfig{Out: args[4], Options: opts, ToolTimeout: toolTimeout()})
	logTimes := func() {
		if env.Log().Compile {
			fmt.Fprintf(stderr, "stela cpu compile: @%s: %s\n", programName(prog), tm)
		}
	}
	if err != nil {
		// The first line is the message; the stage times follow it.
		code := exitCompileError
		switch {
		case codegen.IsUnsupported(err):
			code = exitUnsupported
		case errors.Is(err, errToolUnavailable):
			code = exitUnavailable
		case errors.Is(err, errPanic) || errors.Is(err, codegen.ErrInternal) || errors.Is(err, errToolFailed):
			code = exitInternal
		}
		msg := err.Error()
		if code == exitInternal {
			first, rest, _ := strings.Cut(msg, "\n")
			msg = first + saveReproducer(prog, first)
			if rest != "" {
				msg += "\n" + rest
			}
		}
		fmt.Fprintln(stderr, msg)
		logTimes()
		return code
	}
	logTimes()
	return 0
}

// ReproducerDir is where the worker saves the program of an internal
// error (a bug of Stela's compiler, exit 12): $STELA_CPU_REPRO_DIR, else
// stela-repro in the system's temporary directory.
func ReproducerDir() string {
	if d := os.Getenv("STELA_CPU_REPRO_DIR"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "stela-repro")
}

// saveReproducer writes prog, the program an internal error met, with the
// error as a leading comment, to ReproducerDir (named by the program's
// hash, so a rerun does not add files) and returns the text that ends
// the error's first line: where the file is and how to rerun it.
func saveReproducer(prog []byte, msg string) string {
	if len(prog) == 0 {
		return ""
	}
	dir := ReproducerDir()
	sum := sha256.Sum256(prog)
	path := filepath.Join(dir, "internal-"+hex.EncodeToString(sum[:8])+".mlir")
	var b bytes.Buffer
	for _, l := range strings.Split(msg, "\n") {
		b.WriteString("// " + l + "\n")
	}
	b.WriteString("// Reproduce: stela run " + path + "\n")
	b.Write(prog)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Sprintf(" (a bug of Stela's compiler; saving a reproducer failed: %v)", err)
	}
	tmp, err := os.CreateTemp(dir, ".repro-*")
	if err == nil {
		_, err = tmp.Write(b.Bytes())
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
		}
	}
	if err != nil {
		return fmt.Sprintf(" (a bug of Stela's compiler; saving a reproducer failed: %v)", err)
	}
	return " (a bug of Stela's compiler, not of the program; reproducer: " + path + ")"
}

// errPanic marks an error made from a panic: a bug, not the program's
// fault.
var errPanic = errors.New("internal error")

// CompileConfig configures Compile.
type CompileConfig struct {
	// Out is the shared object to write (atomically: written elsewhere in
	// its directory, then renamed). Empty: a new file in the system's
	// temporary directory, which the caller removes.
	Out string
	// Options is the serialized xla.CompileOptionsProto. The worker reads
	// num_replicas and num_partitions from it (and
	// compile_portable_executable: one device), the devices the
	// program's collectives run on (deviceShape).
	Options []byte
	// Entry names the function to compile; "" picks @main, else the only
	// public function.
	Entry string
	// CPU and Features are llc's -mcpu and -mattr; empty means the host's
	// (codegen.HostCPU).
	CPU, Features string
	// KeepDir, when set, keeps the intermediate files (program.ll, and
	// per part partN.bc and partN.o) in that directory.
	KeepDir string
	// OptLevel is opt's and llc's optimization level, 0 to 3; 0 means
	// the default, 2.
	OptLevel int
	// Jobs is the most parts a module is split into for parallel opt and
	// llc; 0 means runtime.GOMAXPROCS (at most 8), 1 no split. It applies
	// to opt and llc in process too (llvmlib.CompileParts cuts the
	// module).
	Jobs int
	// ToolTimeout bounds the time of all the external tools (llvm-split,
	// opt, llc, cc) together; 0 means no limit. A tool that runs past it
	// is killed with its process group, and Compile's error is of class
	// errToolUnavailable.
	ToolTimeout time.Duration
}

// Timings is the time a compilation spent per stage (wall time; parts
// run in parallel within opt and llc).
type Timings struct {
	Parse, Partition, Verify, Codegen, Split, Opt, Llc, Link time.Duration
	// LLVM is opt's and llc's work done in process (llvmlib), where Opt
	// and Llc are 0.
	LLVM time.Duration
	// Parts is the number of parts the module was split into.
	Parts int
	// Kernels is the number of kernels after fusion; ArenaBytes the peak
	// temporary memory (the arena) and IntermediateBytes what the
	// intermediates would take without buffer sharing.
	Kernels                       int
	ArenaBytes, IntermediateBytes int64
}

// Total is the sum of the stages.
func (t Timings) Total() time.Duration {
	return t.Parse + t.Partition + t.Verify + t.Codegen + t.Split + t.Opt + t.Llc + t.LLVM + t.Link
}

func (t Timings) String() string {
	ms := func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + "ms" }
	partition := ""
	if t.Partition > 0 {
		partition = ", spmd partition " + ms(t.Partition)
	}
	llvm := fmt.Sprintf("opt %s, llc %s", ms(t.Opt), ms(t.Llc))
	if t.LLVM > 0 {
		llvm = fmt.Sprintf("opt+llc in process %s", ms(t.LLVM))
	}
	return fmt.Sprintf("parse %s"+partition+", verify %s, codegen %s, split %s (%d parts), %s, link %s, total %s; %d kernels, peak temporary memory %d bytes (%d without buffer reuse)",
		ms(t.Parse), ms(t.Verify), ms(t.Codegen), ms(t.Split), max(t.Parts, 1), llvm, ms(t.Link), ms(t.Total()),
		t.Kernels, t.ArenaBytes, t.IntermediateBytes)
}

// Compile compiles StableHLO text into a shared object and returns its
// path. Errors are one line first (more may follow): parse errors carry
// line:col; for valid StableHLO the code generator does not handle,
// codegen.IsUnsupported(err) is true and the message starts with
// `unsupported: `.
func Compile(mlir []byte, cfg CompileConfig) (soPath string, tm Timings, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: compile: panic: %v\n%s", errPanic, r, debug.Stack())
		}
	}()
	// A switch with an unknown word fails the compile (package env's
	// rule): the plugin reports this as the compile's error.
	if err := env.Err(); err != nil {
		return "", tm, err
	}
	t0 := time.Now()
	stage := func(d *time.Duration) {
		now := time.Now()
		*d = now.Sub(t0)
		t0 = now
	}
	dump := newWorkerDump(mlir)
	fromBytecode := bytecode.IsBytecode(mlir)
	if fromBytecode {
		// MLIR bytecode (a StableHLO portable artifact from JAX/XLA's
		// PJRT client): read it into text, then parse that like any
		// program, so that what follows (and any dump) sees text.
		dump.write("mlirbc", mlir)
		if mlir, err = bytecode.ToText(mlir); err != nil {
			stage(&tm.Parse)
			return "", tm, err
		}
	}
	dump.write("mlir", mlir)
	m, err := stablehlo.Parse(mlir)
	stage(&tm.Parse)
	if err != nil {
		return "", tm, err
	}
	var optimized string
	if fromBytecode {
		// The StableHLO text read from the bytecode is what the object
		// was compiled from: PJRT_Executable_OptimizedProgram returns it
		// (JAX's compiled.as_text() and output layouts read it), without
		// the attributes the reader kept undecoded (XLA would not parse
		// them back).
		if text, err := stablehlo.Parse(mlir); err == nil {
			bytecode.DropUndecoded(text)
			optimized = string(stablehlo.Format(text, stablehlo.PrintOptions{Locations: true}))
		}
	}
	if _, parts, err := deviceShape(cfg.Options); err == nil && parts > 1 && spmdRequested(cfg.Options) {
		// An annotated program: partition it (spmd.go).
		if m, optimized, err = partitionSPMD(m, parts); err != nil {
			return "", tm, err
		}
		stage(&tm.Partition)
	}
	prog, err := plan(m, cfg, optimized)
	stage(&tm.Verify)
	if err != nil {
		return "", tm, err
	}
	tm.Kernels, tm.ArenaBytes, tm.IntermediateBytes = prog.Kernels(), prog.ArenaBytes(), prog.IntermediateBytes()
	ll, err := prog.LLVM()
	stage(&tm.Codegen)
	if err != nil {
		return "", tm, err
	}
	dump.write("ll", ll)
	soPath, err = buildObject(ll, cfg, &tm)
	return soPath, tm, err
}

// workerDump writes what the worker compiles to $STELA_DUMP (when set):
// the program as received (PROGRAM.HASH.mlirbc for bytecode), its
// StableHLO text (.mlir) and the kernels' LLVM IR (.ll), so that a JAX
// user sees Stela's IR for their program. HASH is the first 12 hex
// digits of the program's SHA-256; PROGRAM its module name.
type workerDump struct{ prefix string }

func newWorkerDump(prog []byte) workerDump {
	dir := os.Getenv("STELA_DUMP")
	if dir == "" {
		return workerDump{}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "stela cpu worker: STELA_DUMP: %v\n", err)
		return workerDump{}
	}
	sum := sha256.Sum256(prog)
	return workerDump{prefix: filepath.Join(dir, fmt.Sprintf("%s.%x", programName(prog), sum[:6]))}
}

// programName returns the module name of a program (text or bytecode),
// "module" when it has none.
func programName(prog []byte) string {
	if m := regexp.MustCompile(`^\s*module @([A-Za-z0-9_.$-]+)`).FindSubmatch(prog); m != nil {
		return string(m[1])
	}
	if bytecode.IsBytecode(prog) {
		if m, err := bytecode.Read(prog); err == nil && m.Name != "" {
			return m.Name
		}
	}
	return "module"
}

func (d workerDump) write(ext string, data []byte) {
	if d.prefix == "" {
		return
	}
	if err := os.WriteFile(d.prefix+"."+ext, data, 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "stela cpu worker: STELA_DUMP: %v\n", err)
	}
}

func plan(m *stablehlo.Module, cfg CompileConfig, optimized string) (*codegen.Program, error) {
	if err := m.Verify(); err != nil {
		// Verify joins its problems with newlines; the first is the
		// message.
		return nil, fmt.Errorf("invalid module: %w", err)
	}
	r, p, err := deviceShape(cfg.Options)
	if err != nil {
		return nil, err
	}
	return codegen.Plan(m, codegen.Options{Entry: cfg.Entry, NumReplicas: r, NumPartitions: p, OptimizedProgram: optimized})
}

// deviceShape reads the devices an executable runs on from a serialized
// xla.CompileOptionsProto: ExecutableBuildOptionsProto's num_replicas and
// num_partitions, or 1 × 1 for a portable executable. 0 (absent) leaves
// it to the module (codegen.Options).
func deviceShape(opts []byte) (replicas, partitions int, err error) {
	bad := fmt.Errorf("the compile options are not a valid serialized xla.CompileOptionsProto")
	portable := false
	for b := opts; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, 0, bad
		}
		b = b[n:]
		switch {
		case num == 4 && typ == protowire.VarintType: // compile_portable_executable
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return 0, 0, bad
			}
			portable, b = v != 0, b[n:]
			continue
		case num == 3 && typ == protowire.BytesType: // executable_build_options
			eb, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return 0, 0, bad
			}
			b = b[n:]
			for len(eb) > 0 {
				num, typ, n := protowire.ConsumeTag(eb)
				if n < 0 {
					return 0, 0, bad
				}
				eb = eb[n:]
				if (num == 4 || num == 5) && typ == protowire.VarintType {
					v, n := protowire.ConsumeVarint(eb)
					if n < 0 {
						return 0, 0, bad
					}
					eb = eb[n:]
					if v > 1<<20 {
						return 0, 0, fmt.Errorf("the compile options ask for %d %s", v, map[protowire.Number]string{4: "replicas", 5: "partitions"}[num])
					}
					if num == 4 {
						replicas = int(v)
					} else {
						partitions = int(v)
					}
					continue
				}
				n = protowire.ConsumeFieldValue(num, typ, eb)
				if n < 0 {
					return 0, 0, bad
				}
				eb = eb[n:]
			}
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return 0, 0, bad
		}
		b = b[n:]
	}
	if portable {
		return 1, 1, nil
	}
	return replicas, partitions, nil
}

// tools are the LLVM and C tools the worker runs.
type tools struct {
	opt, llc, cc string
	ld           string // GNU ld (or another that takes its flags); "": link with cc
	split        string // llvm-split; "" when missing (no parallel compile)
	// ctx ends when the tools' time is up (CompileConfig.ToolTimeout,
	// timeout; nil: no limit).
	ctx     context.Context
	timeout time.Duration
}

// run runs a tool and returns its output (stdout and stderr). The tool
// runs in a process group of its own: when it exits, whatever it left
// running is killed with the group (issue 20: a child of opt that kept
// its stderr open made the worker wait for the pipe until the plugin's
// timeout), and when the time is up the whole group is killed. Errors
// are of class errToolFailed (an exit status, a signal) or
// errToolUnavailable (cannot start, out of time), with a first line that
// names the tool and what happened.
func (tl tools) run(name, path string, args ...string) ([]byte, error) {
	ctx := tl.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return nil, tl.timedOut(name)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// Pdeathsig: a worker killed by the plugin takes the tool with it
	// (its own children, in the tool's group, are not signalled).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// After the tool exits, wait at most this long for its output pipe
	// to close; the group is killed below in any case.
	cmd.WaitDelay = time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // what the tool left running
	}
	if err == nil || errors.Is(err, exec.ErrWaitDelay) {
		return out.Bytes(), nil
	}
	if ctx.Err() != nil {
		return out.Bytes(), tl.timedOut(name)
	}
	text := strings.TrimSpace(out.String())
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return out.Bytes(), classed{fmt.Errorf("cannot run %s (%s): %v", name, path, err), errToolUnavailable}
	}
	if st, ok := ee.Sys().(syscall.WaitStatus); ok && st.Signaled() {
		return out.Bytes(), classed{fmt.Errorf("internal error: %s was killed by signal: %v\n%s", name, st.Signal(), text), errToolFailed}
	}
	return out.Bytes(), classed{err, errToolFailed}
}

func (tl tools) timedOut(name string) error {
	return classed{fmt.Errorf("%s ran past the compile's time limit of %v and was killed (the plugin's create option stela_compile_timeout_ms; the tools get nine tenths of it)", name, tl.timeout), errToolUnavailable}
}

// findTools looks for opt and llc (then opt-14 and llc-14) and cc (or
// $CC's first word).
func findTools() (tools, error) {
	var t tools
	var missing []string
	look := func(names ...string) string {
		for _, n := range names {
			if p, err := exec.LookPath(n); err == nil {
				return p
			}
		}
		missing = append(missing, names[0])
		return ""
	}
	t.opt = look("opt", "opt-14")
	t.llc = look("llc", "llc-14")
	for _, n := range []string{"llvm-split", "llvm-split-14"} {
		if p, err := exec.LookPath(n); err == nil {
			t.split = p
			break
		}
	}
	ccName := "cc"
	if f := strings.Fields(os.Getenv("CC")); len(f) == 1 {
		ccName = f[0]
	}
	t.cc = look(ccName, "gcc")
	if ccName == "cc" {
		// cc -shared runs gcc's driver, collect2 and ld: about three
		// times ld's own CPU time for these objects, which need none of
		// what the driver adds (no C runtime start files; the plugin
		// that loads them has libc).
		if p, err := exec.LookPath("ld"); err == nil {
			t.ld = p
		}
	}
	if len(missing) > 0 {
		return t, classed{fmt.Errorf("the CPU compiler needs %s, not found on PATH: install LLVM 14 and a C compiler (Debian: apt-get install llvm-14 gcc)", strings.Join(missing, ", ")), errToolUnavailable}
	}
	return t, nil
}

// buildObject runs opt, llc and cc on LLVM IR text and installs the
// shared object.
func buildObject(ll []byte, cfg CompileConfig, tm *Timings) (so string, err error) {
	t0 := time.Now()
	stage := func(d *time.Duration) {
		now := time.Now()
		*d = now.Sub(t0)
		t0 = now
	}
	tl, err := findTools()
	if err != nil {
		return "", err
	}
	tl.ctx = context.Background()
	if cfg.ToolTimeout > 0 {
		var cancel context.CancelFunc
		tl.ctx, cancel = context.WithTimeout(tl.ctx, cfg.ToolTimeout)
		tl.timeout = cfg.ToolTimeout
		defer cancel()
	}
	dir := cfg.KeepDir
	if dir == "" {
		dir, err = os.MkdirTemp("", "stela-cpu-")
		if err != nil {
			return "", fmt.Errorf("compile: %v", err)
		}
		defer os.RemoveAll(dir)
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("compile: %v", err)
	}
	llPath := filepath.Join(dir, "program.ll")
	if err := os.WriteFile(llPath, ll, 0o644); err != nil {
		return "", fmt.Errorf("compile: %v", err)
	}
	// Both tools get the target: opt's vectorizers choose vector widths
	// from it (without it, 128-bit SSE2), llc selects instructions.
	mcpu, mattr := cfg.CPU, cfg.Features
	if mcpu == "" && mattr == "" {
		mcpu, mattr = codegen.HostCPU()
	}
	var target []string
	if mcpu != "" {
		target = append(target, "-mcpu="+mcpu)
	}
	if mattr != "" {
		target = append(target, "-mattr="+mattr)
	}
	level := cfg.OptLevel
	if level <= 0 || level > 3 {
		level = 2
	}
	olevel := fmt.Sprintf("-O%d", level)

	if useLLVMLib() {
		// In process, a module of many functions is cut into parts by
		// llvmlib (functions that call each other stay together), one
		// thread each: on the transformer block llvm-split's parts cost
		// about 40% more CPU time in opt and llc than the whole (each
		// kernel apart from its loop body, nothing inlined across
		// parts), llvmlib's about 10% (docs/performance.md, W6).
		n := splitParts(cfg.Jobs, bytes.Count(ll, []byte("\ndefine ")))
		o := llvmlib.Options{CPU: mcpu, Features: mattr, Level: level, Parts: n}
		if cfg.KeepDir != "" {
			o.Bitcode = filepath.Join(dir, "part")
		}
		objs, err := llvmlib.CompileParts(ll, o)
		if err == nil {
			paths := make([]string, len(objs))
			for i, obj := range objs {
				paths[i] = filepath.Join(dir, fmt.Sprintf("part%d.o", i))
				if err := os.WriteFile(paths[i], obj, 0o644); err != nil {
					return "", fmt.Errorf("compile: %v", err)
				}
			}
			tm.Parts = len(objs)
			stage(&tm.LLVM)
			return link(tl, cfg, paths, tm)
		}
		// opt and llc say what is wrong, as without the library.
		if env.Log().Compile {
			fmt.Fprintf(os.Stderr, "stela cpu compile: in process: %v; running opt and llc\n", err)
		}
	}

	// Split a module of many functions so that its parts compile on all
	// CPUs at once. Each part costs two process starts, so small modules
	// (eager mode's one-op programs) stay whole.
	parts := []string{llPath}
	if n := splitParts(cfg.Jobs, bytes.Count(ll, []byte("\ndefine "))); n > 1 && tl.split != "" {
		prefix := filepath.Join(dir, "part")
		if out, err := tl.run("llvm-split", tl.split, "-j", strconv.Itoa(n), "-o", prefix, llPath); err != nil {
			if errors.Is(err, errToolUnavailable) {
				return "", err
			}
			// A module the tools reject: opt on the whole says why, with
			// the line.
			if oerr := runOpt(tl, []string{olevel}, llPath, filepath.Join(dir, "program.bc")); oerr != nil {
				return "", oerr
			}
			return "", toolError("llvm-split", err, out)
		}
		parts = parts[:0]
		for i := range n {
			parts = append(parts, fmt.Sprintf("%s%d", prefix, i))
		}
		tm.Parts = n
	}
	stage(&tm.Split)
	objs := make([]string, len(parts))
	for i := range parts {
		objs[i] = filepath.Join(dir, fmt.Sprintf("part%d.o", i))
	}
	if err := runTools(tl, dir, llPath, parts, objs, olevel, target, tm); err != nil {
		return "", err
	}
	return link(tl, cfg, objs, tm)
}

// useLLVMLib reports whether opt's and llc's work runs in process:
// unless STELA_CPU_LLVM=tools, where libLLVM-14 loads.
func useLLVMLib() bool {
	return os.Getenv("STELA_CPU_LLVM") != "tools" && llvmlib.Open() == nil
}

// runTools runs opt and then llc on each part, in parallel.
func runTools(tl tools, dir, llPath string, parts, objs []string, olevel string, target []string, tm *Timings) error {
	t0 := time.Now()
	stage := func(d *time.Duration) {
		now := time.Now()
		*d = now.Sub(t0)
		t0 = now
	}
	bcs := make([]string, len(parts))
	for i := range parts {
		bcs[i] = filepath.Join(dir, fmt.Sprintf("part%d.bc", i))
	}
	if err := parallel(len(parts), func(i int) error {
		return runOpt(tl, append([]string{olevel}, target...), parts[i], bcs[i])
	}); err != nil {
		if len(parts) > 1 {
			// Report the whole module's line, not a part's.
			if oerr := runOpt(tl, []string{olevel}, llPath, filepath.Join(dir, "program.bc")); oerr != nil {
				return oerr
			}
		}
		return err
	}
	stage(&tm.Opt)
	if err := parallel(len(parts), func(i int) error {
		args := append([]string{olevel, "-filetype=obj", "-relocation-model=pic"}, target...)
		args = append(args, bcs[i], "-o", objs[i])
		if out, err := tl.run("llc", tl.llc, args...); err != nil {
			return toolError("llc", err, out)
		}
		return nil
	}); err != nil {
		return err
	}
	stage(&tm.Llc)
	return nil
}

// link links the parts' objects into the shared object cfg.Out (a new
// temporary file when empty) and returns its absolute path.
func link(tl tools, cfg CompileConfig, objs []string, tm *Timings) (so string, err error) {
	t0 := time.Now()
	out := cfg.Out
	if out == "" {
		f, cerr := os.CreateTemp("", "stela-program-*.so")
		if cerr != nil {
			return "", fmt.Errorf("compile: %v", cerr)
		}
		out = f.Name()
		f.Close()
		defer func() {
			if err != nil {
				os.Remove(out)
			}
		}()
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("compile: %v", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(abs), ".stela-so-*")
	if err != nil {
		return "", fmt.Errorf("compile: writing %s: %v", out, err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	linked := false
	if tl.ld != "" {
		// What cc -shared passes to ld for these objects, less the C
		// runtime's files and libc (the plugin's process has it; the
		// symbols bind to it when the object is loaded). Where ld fails
		// (another linker, no libm where it looks), cc links, and says
		// what is wrong if it fails too.
		args := append(append([]string{"-shared", "--eh-frame-hdr", "--hash-style=gnu", "-o", tmp.Name()}, objs...), "--as-needed", "-lm")
		if _, err := tl.run("link", tl.ld, args...); err == nil {
			linked = true
		} else if errors.Is(err, errToolUnavailable) && tl.ctx != nil && tl.ctx.Err() != nil {
			return "", err // out of time
		}
	}
	if !linked {
		if out, err := tl.run("link", tl.cc, append(append([]string{"-shared", "-o", tmp.Name()}, objs...), "-lm")...); err != nil {
			return "", toolError("link", err, out)
		}
	}
	if err := os.Rename(tmp.Name(), abs); err != nil {
		return "", fmt.Errorf("compile: installing %s: %v", out, err)
	}
	tm.Link = time.Since(t0)
	return abs, nil
}

// splitParts is the number of parts to cut a module of defs function
// definitions into: one per job (jobs 0: GOMAXPROCS, at most 8), with at
// least 8 functions a part.
func splitParts(jobs, defs int) int {
	if jobs <= 0 {
		jobs = min(runtime.GOMAXPROCS(0), 8)
	}
	return max(1, min(jobs, defs/8))
}

// parallel runs f(0) ... f(n-1) at once and returns the first error (by
// index).
func parallel(n int, f func(i int) error) error {
	if n == 1 {
		return f(0)
	}
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// runOpt runs opt with its verifier on (args: the level and the target);
// a rejected module becomes an error quoting the offending line of the
// .ll file.
func runOpt(tl tools, args []string, llPath, bcPath string) error {
	args = append(append([]string{}, args...), llPath, "-o", bcPath)
	if out, err := tl.run("opt", tl.opt, args...); err != nil {
		if !errors.Is(err, errToolFailed) || strings.HasPrefix(err.Error(), "internal error: opt was killed") {
			return err // timed out, cannot start, crashed
		}
		return optError(llPath, err, out)
	}
	return nil
}

// optLoc finds `file.ll:LINE:COL: error: message` in opt's output.
var optLoc = regexp.MustCompile(`(?m)^(?:[^\s:]*opt[^\s:]*: )?([^\s:]+\.ll):(\d+):(\d+): error: (.*)$`)

// optError turns opt's complaint about a module into a one-line compile
// error (then the rest of opt's output). The module is ours, so this is a
// code generator bug, said so.
func optError(llPath string, runErr error, stderr []byte) error {
	return classed{optError1(llPath, runErr, stderr), errToolFailed}
}

func optError1(llPath string, runErr error, stderr []byte) error {
	text := strings.TrimSpace(string(stderr))
	if m := optLoc.FindStringSubmatch(text); m != nil {
		line, _ := strconv.Atoi(m[2])
		quoted := ""
		if src, err := os.ReadFile(llPath); err == nil {
			lines := strings.Split(string(src), "\n")
			if line >= 1 && line <= len(lines) {
				quoted = strings.TrimSpace(lines[line-1])
			}
		}
		msg := fmt.Sprintf("internal error: the code generator made invalid LLVM IR: opt: line %s:%s: %s", m[2], m[3], m[4])
		if quoted != "" {
			msg += fmt.Sprintf(": `%s`", quoted)
		}
		return fmt.Errorf("%s\n%s", msg, text)
	}
	var ee *exec.ExitError
	if errors.As(runErr, &ee) && text != "" {
		// Verifier failures ("input module is broken!") name the
		// instruction on the lines that follow the message.
		lines := strings.Split(text, "\n")
		first := strings.TrimSpace(lines[0])
		if len(lines) > 1 {
			first += ": " + strings.TrimSpace(lines[1])
		}
		return fmt.Errorf("internal error: the code generator made invalid LLVM IR: opt: %s\n%s", first, text)
	}
	return fmt.Errorf("internal error: opt failed: %v\n%s", runErr, text)
}

func toolError(tool string, err error, out []byte) error {
	if !errors.Is(err, errToolFailed) || strings.HasPrefix(err.Error(), "internal error: "+tool+" was killed") {
		return err // timed out, cannot start, crashed: said so
	}
	return classed{toolError1(tool, err, out), errToolFailed}
}

func toolError1(tool string, err error, out []byte) error {
	text := strings.TrimSpace(string(out))
	first := text
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	if first == "" {
		first = err.Error()
	}
	return fmt.Errorf("internal error: %s failed: %s\n%s", tool, first, text)
}
