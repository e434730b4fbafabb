package main

import (
	"fmt"
	"io"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// runOpt is `stela opt`: like mlir-opt, it reads .sir, runs a pipeline and
// prints the result to stdout; instrumentation output goes to stderr.
func runOpt(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("opt")
	pipe := fs.String("p", "default", "the `PIPELINE`: comma-separated pass names (stela passes lists them), or default")
	afterAll := fs.Bool("print-after-all", false, "print the IR after every pass (to stderr)")
	changed := fs.Bool("print-changed", false, "print the IR after each pass that changed it (to stderr)")
	locs := fs.Bool("locations", false, "print locations")
	dumpDir := fs.String("dump-dir", "", "write <func>.<seq>.<pass>.sir after each pass into this `DIR`")
	verify := fs.Bool("verify-each", true, "verify the IR after each pass")
	timing := fs.Bool("time-passes", false, "print how long each pass ran (to stderr)")
	repro := fs.String("reproduce", "", "replay the reproducer `FILE` a failing pass wrote (its IR and pipeline) instead of FILE.sir")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	var m *ir.Module
	var pl []*passes.Pass
	if *repro != "" {
		if len(pos) != 0 {
			return usagef("--reproduce takes no file argument")
		}
		src, err := readInput(*repro)
		if err != nil {
			return err
		}
		if m, pl, err = passes.ReadReproducer(string(src)); err != nil {
			return fmt.Errorf("%s:%w", *repro, err)
		}
	} else {
		if len(pos) != 1 {
			return usagef("want exactly one file argument, got %d", len(pos))
		}
		src, err := readInput(pos[0])
		if err != nil {
			return err
		}
		if m, err = ir.Parse(string(src)); err != nil {
			return fmt.Errorf("%s:%w", pos[0], err)
		}
		if pl, err = passes.ParsePipeline(*pipe); err != nil {
			return err
		}
	}
	opts := passes.Options{VerifyEach: *verify, PrintChanged: *changed, Locations: *locs, Out: stderr, DumpDir: *dumpDir}
	if *afterAll {
		opts.PrintAfter = []string{"all"}
	}
	res, err := passes.Run(m, pl, opts)
	if err != nil {
		return err
	}
	if *timing {
		for _, t := range res.Timings {
			fmt.Fprintf(stderr, "%-14s %v\n", t.Pass, t.Duration)
		}
	}
	ir.PrintModule(stdout, m, ir.PrintOptions{Locations: *locs})
	return nil
}

// runPasses is `stela passes`: every pass with its doc line, then the
// default pipeline.
func runPasses(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("passes")
	if err := noArgs(fs, args); err != nil {
		return err
	}
	for _, p := range passes.All() {
		fmt.Fprintf(stdout, "%-14s %s\n", p.Name, p.Doc)
	}
	fmt.Fprintf(stdout, "\ndefault pipeline: %s\n", passes.PipelineString(passes.Default))
	return nil
}
