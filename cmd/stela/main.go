// Command stela is Stela's command-line tool: it dumps the built-in
// examples at every stage, formats StableHLO, verifies Stela IR, and lists
// the op table. It only wires packages together; the logic lives in them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand.
type command struct {
	name  string
	usage string // arguments, after the name
	doc   string
	run   func(args []string, stdout, stderr io.Writer) error
}

var commands []*command

func init() {
	commands = []*command{
		{"dump", "--example NAME --stage ir|stablehlo [--locations]", "trace a built-in example and print it at a stage", runDump},
		{"fmt", "FILE.mlir", "parse StableHLO text and print it in canonical form", runFmt},
		{"verify", "FILE.sir", "parse and verify Stela IR text", runVerify},
		{"ops", "[--markdown]", "list the op table with its status columns", runOps},
		{"opt", "[-p PIPELINE] [--print-after-all|--print-changed] [--locations] [--dump-dir DIR] [--time-passes] FILE.sir | --reproduce FILE", "run a pass pipeline on Stela IR and print the result", runOpt},
		{"passes", "", "list the passes with their doc lines and the default pipeline", runPasses},
		{"run", "FILE.mlir [--input file.npy ...] [--devices N] [--plugin NAME|PATH] | --example NAME", "compile and run StableHLO on a PJRT plugin and print the results", runRun},
		{"bench", "[--json|--markdown] [--workload W1,W2,W3,W5,W6] [--runs N] [--device NAME] [--torch]", "run the benchmark workloads (docs/performance.md), optionally next to PyTorch", runBench},
		{"check", "FILE.mlir [--plugin NAME|PATH]", "run a StableHLO file with check.* expectations; exit 0 ok, 1 failed, 2 rejected", runCheck},
		{"demo", "[--device NAME] [--runs N] [EXAMPLE ...]", "run the built-in examples eagerly and compiled, check them against the reference evaluator, print timings", runDemo},
		{"devices", "[--plugin NAME|PATH] [--devices N]", "list the PJRT platforms found (or one plugin's devices) and why others are not usable", runDevices},
		{"hash", "FILE.sir|FILE.mlir | --example NAME [--device NAME] [--pipeline P]", "print the program hash the runtime's executable cache uses for a program", runHash},
		{"plugin", "path", "build the Stela CPU plugin if needed and print its path", runPlugin},
		{"help", "", "print this help", runHelp},
	}
}

// exitError carries an exit status for failures that have already been
// reported (e.g. a verifier's diagnostics).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		runHelp(nil, stderr, stderr)
		return 2
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(args[1:], stdout, stderr)
			var ee exitError
			switch {
			case err == nil:
				return 0
			case errors.As(err, &ee):
				return ee.code
			case errors.Is(err, flag.ErrHelp):
				return 0
			}
			fmt.Fprintf(stderr, "stela %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "stela: unknown command %q (run 'stela help')\n", args[0])
	return 2
}

func runHelp(_ []string, stdout, _ io.Writer) error {
	fmt.Fprintln(stdout, "usage: stela COMMAND [arguments]")
	fmt.Fprintln(stdout)
	names := make([]string, 0, len(commands))
	byName := map[string]*command{}
	for _, c := range commands {
		names = append(names, c.name)
		byName[c.name] = c
	}
	sort.Strings(names)
	for _, n := range names {
		c := byName[n]
		fmt.Fprintf(stdout, "  %-8s %s\n           %s\n", c.name, strings.TrimSpace(c.name+" "+c.usage), c.doc)
	}
	return nil
}

// newFlags makes a flag set that reports errors to stderr and returns them.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("stela "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseArgs parses flags that may come before, between or after the
// positional arguments (`stela run FILE.mlir --input x.npy`), which the
// flag package alone does not allow, and returns the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
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

// oneFile parses flags and returns the single positional file argument.
func oneFile(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", fmt.Errorf("want exactly one file argument, got %d", len(pos))
	}
	return pos[0], nil
}
