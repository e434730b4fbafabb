package cpu

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Fault injection for the worker's external tools (issue 20): opt and
// llc missing, crashing, exiting with an error, hanging, and leaving a
// child behind that holds their stderr. The tools are found on PATH
// (findTools), so each case puts a directory first on PATH that holds a
// fake script for the tool under test and the real other tools. These
// scripts stand for broken LLVM installations, not for Stela's code.

// toolDir makes a PATH directory with links to the real opt, llc,
// llvm-split and cc, and script (when not "") as the tool named fake
// ("" script: the tool is missing).
func toolDir(t *testing.T, fake, script string) string {
	t.Helper()
	tl, err := findTools()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for name, p := range map[string]string{"opt": tl.opt, "llc": tl.llc, "cc": tl.cc, "llvm-split": tl.split} {
		if name == fake || p == "" {
			continue
		}
		if err := os.Symlink(p, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, fake), []byte("#!/bin/sh\nPATH=/usr/bin:/bin\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// workerWithPath runs the test binary as the worker on addProgram with
// only dir on PATH (the shell the scripts need is found by its #! line),
// and extra environment. A worker that has not returned after a minute
// is killed and the test fails: that is a hang, whatever the machine's
// speed.
func workerWithPath(t *testing.T, dir string, env ...string) (code int, stderr string) {
	t.Helper()
	tmp := t.TempDir()
	prog, opts, out := filepath.Join(tmp, "p.mlir"), filepath.Join(tmp, "o.pb"), filepath.Join(tmp, "out.so")
	os.WriteFile(prog, []byte(addProgram), 0o644)
	os.WriteFile(opts, nil, 0o644)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "compile", prog, opts, out)
	// STELA_CPU_LLVM=tools: the fake opt and llc run, not LLVM in process.
	cmd.Env = append(append(os.Environ(), "STELA_CPU_WORKER=1", "STELA_CPU_LLVM=tools", "PATH="+dir, "TMPDIR="+tmp), env...)
	var e strings.Builder
	cmd.Stderr = &e
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the worker did not return within a minute (hung); stderr:\n%s", e.String())
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code == 0 {
		if _, err := os.Stat(out); err != nil {
			t.Errorf("exit 0 without %s", out)
		}
	}
	return code, e.String()
}

func TestWorkerToolFaults(t *testing.T) {
	needLLVM(t)
	t.Parallel()
	for _, tool := range []string{"opt", "llc"} {
		for _, c := range []struct {
			name, script string
			env          []string
			code         int
			first        string // a substring of the first line
		}{
			{"missing", "", nil, exitUnavailable, "not found on PATH"},
			{"crashing", "kill -SEGV $$", nil, exitInternal, tool + " was killed by signal: segmentation fault"},
			{"failing", "echo 'LLVM ERROR: out of luck' >&2; exit 1", nil, exitInternal, "LLVM ERROR: out of luck"},
			{"hanging", "exec sleep 600", []string{"STELA_CPU_WORKER_TIMEOUT_MS=1500"}, exitUnavailable, tool + " ran past the compile's time limit"},
		} {
			t.Run(tool+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				code, stderr := workerWithPath(t, toolDir(t, tool, c.script), c.env...)
				if code != c.code || !strings.Contains(firstLine(stderr), c.first) {
					t.Errorf("exit %d, stderr:\n%s\nwant exit %d and a first line containing %q", code, stderr, c.code, c.first)
				}
			})
		}
	}
}

// TestWorkerToolChildHoldsStderr: an opt that exits but leaves a child
// holding its stderr (issue 20: the worker waited for the pipe until the
// plugin's timeout killed it) fails at once, and the child is killed with
// the tool's process group.
func TestWorkerToolChildHoldsStderr(t *testing.T) {
	needLLVM(t)
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	code, stderr := workerWithPath(t, toolDir(t, "opt", "sleep 600 & echo $! > "+pidFile+"; echo 'opt: something broke' >&2; exit 1"))
	if code != exitInternal || !strings.Contains(firstLine(stderr), "something broke") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d, something broke", code, stderr, exitInternal)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	// The child was SIGKILLed and, reparented to init, reaped: either it
	// is gone or a zombie about to be.
	if err := syscall.Kill(pid, 0); err == nil {
		if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); !strings.Contains(string(st), ") Z ") {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the tool's child %d still runs after the worker returned", pid)
		}
	}
}

// TestWorkerReproducer: an internal error (exit 12; here opt fails) saves
// the program in STELA_CPU_REPRO_DIR, named by its hash, with the error as
// a comment, and the first line of stderr names the file.
func TestWorkerReproducer(t *testing.T) {
	needLLVM(t)
	t.Parallel()
	repro := t.TempDir()
	code, stderr := workerWithPath(t, toolDir(t, "opt", "echo 'LLVM ERROR: out of luck' >&2; exit 1"), "STELA_CPU_REPRO_DIR="+repro)
	first := firstLine(stderr)
	if code != exitInternal || !strings.Contains(first, "reproducer: "+repro+"/internal-") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and a first line naming a reproducer in %s", code, stderr, exitInternal, repro)
	}
	files, _ := filepath.Glob(filepath.Join(repro, "internal-*.mlir"))
	if len(files) != 1 || !strings.Contains(first, files[0]) {
		t.Fatalf("reproducers %v, first line %q", files, first)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(b), "// internal error: ") || !strings.HasSuffix(string(b), addProgram) {
		t.Errorf("reproducer:\n%s\nwant the error as a comment, then the program", b)
	}
}
