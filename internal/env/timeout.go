package env

import (
	"fmt"
	"os"
	"time"
)

// ExecTimeoutVar bounds every execution of a compiled program (runtime's
// Executable runs, eager ops, `stela run` and `stela check`;
// docs/limits.md): a Go duration ("30s", "5m", "1h30m"), or 0 (the
// default) for no limit. An execution that runs longer is stopped by the
// Stela CPU plugin at its next check (a while loop's back-edge, a kernel,
// a chunk of a parallel loop) and fails with DEADLINE_EXCEEDED. A
// context.Context given to Executable.Run (runtime.RunContext) with an
// earlier deadline wins.
const ExecTimeoutVar = "STELA_EXEC_TIMEOUT"

// ExecTimeout returns the execution time limit of ExecTimeoutVar (0: none).
func ExecTimeout() (time.Duration, error) {
	s := os.Getenv(ExecTimeoutVar)
	if s == "" || s == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%s=%s: want a time limit for each execution as a Go duration (30s, 5m, 1h30m), or 0 for none", ExecTimeoutVar, s)
	}
	return d, nil
}
