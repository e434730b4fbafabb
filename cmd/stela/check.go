package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/stela-ml/stela/internal/env"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/runtime/check"
)

// runCheck implements the contract in check-contract.md: exit 0 when every
// expectation held, 1 when one failed, 2 when the program is rejected.
// Exit 3 is Stela's own: the plugin's compiler failed on its own account
// (PJRT code INTERNAL: a bug of the code generator, whose message names a
// reproducer file, or a crash of the compile worker), which is neither a
// verdict on the program nor a refusal; the contract counts it as a crash.
//
// Several files run on one client (a GPU or TPU plugin's client takes
// seconds to open), each printing its own line; the exit status is then
// the worst of theirs, a compiler error counting worse than a failure,
// and a failure worse than a rejection. A file
// that does not pass also gets a line "FILE: exit N" on stdout then, for
// scripts that run many files at once (test/device/run.sh).
func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check")
	plugin := fs.String("plugin", "", "the PJRT plugin, by `NAME|PATH` (default: the Stela CPU plugin)")
	timeout := timeoutFlag(fs)
	paths, err := parseArgs(fs, args)
	if err != nil {
		return err // a usage error: exit 2, as for a rejected file
	}
	limit, err := timeout()
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("want at least one file argument")
	}
	var c *pjrt.Client
	code := 0
	for _, path := range paths {
		src, err := readInput(path)
		fileCode := 2
		if err != nil {
			fmt.Fprintln(stderr, err)
		} else {
			if c == nil {
				if c, err = openClient(*plugin, 0); err != nil {
					fmt.Fprintf(stderr, "stela check: %v\n", err)
					return exitError{2}
				}
				defer c.Destroy()
			}
			fileCode = checkFile(c, limit, path, src, stdout, stderr)
		}
		if fileCode != 0 && len(paths) > 1 {
			fmt.Fprintf(stdout, "%s: exit %d\n", path, fileCode)
		}
		code = worseCheckCode(code, fileCode)
	}
	if code != 0 {
		return exitError{code}
	}
	return nil
}

// checkFile runs one file's checks on c and returns its exit status.
func checkFile(c *pjrt.Client, timeout time.Duration, path string, src []byte, stdout, stderr io.Writer) int {
	rep, err := check.Run(src, check.PJRTRunner{Client: c, Timeout: timeout})
	var rej *check.Rejected
	var ce *check.CompilerError
	switch {
	case errors.As(err, &rej):
		fmt.Fprintf(stderr, "%s: %s\n", path, rej.Reason)
		return 2
	case errors.As(err, &ce):
		fmt.Fprintf(stderr, "%s: compiler error: %s\n", path, ce.Msg)
		return 3
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", path, err)
		return 1
	}
	for _, f := range rep.Failures {
		if f.Exp.Line > 0 {
			fmt.Fprintf(stderr, "%s:%s\n", path, f) // FILE:LINE: check.op: message
		} else {
			fmt.Fprintf(stderr, "%s: %s\n", path, f)
		}
	}
	if !rep.OK() {
		fmt.Fprintf(stdout, "%s: %d of %d checks failed\n", path, len(rep.Failures), rep.Checks)
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok (%d checks in %d entries)\n", path, rep.Checks, rep.Entries)
	return 0
}

// worseCheckCode orders exit statuses: a compiler error (3) is worse than
// a failure (1), which is worse than a rejection (2), which is worse than
// success (0).
func worseCheckCode(a, b int) int {
	rank := func(c int) int { return [...]int{0, 2, 1, 3}[c] }
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// timeoutFlag defines --timeout, the time limit of each execution, whose
// default is $STELA_EXEC_TIMEOUT (else none); the returned function gives
// its value after parsing, or the error of a malformed environment value
// when the flag was not given.
func timeoutFlag(fs *flagSet) func() (time.Duration, error) {
	d := fs.Duration("timeout", 0, "stop each execution after `DURATION` (30s, 5m) with a deadline-exceeded error (default $"+env.ExecTimeoutVar+", else no limit)")
	return func() (time.Duration, error) {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "timeout" })
		if set {
			if *d < 0 {
				return 0, usagef("--timeout %v: want a positive duration, or 0 for no limit", *d)
			}
			return *d, nil
		}
		return env.ExecTimeout()
	}
}
