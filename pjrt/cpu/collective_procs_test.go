package cpu

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stela-ml/stela/internal/dist"
	"github.com/stela-ml/stela/pjrt"
)

// The collective tests across processes: TestCollectivesAcrossProcesses
// runs the collective tests (every op, grouping, element type, the
// segmented and in-place all_reduce) in 2 processes of a job, each
// holding half of every execution's devices: mesh device d is on process
// d mod 2 (so that every group of two or more spans both), and each
// process checks the results of its own devices against the spec's
// values, as the tests do in one process.

// crossEnv marks a process of that job.
const crossEnv = "STELA_TEST_COLLECTIVE_PROCS"

var cross struct {
	once sync.Once
	job  *dist.Job
	err  error
}

// crossJob is this test process's job when it is one of
// TestCollectivesAcrossProcesses's, else nil.
func crossJob(t testing.TB) *dist.Job {
	if os.Getenv(crossEnv) == "" {
		return nil
	}
	cross.once.Do(func() {
		c, ok, err := dist.FromEnv()
		if err != nil || !ok {
			cross.err = err
			return
		}
		cross.job, cross.err = dist.Join(context.Background(), c)
	})
	if cross.err != nil || cross.job == nil {
		t.Fatalf("joining the job: %v", cross.err)
	}
	return cross.job
}

// globalID is the device id of mesh device d in a device assignment: d,
// or, in the job, local device d/K of process d%K.
func globalID(t testing.TB, c *pjrt.Client, d int) int {
	job := crossJob(t)
	if job == nil {
		return d
	}
	k := job.NumProcesses()
	return (d%k)*len(c.AddressableDevices()) + d/k
}

// execIndex is the execution index (mesh device) of an executable's k-th
// addressable device.
func execIndex(t testing.TB, k int) int {
	job := crossJob(t)
	if job == nil {
		return k
	}
	return k*job.NumProcesses() + job.ProcessID()
}

func TestCollectivesAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if os.Getenv(crossEnv) != "" {
		t.Skip("a process of the job")
	}
	realClient(t, 2) // skips without LLVM
	if glooCompiler() == nil {
		t.Skip("the plugin is built without Gloo here (no libgloo-dev or C++ compiler)")
	}
	e, err := dist.StartLocalEtcd(context.Background())
	if err != nil {
		if os.Getenv("CI") != "true" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	defer e.Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const n = 2
	tests := "^TestCollective(AllReduce|AllGather|ReduceScatter|AllToAll|Permute|Broadcast|AllReduceInPlace|InLoop)$"
	outs := make([]strings.Builder, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for p := range n {
		cmd := exec.Command(exe, "-test.run", tests, "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), crossEnv+"=1", "STELA_JOB_ID=collectives",
			dist.CoordinatorVar+"="+e.Endpoint, dist.NumProcessesVar+"="+strconv.Itoa(n), dist.ProcessIDVar+"="+strconv.Itoa(p))
		cmd.Stdout, cmd.Stderr = &outs[p], &outs[p]
		wg.Go(func() { errs[p] = cmd.Run() })
	}
	wg.Wait()
	for p := range n {
		out := outs[p].String()
		if errs[p] != nil || !strings.Contains(out, "--- PASS: TestCollectiveAllReduce ") {
			t.Errorf("process %d: %v\n%s", p, errs[p], out)
			continue
		}
		t.Logf("process %d: %d passed, %d skipped", p, strings.Count(out, "--- PASS"), strings.Count(out, "--- SKIP"))
	}
}
