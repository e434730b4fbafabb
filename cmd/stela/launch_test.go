package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stela-ml/stela/internal/dist"
	"github.com/stela-ml/stela/runtime"
)

// distHelper is a process of a launched job in the tests: it joins,
// barriers os.Args[1] times (forever for -1) and leaves.
func distHelper() {
	ctx := context.Background()
	job, err := runtime.InitDistributedFromEnv(ctx)
	if err != nil || job == nil {
		fmt.Fprintln(os.Stderr, "join:", err)
		os.Exit(2)
	}
	fmt.Printf("joined as process %d of %d\n", job.ProcessID(), job.NumProcesses())
	devs, err := job.GlobalDevices(ctx, "host")
	if err != nil {
		fmt.Fprintln(os.Stderr, "devices:", err)
		os.Exit(2)
	}
	fmt.Printf("global devices %v\n", devs)
	steps, _ := strconv.Atoi(os.Args[1])
	for i := 0; steps < 0 || i < steps; i++ {
		if err := job.Barrier(ctx, "step"); err != nil {
			fmt.Fprintln(os.Stderr, "barrier:", err)
			os.Exit(3)
		}
		if i%10 == 9 {
			fmt.Printf("step %d\n", i+1)
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("done")
	job.Close()
}

// launchBins links this test binary as stela and stela-dist-helper.
func launchBins(t *testing.T) (stela, helper string) {
	t.Helper()
	if _, err := dist.EtcdPath(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range []string{"stela", "stela-dist-helper"} {
		if err := os.Symlink(exe, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "stela"), filepath.Join(dir, "stela-dist-helper")
}

// A process's exit status is the launcher's when it fails first.
func TestLaunchExitStatus(t *testing.T) {
	stela, _ := launchBins(t)
	cmd := exec.Command(stela, "launch", "-n", "2", "--", "sh", "-c", `[ "$STELA_PROCESS_ID" = 1 ] && exit 7; sleep 600`)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("stela launch: %v, want exit status 7\n%s", err, out)
	}
	if !strings.Contains(string(out), "stela launch: process 1 of 2 failed first: exit status 7") {
		t.Errorf("output lacks the failed process:\n%s", out)
	}
}

func TestLaunch(t *testing.T) {
	stela, helper := launchBins(t)
	cmd := exec.Command(stela, "launch", "-n", "4", "--", helper, "30")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("stela launch: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
	}
	t.Logf("4 processes, 30 barriers each, with etcd's start: %v", time.Since(start))
	for p := range 4 {
		for _, want := range []string{fmt.Sprintf("[p%d] joined as process %d of 4\n", p, p), fmt.Sprintf("[p%d] step 30\n", p),
			fmt.Sprintf("[p%d] global devices [{0 0 0 host} {1 1 0 host} {2 2 0 host} {3 3 0 host}]\n", p), fmt.Sprintf("[p%d] done\n", p)} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("stdout lacks %q:\n%s", want, out.String())
			}
		}
	}
}

// TestLaunchFault kills one of 4 processes mid-run: the launcher stops the
// others and exits non-zero naming it.
func TestLaunchFault(t *testing.T) {
	stela, helper := launchBins(t)
	cmd := exec.Command(stela, "launch", "-n", "4", "--", helper, "-1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var mu sync.Mutex
	var errLines []string
	pids := make(chan int, 4)
	var wg sync.WaitGroup
	pidRe := regexp.MustCompile(`^\[launch\] p2: pid (\d+):`)
	wg.Go(func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			mu.Lock()
			errLines = append(errLines, s.Text())
			mu.Unlock()
			if m := pidRe.FindStringSubmatch(s.Text()); m != nil {
				n, _ := strconv.Atoi(m[1])
				pids <- n
			}
		}
	})
	stepped := make(chan bool, 1)
	wg.Go(func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if strings.HasPrefix(s.Text(), "[p2] step 20") {
				stepped <- true
			}
		}
	})
	var victim int
	select {
	case victim = <-pids:
	case <-time.After(2 * time.Minute):
		t.Fatal("no pid for process 2 after 2 minutes")
	}
	select {
	case <-stepped:
	case <-time.After(2 * time.Minute):
		t.Fatal("process 2 made no 20 steps in 2 minutes")
	}
	killed := time.Now()
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { wg.Wait(); waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-time.After(2 * time.Minute):
		t.Fatal("stela launch still runs 2 minutes after one of its processes was killed")
	}
	t.Logf("the launcher exited %v after the kill", time.Since(killed).Round(time.Millisecond))
	mu.Lock()
	all := strings.Join(errLines, "\n")
	mu.Unlock()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Errorf("stela launch: %v, want a non-zero exit", err)
	}
	for _, want := range []string{
		fmt.Sprintf("[launch] p2 (pid %d) failed: killed by signal killed; stopping the other processes", victim),
		"stela launch: process 2 of 4 failed first: killed by signal killed",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("stderr lacks %q:\n%s", want, all)
		}
	}
}
