package main

import (
	"fmt"
	"io"
	"os"

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
	src, err := os.ReadFile(path)
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
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	m, err := ir.Parse(string(src))
	if err != nil {
		return fmt.Errorf("%s:%w", path, err)
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
