package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/stela-ml/stela/runtime/check"
)

// runCheck implements the contract in check-contract.md: exit 0 when every
// expectation held, 1 when one failed, 2 when the program is rejected.
func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", stderr)
	plugin := fs.String("plugin", "", "plugin name or path (default: the Stela CPU plugin)")
	path, err := oneFile(fs, args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError{2}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError{2}
	}
	c, err := openClient(*plugin, 0)
	if err != nil {
		fmt.Fprintf(stderr, "stela check: %v\n", err)
		return exitError{2}
	}
	defer c.Destroy()
	rep, err := check.Run(src, check.PJRTRunner{Client: c})
	var rej *check.Rejected
	switch {
	case errors.As(err, &rej):
		fmt.Fprintf(stderr, "%s: %s\n", path, rej.Reason)
		return exitError{2}
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", path, err)
		return exitError{1}
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(stderr, "%s: FAIL %s\n", path, f)
	}
	if !rep.OK() {
		fmt.Fprintf(stdout, "%s: %d of %d checks failed\n", path, len(rep.Failures), rep.Checks)
		return exitError{1}
	}
	fmt.Fprintf(stdout, "%s: ok (%d checks in %d entries)\n", path, rep.Checks, rep.Entries)
	return nil
}
