package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/dist"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// spmdHelper is a process of a launched job in the fault tests: on a mesh
// over every process's CPU devices it runs, forever, a step whose
// all_reduce meets every device of the job, printing "step N" every 10.
func spmdHelper() {
	ctx := context.Background()
	job, err := runtime.InitDistributedFromEnv(ctx)
	if err != nil || job == nil {
		fmt.Fprintln(os.Stderr, "join:", err)
		os.Exit(2)
	}
	devs, err := runtime.GlobalFamilyDevices("cpu")
	if err != nil {
		fmt.Fprintln(os.Stderr, "devices:", err)
		os.Exit(2)
	}
	mesh, err := sharding.NewMesh([]string{"data"}, []int{len(devs)}, "cpu")
	if err != nil {
		fmt.Fprintln(os.Stderr, "mesh:", err)
		os.Exit(2)
	}
	step := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Sum(tensor.Mul(x, x), 0) },
		jit.WithName("fault_step"), jit.InShardings(mesh.On(sharding.P("data"))))
	x := tensor.Ones(ir.F32, 4*len(devs), 256)
	fmt.Printf("process %d of %d on %v\n", job.ProcessID(), job.NumProcesses(), mesh)
	for i := 1; ; i++ {
		err := tensor.Catch(func() {
			y := step(x)
			if v := y.Float32s()[0]; v != float32(4*len(devs)) {
				panic(fmt.Errorf("sum %v, want %d", v, 4*len(devs)))
			}
		})
		if err != nil {
			fmt.Fprintf(os.Stderr, "step %d failed: %v\n", i, err)
			os.Exit(3)
		}
		if i%10 == 0 {
			fmt.Printf("step %d\n", i)
		}
	}
}

// TestDistributedFault kills one of 4 processes (2 CPU devices each) in
// the middle of their collectives: the 3 others fail, each within the
// stated timeout (the liveness timeout, 2s here, and a margin for this
// shared machine), with an error naming the dead process; none hangs.
// The processes are started here, not by stela launch, which would stop
// the others itself.
func TestDistributedFault(t *testing.T) {
	needWorker(t)
	_, _ = launchBins(t) // skips without etcd
	e, err := dist.StartLocalEtcd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const n, victim = 4, 2
	type proc struct {
		cmd    *exec.Cmd
		stderr strings.Builder
		mu     sync.Mutex
		exited chan error
		at     time.Time
	}
	stepped := make(chan int, 64)
	procs := make([]*proc, n)
	for p := range n {
		cmd := exec.Command(exe)
		cmd.Args[0] = "stela-spmd-helper" // testscript.Main dispatches on it
		cmd.Env = append(os.Environ(), "STELA_CPU_DEVICES=2", "STELA_LIVENESS_TIMEOUT=2s", "STELA_JOB_ID=fault",
			dist.CoordinatorVar+"="+e.Endpoint, dist.NumProcessesVar+"="+strconv.Itoa(n), dist.ProcessIDVar+"="+strconv.Itoa(p))
		pr := &proc{cmd: cmd, exited: make(chan error, 1)}
		so, _ := cmd.StdoutPipe()
		se, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		procs[p] = pr
		var wg sync.WaitGroup
		wg.Go(func() {
			s := bufio.NewScanner(so)
			for s.Scan() {
				if strings.HasPrefix(s.Text(), "step ") {
					stepped <- p
				}
			}
		})
		wg.Go(func() {
			s := bufio.NewScanner(se)
			for s.Scan() {
				pr.mu.Lock()
				pr.stderr.WriteString(s.Text() + "\n")
				pr.mu.Unlock()
			}
		})
		go func() {
			wg.Wait()
			err := cmd.Wait()
			pr.at = time.Now()
			pr.exited <- err
		}()
	}
	// Every process steps (10 steps), then process 2 dies mid-run.
	seen := map[int]bool{}
	deadline := time.After(3 * time.Minute)
	for len(seen) < n {
		select {
		case p := <-stepped:
			seen[p] = true
		case <-deadline:
			for p, pr := range procs {
				pr.mu.Lock()
				t.Logf("process %d stderr:\n%s", p, pr.stderr.String())
				pr.mu.Unlock()
			}
			t.Fatalf("processes %v made 10 steps in 3 minutes, want all %d", seen, n)
		}
	}
	killed := time.Now()
	if err := procs[victim].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-procs[victim].exited
	// The stated bound: the liveness timeout (2s) plus etcd's expiry check
	// and a watch event; 30s allows for this shared 2-CPU machine.
	const bound = 30 * time.Second
	named := regexp.MustCompile(`process 2\b`)
	for p, pr := range procs {
		if p == victim {
			continue
		}
		select {
		case err := <-pr.exited:
			pr.mu.Lock()
			msg := pr.stderr.String()
			pr.mu.Unlock()
			t.Logf("process %d exited %v after the kill: %v\n%s", p, pr.at.Sub(killed).Round(time.Millisecond), err, msg)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Errorf("process %d: %v, want a non-zero exit", p, err)
			}
			if !named.MatchString(msg) {
				t.Errorf("process %d's error does not name process 2:\n%s", p, msg)
			}
		case <-time.After(bound - time.Since(killed)):
			t.Fatalf("process %d still runs %v after process %d was killed", p, bound, victim)
		}
	}
}

// TestLaunchFaultSPMD kills one of 4 processes of `stela launch` in the
// middle of their collectives: the launcher exits non-zero within the
// bound, naming it.
func TestLaunchFaultSPMD(t *testing.T) {
	needWorker(t)
	stela, helper := launchBins(t)
	spmd := strings.TrimSuffix(helper, "stela-dist-helper") + "stela-spmd-helper"
	if err := os.Symlink(stela, spmd); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(stela, "launch", "-n", "4", "--", spmd)
	cmd.Env = append(os.Environ(), "STELA_CPU_DEVICES=2", "STELA_LIVENESS_TIMEOUT=2s")
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var mu sync.Mutex
	var errText strings.Builder
	pids := make(chan int, 1)
	stepped := make(chan bool, 1)
	var wg sync.WaitGroup
	pidRe := regexp.MustCompile(`^\[launch\] p2: pid (\d+):`)
	wg.Go(func() {
		s := bufio.NewScanner(stderr)
		for s.Scan() {
			mu.Lock()
			errText.WriteString(s.Text() + "\n")
			mu.Unlock()
			if m := pidRe.FindStringSubmatch(s.Text()); m != nil {
				n, _ := strconv.Atoi(m[1])
				pids <- n
			}
		}
	})
	wg.Go(func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if strings.HasPrefix(s.Text(), "[p2] step 10") {
				stepped <- true
			}
		}
	})
	victim := <-pids
	select {
	case <-stepped:
	case <-time.After(3 * time.Minute):
		mu.Lock()
		t.Fatalf("process 2 made no 10 steps in 3 minutes:\n%s", errText.String())
	}
	killed := time.Now()
	if err := syscall.Kill(victim, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { wg.Wait(); waited <- cmd.Wait() }()
	var err error
	select {
	case err = <-waited:
	case <-time.After(30 * time.Second):
		t.Fatal("stela launch still runs 30s after one of its processes was killed")
	}
	t.Logf("the launcher exited %v after the kill", time.Since(killed).Round(time.Millisecond))
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() == 0 {
		t.Errorf("stela launch: %v, want a non-zero exit", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := "stela launch: process 2 of 4 failed first: killed by signal killed"; !strings.Contains(errText.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errText.String())
	}
}
