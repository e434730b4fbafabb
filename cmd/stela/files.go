package main

import (
	"fmt"
	"io"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/stablehlo"
)

func runFmt(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("fmt")
	locs := fs.Bool("locations", false, "print locations (loc(...))")
	path, err := oneFile(fs, args)
	if err != nil {
		return err
	}
	src, err := readInput(path)
	if err != nil {
		return err
	}
	m, err := stablehlo.Parse(src)
	if err != nil {
		return fmt.Errorf("%s:%w", path, err)
	}
	return stablehlo.Print(stdout, m, stablehlo.PrintOptions{Locations: *locs})
}

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify")
	path, err := oneFile(fs, args)
	if err != nil {
		return err
	}
	src, err := readInput(path)
	if err != nil {
		return err
	}
	m, err := ir.Parse(string(src))
	if err != nil {
		return fmt.Errorf("%s:%w", path, err)
	}
	if len(m.Funcs) == 0 {
		// Rejected rather than "ok (0 functions)": nothing was verified,
		// and an empty or truncated file is a mistake to report.
		fmt.Fprintf(stderr, "%s: no functions to verify (an empty module)\n", path)
		return exitError{1}
	}
	bad := false
	for _, f := range m.Funcs {
		if err := ir.Verify(f); err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			bad = true
		}
	}
	if bad {
		return exitError{1}
	}
	fmt.Fprintf(stdout, "%s: ok (%d functions)\n", path, len(m.Funcs))
	return nil
}
