package dist_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stela-ml/stela/internal/dist"
)

// etcd starts a real etcd on loopback for the test. Without the binary the
// test skips, except under CI=true, where .ci/run installs etcd-server.
func etcd(t *testing.T) *dist.LocalEtcd {
	t.Helper()
	e, err := dist.StartLocalEtcd(context.Background())
	if errors.Is(err, dist.ErrNoEtcd) && os.Getenv("CI") != "true" {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// joinAll joins n processes (goroutines of this test, each with its own
// etcd client and lease) and returns their jobs.
func joinAll(t *testing.T, coord string, n int, tweak func(p int, c *dist.Config)) ([]*dist.Job, []error) {
	t.Helper()
	jobs := make([]*dist.Job, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for p := range n {
		wg.Go(func() {
			c := dist.Config{Coordinator: coord, ProcessID: p, NumProcesses: n, JobID: "t", ProgramHash: "h", JoinTimeout: time.Minute}
			if tweak != nil {
				tweak(p, &c)
			}
			jobs[p], errs[p] = dist.Join(context.Background(), c)
		})
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, j := range jobs {
			if j != nil {
				j.Close()
			}
		}
	})
	return jobs, errs
}

func TestJoinDevicesBarrier(t *testing.T) {
	e := etcd(t)
	const n = 4
	start := time.Now()
	jobs, errs := joinAll(t, e.Endpoint, n, nil)
	for p, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", p, err)
		}
	}
	t.Logf("%d processes joined in %v", n, time.Since(start))
	ctx := context.Background()
	lists := make([][]dist.Device, n)
	var wg sync.WaitGroup
	for p, j := range jobs {
		wg.Go(func() {
			lists[p], errs[p] = j.AgreeDevices(ctx, "cpu", []string{"cpu", "cpu"})
		})
	}
	wg.Wait()
	for p := range n {
		if errs[p] != nil {
			t.Fatalf("process %d: AgreeDevices: %v", p, errs[p])
		}
		if len(lists[p]) != 2*n {
			t.Fatalf("process %d: %d devices, want %d", p, len(lists[p]), 2*n)
		}
		for g, d := range lists[p] {
			if d.Global != g || d.Process != g/2 || d.Local != g%2 || d.Kind != "cpu" {
				t.Errorf("process %d: device %d is %+v", p, g, d)
			}
		}
		if !slices.Equal(lists[p], lists[0]) {
			t.Errorf("process %d's list %v differs from process 0's %v", p, lists[p], lists[0])
		}
	}
	// Barriers: every process waits for all. A counter checks that no
	// process leaves barrier i before every process has reached it.
	const rounds = 50
	var mu sync.Mutex
	arrived := make([]int, rounds)
	start = time.Now()
	for p, j := range jobs {
		wg.Go(func() {
			for i := range rounds {
				mu.Lock()
				arrived[i]++
				mu.Unlock()
				if err := j.Barrier(ctx, "step"); err != nil {
					errs[p] = err
					return
				}
				mu.Lock()
				if arrived[i] != n {
					errs[p] = fmt.Errorf("left barrier %d with %d of %d arrived", i, arrived[i], n)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for p, err := range errs {
		if err != nil {
			t.Errorf("process %d: %v", p, err)
		}
	}
	t.Logf("%d barriers of %d processes: %v each", rounds, n, time.Since(start)/rounds)
}

func TestKeyValue(t *testing.T) {
	e := etcd(t)
	jobs, errs := joinAll(t, e.Endpoint, 2, nil)
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, ok, err := jobs[1].TryGet(ctx, "a"); ok || err != nil {
		t.Fatalf("TryGet of a missing key: ok %v, err %v", ok, err)
	}
	if _, err := jobs[1].Get(ctx, "a", 300*time.Millisecond); !errors.Is(err, dist.ErrTimeout) {
		t.Fatalf("Get of a missing key: %v, want ErrTimeout", err)
	}
	got := make(chan []byte, 1)
	go func() {
		v, err := jobs[1].Get(ctx, "b", time.Minute)
		if err != nil {
			t.Error(err)
		}
		got <- v
	}()
	if err := jobs[0].Put(ctx, "b", []byte("value\x00bytes")); err != nil {
		t.Fatal(err)
	}
	if v := <-got; string(v) != "value\x00bytes" {
		t.Errorf("Get waited for %q, want the bytes put", v)
	}
	if v, ok, err := jobs[1].TryGet(ctx, "b"); !ok || err != nil || string(v) != "value\x00bytes" {
		t.Errorf("TryGet: %q %v %v", v, ok, err)
	}
}

func TestRefused(t *testing.T) {
	e := etcd(t)
	t.Run("program hash", func(t *testing.T) {
		_, errs := joinAll(t, e.Endpoint, 2, func(p int, c *dist.Config) {
			c.JobID = "hash"
			if p == 1 {
				c.ProgramHash = "other"
			}
		})
		for p, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "must run the same program") {
				t.Errorf("process %d: %v, want a refusal for the program hash", p, err)
			}
		}
		t.Log(errs[0])
	})
	t.Run("process count", func(t *testing.T) {
		_, errs := joinAll(t, e.Endpoint, 2, func(p int, c *dist.Config) {
			c.JobID = "count"
			c.JoinTimeout = 10 * time.Second
			if p == 1 {
				c.NumProcesses = 3
			}
		})
		if errs[0] == nil || !strings.Contains(errs[0].Error(), "needs the same count") {
			t.Errorf("process 0: %v, want a refusal for the process count", errs[0])
		}
		t.Log(errs[0])
	})
	t.Run("device count", func(t *testing.T) {
		jobs, errs := joinAll(t, e.Endpoint, 2, func(p int, c *dist.Config) { c.JobID = "devices" })
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for p, j := range jobs {
			wg.Go(func() {
				kinds := []string{"cpu", "cpu"}
				if p == 1 {
					kinds = append(kinds, "cpu")
				}
				_, errs[p] = j.AgreeDevices(context.Background(), "cpu", kinds)
			})
		}
		wg.Wait()
		for p, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "needs the same devices") {
				t.Errorf("process %d: %v, want a refusal for the device count", p, err)
			}
		}
		t.Log(errs[0])
	})
	t.Run("process id taken", func(t *testing.T) {
		_, errs := joinAll(t, e.Endpoint, 2, func(p int, c *dist.Config) {
			c.JobID = "dup"
			c.ProcessID = 0
			c.JoinTimeout = 5 * time.Second
		})
		var taken int
		for _, err := range errs {
			if err != nil && strings.Contains(err.Error(), "already taken") {
				taken++
				t.Log(err)
			}
		}
		if taken != 1 {
			t.Errorf("errors %v: want one 'already taken'", errs)
		}
	})
}

func TestBarrierTimeout(t *testing.T) {
	e := etcd(t)
	jobs, errs := joinAll(t, e.Endpoint, 3, nil)
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { errs[1] = jobs[1].Barrier(ctx, "b") })
	err := jobs[0].Barrier(ctx, "b")
	wg.Wait()
	for _, err := range []error{err, errs[1]} {
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting for processes 2:") {
			t.Errorf("barrier without process 2: %v, want a deadline error naming process 2", err)
		}
	}
	t.Log(err)
}

// TestMain runs the helper process of TestDeath when asked to.
func TestMain(m *testing.M) {
	if os.Getenv("STELA_DIST_HELPER") == "1" {
		helper()
		return
	}
	os.Exit(m.Run())
}

// helper joins the job of the environment and barriers until an error,
// which it prints with the time since its last successful barrier.
func helper() {
	c, _, err := dist.FromEnv()
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(2)
	}
	c.JoinTimeout = time.Minute
	j, err := dist.Join(context.Background(), c)
	if err != nil {
		fmt.Println("ERROR", err)
		os.Exit(2)
	}
	fmt.Println("JOINED")
	for i := 0; ; i++ {
		if err := j.Barrier(context.Background(), "step"); err != nil {
			var pe *dist.PeerError
			fmt.Printf("FAILED %v %d %v\n", errors.As(err, &pe), func() int {
				if pe != nil {
					return pe.Process
				}
				return -1
			}(), err)
			os.Exit(3)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestDeath kills one of 4 real processes while they barrier: the others
// fail with a PeerError naming it, without hanging. The liveness timeout
// is the default's 5 s: with 2 s, a CI machine loaded by the other test
// packages delayed the survivors' own lease renewals past their TTL (each
// lost its lease before the victim's expired).
func TestDeath(t *testing.T) {
	e := etcd(t)
	const n, victim = 4, 2
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type proc struct {
		cmd   *exec.Cmd
		lines chan string
	}
	procs := make([]proc, n)
	for p := range n {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), "STELA_DIST_HELPER=1", dist.CoordinatorVar+"="+e.Endpoint,
			dist.ProcessIDVar+"="+strconv.Itoa(p), dist.NumProcessesVar+"="+strconv.Itoa(n),
			dist.JobIDVar+"=death", dist.LivenessVar+"=5s")
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		lines := make(chan string, 16)
		go func() {
			s := bufio.NewScanner(out)
			for s.Scan() {
				lines <- s.Text()
			}
			close(lines)
		}()
		procs[p] = proc{cmd, lines}
	}
	next := func(p int) string {
		select {
		case l, ok := <-procs[p].lines:
			if !ok {
				return "(no output)"
			}
			return l
		case <-time.After(2 * time.Minute):
			t.Fatalf("process %d: no output after 2 minutes", p)
			return ""
		}
	}
	for p := range n {
		if l := next(p); l != "JOINED" {
			t.Fatalf("process %d: %s", p, l)
		}
	}
	time.Sleep(500 * time.Millisecond) // some barriers
	killed := time.Now()
	if err := procs[victim].cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for p := range n {
		if p == victim {
			continue
		}
		l := next(p)
		t.Logf("process %d after %v: %s", p, time.Since(killed).Round(time.Millisecond), l)
		if !strings.HasPrefix(l, fmt.Sprintf("FAILED true %d ", victim)) || !strings.Contains(l, fmt.Sprintf("process %d (", victim)) || !strings.Contains(l, "died") {
			t.Errorf("process %d: %q, want a PeerError naming process %d as dead", p, l, victim)
		}
	}
}
