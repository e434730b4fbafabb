package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/stablehlo"
)

func runDump(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("dump")
	name := fs.String("example", "", "the built-in example `NAME` to trace (this or --file): "+strings.Join(examples.Names(), ", "))
	file := fs.String("file", "", "dump the first function of this Stela IR `FILE.sir` instead of an example")
	stage := fs.String("stage", "ir", "the stage to print: `ir|sharded|partitioned|stablehlo`; sharded prints every value's sharding (the function needs a mesh), partitioned the per-device program")
	locs := fs.Bool("locations", false, "print source locations")
	pipeline := fs.String("pipeline", "", "run this `PIPELINE` first: comma-separated pass names (stela passes lists them), or default")
	eachPass := fs.Bool("after-each-pass", false, "print the IR after every pass of --pipeline (default: the default pipeline) as a diff against the stage before")
	outDir := fs.String("out", "", "with --after-each-pass: also write every stage (NN.pass.sir) and its diff (NN.pass.diff) to this `DIR`")
	if err := noArgs(fs, args); err != nil {
		return err
	}
	var f *ir.Func
	switch {
	case *file != "" && *name != "":
		return usagef("--example and --file: give one")
	case *file != "":
		src, err := readInput(*file)
		if err != nil {
			return err
		}
		m, err := ir.Parse(string(src))
		if err != nil {
			return fmt.Errorf("%s:%w", *file, err)
		}
		if len(m.Funcs) == 0 {
			return fmt.Errorf("%s: no function", *file)
		}
		f = m.Funcs[0]
		*name = *file
	case *name == "":
		return usagef("--example or --file is required (examples: %s)", strings.Join(examples.Names(), ", "))
	default:
		tr, err := examples.TraceNamed(*name)
		if err != nil {
			return err
		}
		f = tr.Func
	}
	if err := ir.Verify(f); err != nil {
		return fmt.Errorf("traced %s does not verify:\n%v", *name, err)
	}
	if *eachPass {
		if *stage != "ir" {
			return usagef("--after-each-pass prints IR stages; use --stage ir")
		}
		if *pipeline == "" {
			*pipeline = "default"
		}
		return dumpEachPass(f, *pipeline, *outDir, *locs, stdout)
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
	switch *stage {
	case "ir":
		ir.Print(stdout, f, ir.PrintOptions{Locations: *locs})
		return nil
	case "sharded", "partitioned":
		return shardStage(f, *stage, *locs, stdout)
	case "stablehlo":
		m, err := lowering.Lower(f, lowering.Options{})
		if err != nil {
			return err
		}
		return stablehlo.Print(stdout, m, stablehlo.PrintOptions{Locations: *locs})
	}
	return usagef("unknown stage %q (want ir, sharded, partitioned or stablehlo)", *stage)
}

// dumpEachPass runs the pipeline one pass at a time and prints, for each
// pass, its op count and a unified diff against the stage before it. The
// stages name values by their IDs (ir.PrintOptions.StableNames), which
// passes keep, so that a pass's diff shows only what it changed.
func dumpEachPass(f *ir.Func, pipeline, outDir string, locs bool, stdout io.Writer) error {
	ps, err := passes.ParsePipeline(pipeline)
	if err != nil {
		return err
	}
	if outDir != "" {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return err
		}
	}
	m := &ir.Module{Funcs: []*ir.Func{f}}
	text := func() []byte {
		var b bytes.Buffer
		ir.Print(&b, f, ir.PrintOptions{Locations: locs, StableNames: true})
		return b.Bytes()
	}
	write := func(name string, data []byte) error {
		if outDir == "" {
			return nil
		}
		return os.WriteFile(filepath.Join(outDir, name), data, 0o644)
	}
	prev := text()
	fmt.Fprintf(stdout, "// ----- input: %d ops\n", countOps(f))
	stdout.Write(prev)
	if err := write("00.input.sir", prev); err != nil {
		return err
	}
	for i, p := range ps {
		if _, err := passes.Run(m, []*passes.Pass{p}, passes.Options{VerifyEach: true}); err != nil {
			return err
		}
		cur := text()
		d := stageDiff("before "+p.Name, prev, "after "+p.Name, cur)
		fmt.Fprintf(stdout, "// ----- after %s: %d ops\n", p.Name, countOps(f))
		if d == nil {
			fmt.Fprintln(stdout, "(no change)")
		} else {
			stdout.Write(d)
		}
		stem := fmt.Sprintf("%02d.%s", i+1, p.Name)
		if err := write(stem+".sir", cur); err != nil {
			return err
		}
		if err := write(stem+".diff", d); err != nil {
			return err
		}
		prev = cur
	}
	return nil
}

// stageDiff is a unified diff of two stages with three lines of context,
// nil when they are equal. It uses difflib's matcher, which pairs up
// every run of unchanged lines it can between the changed ones: an
// anchored diff, which starts from lines unique on both sides, would show
// the unchanged body of a region (a reduce's "add, return") between two
// changed lines as removed and added again.
func stageDiff(fromName string, from []byte, toName string, to []byte) []byte {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(from), B: lines(to),
		FromFile: fromName, ToFile: toName, Context: 3,
	})
	if err != nil || d == "" {
		return nil
	}
	return []byte(d)
}

// lines splits text after each newline (difflib's SplitLines would add
// an empty last line to text that ends in one).
func lines(text []byte) []string {
	ls := strings.SplitAfter(string(text), "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// countOps counts instructions, those in regions included.
func countOps(f *ir.Func) int {
	n := 0
	f.Walk(func(*ir.Instr) { n++ })
	return n
}
