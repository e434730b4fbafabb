package main

import (
	"fmt"
	"io"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/lowering"
	"github.com/stela-ml/stela/stablehlo"
)

func runDump(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("dump", stderr)
	name := fs.String("example", "", "built-in example: "+fmt.Sprint(examples.Names()))
	stage := fs.String("stage", "ir", "stage to print: ir or stablehlo")
	locs := fs.Bool("locations", false, "print source locations")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *name == "" {
		return fmt.Errorf("--example is required (one of %v)", examples.Names())
	}
	ex, err := examples.Get(*name)
	if err != nil {
		return err
	}
	tr, err := examples.Trace(ex)
	if err != nil {
		return err
	}
	f := tr.Func
	if err := ir.Verify(f); err != nil {
		return fmt.Errorf("traced %s does not verify:\n%v", *name, err)
	}
	switch *stage {
	case "ir":
		ir.Print(stdout, f, ir.PrintOptions{Locations: *locs})
		return nil
	case "stablehlo":
		m, err := lowering.Lower(f, lowering.Options{})
		if err != nil {
			return err
		}
		return stablehlo.Print(stdout, m, stablehlo.PrintOptions{Locations: *locs})
	}
	return fmt.Errorf("unknown stage %q (want ir or stablehlo)", *stage)
}
