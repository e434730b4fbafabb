package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/stablehlo"
)

// runHash prints the key under which the runtime caches a program's
// executable on a device: the same hash that STELA_LOG=compile shows. Stela
// IR (a .sir file or an example) goes through the pass pipeline first,
// passes.Default unless --pipeline says otherwise, and is then lowered, as
// jit.Compile does, so that the key of an example (or of a traced program
// dumped as .sir, STELA_DUMP's before.sir) is the one its jit-compiled
// function is cached under; IR the passes already ran on (after.sir)
// takes --pipeline= (none).
// StableHLO text is hashed as the runtime would compile it: in canonical
// form without locations.
func runHash(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("hash")
	device := fs.String("device", "cpu", "the `DEVICE` whose platform compiles the program")
	example := fs.String("example", "", "hash the built-in example `NAME` (traced as jit.Compile traces it) instead of a file")
	pipeline := fs.String("pipeline", "default", "run this `PIPELINE` on Stela IR first, as jit.Compile does (--pipeline= for none)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	var f *ir.Func
	switch {
	case *example != "":
		if len(pos) != 0 {
			return usagef("--example takes no file argument")
		}
		tr, err := examples.TraceNamed(*example)
		if err != nil {
			return err
		}
		f = tr.Func
	case len(pos) == 1 && strings.HasSuffix(pos[0], ".mlir"):
		src, err := readInput(pos[0])
		if err != nil {
			return err
		}
		m, err := stablehlo.Parse(src)
		if err != nil {
			return err
		}
		h, err := runtime.HashOfText(*device, string(stablehlo.Format(m, stablehlo.PrintOptions{})))
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, h)
		return nil
	case len(pos) == 1:
		src, err := readInput(pos[0])
		if err != nil {
			return err
		}
		if f, err = ir.ParseFunc(string(src)); err != nil {
			return err
		}
	default:
		return usagef("want one FILE.sir or FILE.mlir, or --example NAME")
	}
	if *pipeline != "" {
		ps, err := passes.ParsePipeline(*pipeline)
		if err != nil {
			return err
		}
		m := &ir.Module{Funcs: []*ir.Func{f}}
		if _, err := passes.Run(m, ps, passes.Options{}); err != nil {
			return err
		}
		f = m.Funcs[0]
	}
	h, err := runtime.HashOf(*device, f)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, h)
	return nil
}
