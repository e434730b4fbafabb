package runtime

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/stela-ml/stela/internal/dist"
	"github.com/stela-ml/stela/pjrt"
)

// Job is this process's membership in a multi-process job, coordinated
// through etcd (docs/distributed.md): InitDistributed joins one.
type Job struct {
	j         *dist.Job
	mu        sync.Mutex
	onFailure func(error)
	global    map[string][]Device // GlobalFamilyDevices, by family
}

// PeerError is the error of a job's blocking operations once a process
// of the job died: it names the process.
type PeerError = dist.PeerError

// GlobalDevice is one device of a job's global device list: processes'
// devices in process order, each process's in its local order.
type GlobalDevice = dist.Device

var distributed struct {
	sync.Mutex
	job *Job
}

// InitDistributed joins this process to a job: coordinator is the etcd
// endpoints ("127.0.0.1:2379", comma-separated for a cluster), processID
// this process's id in 0 ... numProcesses-1. It returns when every
// process has joined and all run the same program (the SHA-256 of their
// executables) with the same process count, and fails with a clear
// error otherwise. From then on, each process holds an etcd lease: a
// process that dies is named to the others within the liveness timeout
// (STELA_LIVENESS_TIMEOUT, default 5s), and, unless OnFailure replaces
// the default, each other process then prints the error and exits with
// status 1, so that no process waits forever on a dead one. PJRT clients
// of CUDA and TPU devices opened afterwards get the job's key-value
// store and node options (docs/distributed.md). STELA_JOB_ID names the
// job when several share one etcd.
func InitDistributed(ctx context.Context, coordinator string, processID, numProcesses int) (*Job, error) {
	c := dist.Config{Coordinator: coordinator, ProcessID: processID, NumProcesses: numProcesses}
	if env, ok, err := dist.FromEnv(); err == nil && ok && env.Coordinator == coordinator {
		c.JobID, c.Liveness = env.JobID, env.Liveness
	} else {
		c.JobID = os.Getenv(dist.JobIDVar)
	}
	return initDistributed(ctx, c)
}

// InitDistributedFromEnv joins the job that STELA_COORDINATOR,
// STELA_PROCESS_ID and STELA_NUM_PROCESSES describe (stela launch sets
// them), or returns nil, nil when STELA_COORDINATOR is unset.
func InitDistributedFromEnv(ctx context.Context) (*Job, error) {
	c, ok, err := dist.FromEnv()
	if err != nil || !ok {
		return nil, err
	}
	return initDistributed(ctx, c)
}

func initDistributed(ctx context.Context, c dist.Config) (*Job, error) {
	distributed.Lock()
	defer distributed.Unlock()
	if distributed.job != nil {
		return nil, fmt.Errorf("InitDistributed: this process is already process %d of a job", distributed.job.ProcessID())
	}
	j, err := dist.Join(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("InitDistributed: %w", err)
	}
	job := &Job{j: j}
	job.onFailure = defaultOnFailure
	go func() {
		<-j.Failed()
		job.mu.Lock()
		f := job.onFailure
		job.mu.Unlock()
		if f != nil {
			f(j.Err())
		}
	}()
	distributed.job = job
	return job, nil
}

func defaultOnFailure(err error) {
	fmt.Fprintf(os.Stderr, "stela: the distributed job failed: %v\n", err)
	os.Exit(1)
}

// Distributed returns the job this process joined, or nil.
func Distributed() *Job {
	distributed.Lock()
	defer distributed.Unlock()
	return distributed.job
}

// ProcessID is this process's id in the job.
func (j *Job) ProcessID() int { return j.j.ProcessID() }

// NumProcesses is the job's process count.
func (j *Job) NumProcesses() int { return j.j.NumProcesses() }

// Barrier returns once every process has reached the barrier of this name
// as often as this one; ctx's deadline bounds the wait (the error then
// lists the processes that did not arrive), and a dead process makes it
// fail with a *PeerError.
func (j *Job) Barrier(ctx context.Context, name string) error { return j.j.Barrier(ctx, name) }

// GlobalDevices opens the family's devices in this process and agrees
// with the other processes on the job's global device list: every
// process must have the same number of devices of the same kinds.
func (j *Job) GlobalDevices(ctx context.Context, family string) ([]GlobalDevice, error) {
	devs, err := FamilyDevices(family)
	if err != nil {
		return nil, err
	}
	kinds := make([]string, len(devs))
	for i, d := range devs {
		kinds[i] = family
		if pd, ok := d.(*pjrtDevice); ok {
			kinds[i] = pd.dev.Kind()
		}
	}
	return j.j.AgreeDevices(ctx, family, kinds)
}

// OnFailure replaces what happens when the job fails (a process died, the
// coordinator was lost): by default the error is printed and the process
// exits with status 1. f runs once, on its own goroutine; nil ignores the
// failure (blocking operations still fail).
func (j *Job) OnFailure(f func(error)) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.onFailure = f
}

// Failed is closed when the job fails; Err then says how.
func (j *Job) Failed() <-chan struct{} { return j.j.Failed() }

// Err is the job's failure, or nil.
func (j *Job) Err() error { return j.j.Err() }

// Close leaves the job cleanly (the others do not take this process's
// exit for a death). A process should Close before it exits normally.
func (j *Job) Close() error {
	distributed.Lock()
	if distributed.job == j {
		distributed.job = nil
	}
	distributed.Unlock()
	j.OnFailure(nil)
	return j.j.Close()
}

// pjrtDistributed returns the distributed options for a client of family
// name, when this process is in a job and the family's plugin takes them:
// XLA's CUDA plugin (store, node_id, num_nodes), libtpu (store only: it
// refuses node_id) and the Stela CPU plugin (store, node_id, num_nodes,
// and where its Gloo listens: extra options).
func pjrtDistributed(name string) (pjrt.DistributedOptions, []pjrt.NamedValue, bool, error) {
	job := Distributed()
	if job == nil {
		return pjrt.DistributedOptions{}, nil, false, nil
	}
	switch name {
	case "cuda":
		return job.j.PJRTOptions(), nil, true, nil
	case "tpu":
		o := job.j.PJRTOptions()
		o.NoNodeOptions = true
		return o, nil, true, nil
	case "cpu":
		extra, err := cpuDistributedOptions(job)
		return job.j.PJRTOptions(), extra, true, err
	}
	return pjrt.DistributedOptions{}, nil, false, nil
}
