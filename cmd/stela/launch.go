package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/stela-ml/stela/internal/dist"
)

// launchGrace is how long the launcher waits for the other processes to
// stop after SIGTERM before it kills them.
const launchGrace = 5 * time.Second

// runLaunch runs N processes of one program as a job (docs/distributed.md).
func runLaunch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("launch")
	n := fs.Int("n", 2, "the number `N` of processes")
	coord := fs.String("coordinator", "", "the etcd endpoints `ADDR` (host:port, comma-separated) of an existing store; default: start an etcd on loopback for the job")
	job := fs.String("job", "", "the job `ID`, the key prefix in etcd; default: a fresh random one")
	if err := fs.Parse(args); err != nil {
		return err
	}
	prog := fs.Args()
	if len(prog) > 0 && prog[0] == "--" {
		prog = prog[1:]
	}
	if len(prog) == 0 {
		return usagef("no program to run: stela launch -n N -- PROGRAM ARGS")
	}
	if *n < 1 {
		return usagef("-n %d: want at least 1 process", *n)
	}
	if *job == "" {
		var b [6]byte
		rand.Read(b[:])
		*job = "launch-" + hex.EncodeToString(b[:])
	}
	if *coord == "" {
		e, err := dist.StartLocalEtcd(context.Background())
		if err != nil {
			return err
		}
		defer e.Close()
		*coord = e.Endpoint
	}
	l := &launcher{stdout: stdout, stderr: stderr, n: *n}
	code, err := l.run(prog, []string{
		dist.CoordinatorVar + "=" + *coord,
		dist.NumProcessesVar + "=" + strconv.Itoa(*n),
		dist.JobIDVar + "=" + *job,
	})
	if err != nil && code != 0 {
		// The failed process's exit status is the launcher's.
		fmt.Fprintf(stderr, "stela launch: %v\n", err)
		return exitError{code}
	}
	return err
}

type launcher struct {
	stdout, stderr io.Writer
	n              int
	mu             sync.Mutex // serializes output lines
}

type launched struct {
	p    int
	cmd  *exec.Cmd
	tail []string // the last lines of its stderr
	out  sync.WaitGroup
}

type exited struct {
	p   int
	err error
}

// run starts the processes and waits for them; the first to fail stops
// the others. It returns the exit status for stela.
func (l *launcher) run(prog []string, env []string) (int, error) {
	procs := make([]*launched, l.n)
	done := make(chan exited, l.n)
	stopAll := func(sig syscall.Signal) {
		for _, pr := range procs {
			if pr != nil && pr.cmd.ProcessState == nil {
				syscall.Kill(-pr.cmd.Process.Pid, sig) // its process group
			}
		}
	}
	for p := range l.n {
		cmd := exec.Command(prog[0], prog[1:]...)
		cmd.Env = append(append(os.Environ(), env...), dist.ProcessIDVar+"="+strconv.Itoa(p))
		// Each process leads its own group, so that stopping it stops what
		// it started; and dies with the launcher.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		pr := &launched{p: p, cmd: cmd}
		so, err := cmd.StdoutPipe()
		if err != nil {
			return 0, err
		}
		se, err := cmd.StderrPipe()
		if err != nil {
			return 0, err
		}
		if err := cmd.Start(); err != nil {
			stopAll(syscall.SIGKILL)
			return 0, fmt.Errorf("starting process %d: %w", p, err)
		}
		procs[p] = pr
		pr.out.Add(2)
		go l.copyLines(pr, so, l.stdout, false)
		go l.copyLines(pr, se, l.stderr, true)
		go func() {
			pr.out.Wait() // the pipes' ends, before Wait closes them
			done <- exited{p, cmd.Wait()}
		}()
		l.linef(l.stderr, "[launch] p%d: pid %d: %s\n", p, cmd.Process.Pid, strings.Join(prog, " "))
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)

	var first *exited
	left := l.n
	var kill <-chan time.Time
	for left > 0 {
		select {
		case e := <-done:
			left--
			if e.err != nil && first == nil {
				first = &e
				pr := procs[e.p]
				l.linef(l.stderr, "[launch] p%d (pid %d) failed: %v; stopping the other processes\n", e.p, pr.cmd.Process.Pid, describeExit(e.err))
				for _, t := range pr.tail {
					l.linef(l.stderr, "[launch] p%d: %s\n", e.p, t)
				}
				stopAll(syscall.SIGTERM)
				kill = time.After(launchGrace)
			}
		case s := <-sigs:
			l.linef(l.stderr, "[launch] %v: stopping all processes\n", s)
			stopAll(syscall.SIGTERM)
			if first == nil {
				first = &exited{p: -1, err: errors.New(s.String())}
			}
			kill = time.After(launchGrace)
		case <-kill:
			l.linef(l.stderr, "[launch] processes still running %v after SIGTERM: killing them\n", launchGrace)
			stopAll(syscall.SIGKILL)
			kill = nil
		}
	}
	if first == nil {
		return 0, nil
	}
	if first.p < 0 {
		return 1, fmt.Errorf("interrupted (%v)", first.err)
	}
	code := 1
	var ee *exec.ExitError
	if errors.As(first.err, &ee) && ee.ExitCode() > 0 {
		code = ee.ExitCode()
	}
	return code, fmt.Errorf("process %d of %d failed first: %s", first.p, l.n, describeExit(first.err))
}

// describeExit says how a process ended.
func describeExit(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by signal " + ws.Signal().String()
		}
		return fmt.Sprintf("exit status %d", ee.ExitCode())
	}
	return err.Error()
}

// tailLines is how many of a process's last stderr lines the launcher
// repeats when it fails first.
const tailLines = 5

// copyLines copies r to w line by line, each with the process's prefix.
func (l *launcher) copyLines(pr *launched, r io.Reader, w io.Writer, keep bool) {
	defer pr.out.Done()
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if !strings.HasSuffix(line, "\n") {
				line += "\n"
			}
			l.linef(w, "[p%d] %s", pr.p, line)
			if keep {
				l.mu.Lock()
				pr.tail = append(pr.tail, strings.TrimSuffix(line, "\n"))
				if len(pr.tail) > tailLines {
					pr.tail = pr.tail[1:]
				}
				l.mu.Unlock()
			}
		}
		if err != nil {
			return
		}
	}
}

func (l *launcher) linef(w io.Writer, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(w, format, args...)
}
