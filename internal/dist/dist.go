// Package dist is the coordination of a multi-process Stela job through
// etcd: processes join by the store's address, their process id and the
// process count; they check that they run the same program; they agree on
// the global device list; they barrier; and each holds an etcd lease whose
// expiry names a process that died (docs/distributed.md).
//
// In: a Config (runtime.InitDistributed fills one from its arguments or
// from STELA_COORDINATOR, STELA_PROCESS_ID and STELA_NUM_PROCESSES). Out:
// a Job, whose blocking operations fail with a *PeerError naming the
// process as soon as one of the job is seen dead or gone.
//
// The keys of a job live under /stela/<job id>/:
//
//	members/<pid>               this process: host, OS pid, program hash (on its lease)
//	run/<run>/devices/<family>/<pid>  its local devices of a family
//	run/<run>/barrier/<name>/<n>/<pid> arrivals at the n-th barrier of that name
//	run/<run>/kv/<key>          the PJRT plugins' key-value store
//	run/<run>/left/<pid>        a clean exit (Close), so that it is not taken for a death
//
// <run> is the highest create revision of the members' keys once all have
// joined, the same for every process of one run: keys of an earlier run of
// the same job id (a crashed one never cleans up) cannot be mistaken for
// this run's. The last process to Close deletes the run's keys.
package dist

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// The environment of a process of a job (the launcher sets them).
const (
	CoordinatorVar  = "STELA_COORDINATOR"   // etcd endpoints: host:port[,host:port...]
	ProcessIDVar    = "STELA_PROCESS_ID"    // 0 ... NumProcesses-1
	NumProcessesVar = "STELA_NUM_PROCESSES" // the process count
	JobIDVar        = "STELA_JOB_ID"        // the key prefix's name; "default" when unset
	LivenessVar     = "STELA_LIVENESS_TIMEOUT"
)

// DefaultLiveness is the lease time-to-live when LivenessVar is unset: a
// process that stops heart-beating (killed, machine lost, network cut) is
// named dead by the others after at most this, plus etcd's lease expiry
// check (500 ms) and a watch event's delivery.
const DefaultLiveness = 5 * time.Second

// DefaultJoinTimeout bounds Join's wait for all processes.
const DefaultJoinTimeout = 5 * time.Minute

// Config says which job to join.
type Config struct {
	// Coordinator is the etcd endpoints, comma-separated ("127.0.0.1:2379"
	// or "http://h1:2379,http://h2:2379").
	Coordinator string
	// ProcessID is this process's id, 0 ... NumProcesses-1.
	ProcessID, NumProcesses int
	// JobID names the job's key prefix; "" is "default". Two jobs sharing
	// one etcd need different ids.
	JobID string
	// ProgramHash identifies the program: processes of one job must agree
	// on it. "" is the SHA-256 of this process's executable file.
	ProgramHash string
	// Liveness is the lease time-to-live (0: DefaultLiveness; at least 2s,
	// etcd's minimum lease being about 1.5s).
	Liveness time.Duration
	// JoinTimeout bounds the wait for all processes to join (0:
	// DefaultJoinTimeout).
	JoinTimeout time.Duration
}

// FromEnv reads a Config from the environment. ok is false when
// STELA_COORDINATOR is unset (a single-process run).
func FromEnv() (c Config, ok bool, err error) {
	c.Coordinator = os.Getenv(CoordinatorVar)
	if c.Coordinator == "" {
		return c, false, nil
	}
	geti := func(name string) (int, error) {
		s := os.Getenv(name)
		n, err := strconv.Atoi(s)
		if err != nil {
			return 0, fmt.Errorf("%s=%q: want a whole number (with %s=%s set)", name, s, CoordinatorVar, c.Coordinator)
		}
		return n, nil
	}
	if c.ProcessID, err = geti(ProcessIDVar); err != nil {
		return c, true, err
	}
	if c.NumProcesses, err = geti(NumProcessesVar); err != nil {
		return c, true, err
	}
	c.JobID = os.Getenv(JobIDVar)
	if s := os.Getenv(LivenessVar); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return c, true, fmt.Errorf("%s=%q: want a duration such as 5s", LivenessVar, s)
		}
		c.Liveness = d
	}
	return c, true, nil
}

// PeerError is the error of every blocking operation of a Job once a
// process of the job is dead (its lease expired) or has left before the
// operation could complete.
type PeerError struct {
	Process int    // the process id
	Host    string // its host name and OS pid, as it registered
	Reason  string // "died: no heartbeat for 5s (its lease expired)", "left the job"
}

func (e *PeerError) Error() string {
	return fmt.Sprintf("process %d (%s) %s", e.Process, e.Host, e.Reason)
}

// Member is a process of a job as it registered.
type Member struct {
	Process     int    `json:"process"`
	Host        string `json:"host"` // host name
	PID         int    `json:"pid"`  // OS process id
	ProgramHash string `json:"program_hash"`
	Processes   int    `json:"processes"` // the process count it was started with
}

func (m Member) where() string { return fmt.Sprintf("%s pid %d", m.Host, m.PID) }

// Job is this process's membership in a job.
type Job struct {
	cfg    Config
	cli    *clientv3.Client
	lease  clientv3.LeaseID
	prefix string // /stela/<job>/
	run    string // prefix + "run/<rev>/"
	// Members, by process id, as they joined.
	Members []Member

	ctx    context.Context // cancelled by Close or a failure
	cancel context.CancelFunc
	mu     sync.Mutex
	err    error         // the first failure
	failed chan struct{} // closed at the first failure
	closed bool
	wg     sync.WaitGroup
	bars   map[string]int // barrier name -> uses so far
}

// Join joins the job: it registers this process under its lease (refusing
// a process id already taken), waits for all processes, and checks that
// they agree on the process count and the program hash. The returned Job
// heart-beats in the background until Close.
func Join(ctx context.Context, cfg Config) (*Job, error) {
	if cfg.NumProcesses < 1 || cfg.ProcessID < 0 || cfg.ProcessID >= cfg.NumProcesses {
		return nil, fmt.Errorf("process id %d of %d processes: want 0 <= id < count", cfg.ProcessID, cfg.NumProcesses)
	}
	if cfg.JobID == "" {
		cfg.JobID = "default"
	}
	if strings.ContainsAny(cfg.JobID, "/ ") {
		return nil, fmt.Errorf("job id %q: no slashes or spaces", cfg.JobID)
	}
	if cfg.Liveness == 0 {
		cfg.Liveness = DefaultLiveness
	}
	if cfg.Liveness < 2*time.Second {
		return nil, fmt.Errorf("liveness timeout %v: at least 2s (etcd's minimum lease is about 1.5s)", cfg.Liveness)
	}
	if cfg.JoinTimeout == 0 {
		cfg.JoinTimeout = DefaultJoinTimeout
	}
	if cfg.ProgramHash == "" {
		h, err := executableHash()
		if err != nil {
			return nil, err
		}
		cfg.ProgramHash = h
	}
	eps := Endpoints(cfg.Coordinator)
	if len(eps) == 0 {
		return nil, errors.New("no coordinator address")
	}
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   eps,
		DialTimeout: 10 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		return nil, fmt.Errorf("coordinator %s: %w", cfg.Coordinator, err)
	}
	j := &Job{cfg: cfg, cli: cli, prefix: "/stela/" + cfg.JobID + "/", failed: make(chan struct{}), bars: map[string]int{}}
	j.ctx, j.cancel = context.WithCancel(context.Background())
	if err := j.join(ctx); err != nil {
		// The lease is left to expire rather than revoked: a process that
		// refuses the job (another program hash, count) keeps its record
		// visible for the liveness timeout, so that a process that has not
		// read the members yet sees it and refuses too, instead of waiting
		// for a process that is gone.
		j.cancel()
		j.wg.Wait()
		cli.Close()
		return nil, err
	}
	return j, nil
}

// Endpoints splits a coordinator address into etcd endpoints.
func Endpoints(coord string) []string {
	var eps []string
	for _, e := range strings.Split(coord, ",") {
		if e = strings.TrimSpace(e); e != "" {
			eps = append(eps, e)
		}
	}
	return eps
}

func executableHash() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("program hash: %w", err)
	}
	f, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("program hash: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("program hash of %s: %w", p, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (j *Job) memberKey(p int) string { return j.prefix + "members/" + strconv.Itoa(p) }

func (j *Job) join(ctx context.Context) error {
	cfg := j.cfg
	ctx, cancel := context.WithTimeout(ctx, cfg.JoinTimeout)
	defer cancel()
	ttl := int64((cfg.Liveness + time.Second - 1) / time.Second)
	lr, err := j.cli.Grant(ctx, ttl)
	if err != nil {
		return fmt.Errorf("coordinator %s: %w", cfg.Coordinator, err)
	}
	j.lease = lr.ID
	host, _ := os.Hostname()
	me := Member{Process: cfg.ProcessID, Host: host, PID: os.Getpid(), ProgramHash: cfg.ProgramHash, Processes: cfg.NumProcesses}
	val, _ := json.Marshal(me)
	key := j.memberKey(cfg.ProcessID)
	tr, err := j.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(val), clientv3.WithLease(j.lease))).
		Else(clientv3.OpGet(key)).Commit()
	if err != nil {
		return fmt.Errorf("coordinator %s: %w", cfg.Coordinator, err)
	}
	if !tr.Succeeded {
		var other Member
		if kvs := tr.Responses[0].GetResponseRange().Kvs; len(kvs) > 0 {
			json.Unmarshal(kvs[0].Value, &other)
		}
		return fmt.Errorf("process id %d of job %q is already taken by %s (two processes started with one id, or a dead one whose lease has not expired yet: wait %v)",
			cfg.ProcessID, cfg.JobID, other.where(), cfg.Liveness)
	}
	ka, err := j.cli.KeepAlive(j.ctx, j.lease)
	if err != nil {
		return fmt.Errorf("coordinator %s: keep-alive: %w", cfg.Coordinator, err)
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		for range ka {
		}
		// The channel closes when the lease is lost or Close cancels.
		if j.ctx.Err() == nil {
			j.fail(fmt.Errorf("lost the coordinator %s: this process's lease could not be renewed", cfg.Coordinator))
		}
	}()

	// Wait for all members.
	pre := j.prefix + "members/"
	members := map[int]Member{}
	revs := map[int]int64{}
	gr, err := j.cli.Get(ctx, pre, clientv3.WithPrefix())
	if err != nil {
		return j.joinErr(ctx, err, members)
	}
	add := func(k, v []byte, rev int64) error {
		var m Member
		if err := json.Unmarshal(v, &m); err != nil {
			return fmt.Errorf("key %s: %v", k, err)
		}
		members[m.Process] = m
		revs[m.Process] = rev
		return nil
	}
	for _, kv := range gr.Kvs {
		if err := add(kv.Key, kv.Value, kv.CreateRevision); err != nil {
			return err
		}
	}
	if len(members) < cfg.NumProcesses {
		wch := j.cli.Watch(ctx, pre, clientv3.WithPrefix(), clientv3.WithRev(gr.Header.Revision+1))
		for len(members) < cfg.NumProcesses {
			wr, ok := <-wch
			if !ok || wr.Err() != nil {
				e := ctx.Err()
				if wr.Err() != nil {
					e = wr.Err()
				}
				return j.joinErr(ctx, e, members)
			}
			for _, ev := range wr.Events {
				p, _ := strconv.Atoi(strings.TrimPrefix(string(ev.Kv.Key), pre))
				if ev.Type == clientv3.EventTypeDelete {
					if m, ok := members[p]; ok {
						return &PeerError{Process: p, Host: m.where(), Reason: "died while the job was starting (its lease expired)"}
					}
					continue
				}
				if err := add(ev.Kv.Key, ev.Kv.Value, ev.Kv.CreateRevision); err != nil {
					return err
				}
			}
		}
	}
	j.Members = make([]Member, cfg.NumProcesses)
	var run int64
	for p, m := range members {
		if p < 0 || p >= cfg.NumProcesses || m.Processes != cfg.NumProcesses {
			return fmt.Errorf("process %d (%s) was started with %d processes, this one (process %d) with %d: every process of a job needs the same count",
				p, m.where(), m.Processes, cfg.ProcessID, cfg.NumProcesses)
		}
		j.Members[p] = m
		run = max(run, revs[p])
	}
	for p, m := range j.Members {
		if m.ProgramHash != cfg.ProgramHash {
			return fmt.Errorf("process %d (%s) runs program %s, this one (process %d) runs %s: every process of a job must run the same program",
				p, m.where(), short(m.ProgramHash), cfg.ProcessID, short(cfg.ProgramHash))
		}
	}
	j.run = j.prefix + "run/" + strconv.FormatInt(run, 10) + "/"
	j.wg.Add(1)
	go j.watchMembers(gr.Header.Revision)
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// joinErr explains a failed wait for the job's processes.
func (j *Job) joinErr(ctx context.Context, err error, members map[int]Member) error {
	if ctx.Err() != nil {
		var missing []string
		for p := range j.cfg.NumProcesses {
			if _, ok := members[p]; !ok {
				missing = append(missing, strconv.Itoa(p))
			}
		}
		return fmt.Errorf("joining job %q at %s: processes %s did not join within %v", j.cfg.JobID, j.cfg.Coordinator, strings.Join(missing, ", "), j.cfg.JoinTimeout)
	}
	return fmt.Errorf("joining job %q at %s: %w", j.cfg.JobID, j.cfg.Coordinator, err)
}

// watchMembers turns the deletion of a member's key (its lease expired,
// or it closed) into the job's failure, unless it left cleanly.
func (j *Job) watchMembers(rev int64) {
	defer j.wg.Done()
	pre := j.prefix + "members/"
	wch := j.cli.Watch(j.ctx, pre, clientv3.WithPrefix(), clientv3.WithRev(rev+1))
	for wr := range wch {
		if wr.Err() != nil {
			if j.ctx.Err() == nil {
				j.fail(fmt.Errorf("lost the coordinator %s: %v", j.cfg.Coordinator, wr.Err()))
			}
			return
		}
		for _, ev := range wr.Events {
			if ev.Type != clientv3.EventTypeDelete {
				continue
			}
			p, err := strconv.Atoi(strings.TrimPrefix(string(ev.Kv.Key), pre))
			if err != nil || p < 0 || p >= len(j.Members) || p == j.cfg.ProcessID {
				continue
			}
			// A clean Close writes left/<p> before revoking its lease.
			gr, err := j.cli.Get(j.ctx, j.run+"left/"+strconv.Itoa(p))
			if err == nil && len(gr.Kvs) > 0 {
				continue
			}
			if j.ctx.Err() != nil {
				return
			}
			j.fail(&PeerError{Process: p, Host: j.Members[p].where(),
				Reason: fmt.Sprintf("died: no heartbeat for %v (its etcd lease expired)", j.cfg.Liveness)})
		}
	}
}

func (j *Job) fail(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil || j.closed {
		return
	}
	j.err = err
	close(j.failed)
}

// Failed is closed when the job has failed: a process died or the
// coordinator was lost. Err then says how.
func (j *Job) Failed() <-chan struct{} { return j.failed }

// Err is the job's first failure, or nil.
func (j *Job) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// ProcessID and NumProcesses are this process's place in the job.
func (j *Job) ProcessID() int    { return j.cfg.ProcessID }
func (j *Job) NumProcesses() int { return j.cfg.NumProcesses }

// Config is the configuration the job was joined with, defaults filled.
func (j *Job) Config() Config { return j.cfg }

// Client is the job's etcd client.
func (j *Job) Client() *clientv3.Client { return j.cli }

// waitAll waits until n keys exist under prefix, failing when the job
// fails or ctx ends; missing names the absent process ids for errors.
func (j *Job) waitAll(ctx context.Context, prefix string, what string) (map[int][]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(j.ctx, cancel)
	defer stop()
	got := map[int][]byte{}
	gr, err := j.cli.Get(ctx, prefix, clientv3.WithPrefix())
	if err == nil {
		for _, kv := range gr.Kvs {
			p, _ := strconv.Atoi(strings.TrimPrefix(string(kv.Key), prefix))
			got[p] = kv.Value
		}
	}
	var wch clientv3.WatchChan
	if err == nil && len(got) < j.cfg.NumProcesses {
		wch = j.cli.Watch(ctx, prefix, clientv3.WithPrefix(), clientv3.WithRev(gr.Header.Revision+1))
	}
	for err == nil && len(got) < j.cfg.NumProcesses {
		select {
		case <-j.failed:
			err = j.Err()
		case wr, ok := <-wch:
			if !ok || wr.Err() != nil {
				err = ctx.Err()
				if wr.Err() != nil {
					err = wr.Err()
				}
				if err == nil {
					err = errors.New("watch ended")
				}
				break
			}
			for _, ev := range wr.Events {
				if ev.Type == clientv3.EventTypePut {
					p, _ := strconv.Atoi(strings.TrimPrefix(string(ev.Kv.Key), prefix))
					got[p] = ev.Kv.Value
				}
			}
		}
	}
	if err == nil {
		return got, nil
	}
	if jerr := j.Err(); jerr != nil {
		return nil, fmt.Errorf("%s: %w", what, jerr)
	}
	var missing []string
	for p := range j.cfg.NumProcesses {
		if _, ok := got[p]; !ok {
			missing = append(missing, strconv.Itoa(p))
		}
	}
	return nil, fmt.Errorf("%s: waiting for processes %s: %w", what, strings.Join(missing, ", "), err)
}

// Barrier returns when every process of the job has reached the barrier
// of this name as often as this one has; it fails when a process dies or
// ctx ends (a deadline bounds the wait: the error lists the processes
// that had not arrived).
func (j *Job) Barrier(ctx context.Context, name string) error {
	if strings.Contains(name, "/") {
		return fmt.Errorf("barrier name %q: no slashes", name)
	}
	j.mu.Lock()
	n := j.bars[name]
	j.bars[name]++
	j.mu.Unlock()
	pre := fmt.Sprintf("%sbarrier/%s/%d/", j.run, name, n)
	if _, err := j.cli.Put(ctx, pre+strconv.Itoa(j.cfg.ProcessID), ""); err != nil {
		return fmt.Errorf("barrier %s: %w", name, err)
	}
	_, err := j.waitAll(ctx, pre, "barrier "+name)
	return err
}

// Device is one device of a job's global device list.
type Device struct {
	Global  int    `json:"global"`  // its id in the job: processes' devices in process order
	Process int    `json:"process"` // the process that owns it
	Local   int    `json:"local"`   // its index among that process's devices
	Kind    string `json:"kind"`    // the device kind, as the plugin names it
}

// AgreeDevices publishes this process's local devices of a family (their
// kinds, in local order) and returns the job's global device list, once
// every process has published its own. Processes must have the same
// number of devices of the same kinds.
func (j *Job) AgreeDevices(ctx context.Context, family string, kinds []string) ([]Device, error) {
	pre := j.run + "devices/" + family + "/"
	val, _ := json.Marshal(kinds)
	if _, err := j.cli.Put(ctx, pre+strconv.Itoa(j.cfg.ProcessID), string(val)); err != nil {
		return nil, fmt.Errorf("devices of %s: %w", family, err)
	}
	all, err := j.waitAll(ctx, pre, "devices of "+family)
	if err != nil {
		return nil, err
	}
	var devs []Device
	for p := range j.cfg.NumProcesses {
		var ks []string
		if err := json.Unmarshal(all[p], &ks); err != nil {
			return nil, fmt.Errorf("devices of %s of process %d: %v", family, p, err)
		}
		if len(ks) != len(kinds) || !slices.Equal(ks, kinds) {
			return nil, fmt.Errorf("process %d (%s) has %d %s devices %v, this one (process %d) has %d %v: every process of a job needs the same devices",
				p, j.Members[p].where(), len(ks), family, ks, j.cfg.ProcessID, len(kinds), kinds)
		}
		for i, k := range ks {
			devs = append(devs, Device{Global: len(devs), Process: p, Local: i, Kind: k})
		}
	}
	return devs, nil
}

// KV is the job's key-value store for PJRT plugins: keys live under the
// run's kv/ prefix.
func (j *Job) kvKey(key string) string { return j.run + "kv/" + key }

// Put stores value under key.
func (j *Job) Put(ctx context.Context, key string, value []byte) error {
	_, err := j.cli.Put(ctx, j.kvKey(key), string(value))
	return err
}

// TryGet returns the value of key, or ok false when it has none.
func (j *Job) TryGet(ctx context.Context, key string) (value []byte, ok bool, err error) {
	gr, err := j.cli.Get(ctx, j.kvKey(key))
	if err != nil || len(gr.Kvs) == 0 {
		return nil, false, err
	}
	return gr.Kvs[0].Value, true, nil
}

// ErrTimeout is Get's error when the key did not appear in time.
var ErrTimeout = errors.New("timed out")

// Get waits up to timeout for key to have a value and returns it. It
// fails early when the job fails.
func (j *Job) Get(ctx context.Context, key string, timeout time.Duration) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(j.ctx, cancel)
	defer stop()
	k := j.kvKey(key)
	gr, err := j.cli.Get(ctx, k)
	if err == nil && len(gr.Kvs) > 0 {
		return gr.Kvs[0].Value, nil
	}
	if err == nil {
		wch := j.cli.Watch(ctx, k, clientv3.WithRev(gr.Header.Revision+1))
	loop:
		for {
			select {
			case <-j.failed:
				break loop
			case wr, ok := <-wch:
				if !ok || wr.Err() != nil {
					break loop
				}
				for _, ev := range wr.Events {
					if ev.Type == clientv3.EventTypePut {
						return ev.Kv.Value, nil
					}
				}
			}
		}
	}
	if jerr := j.Err(); jerr != nil {
		return nil, fmt.Errorf("key %s: %w", key, jerr)
	}
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("key %s: no value after %v: %w", key, timeout, ErrTimeout)
	}
	return nil, fmt.Errorf("key %s: %w", key, err)
}

// Close leaves the job cleanly: the others do not take this process's
// exit for a death. The last process to leave deletes the run's keys.
func (j *Job) Close() error {
	j.mu.Lock()
	if j.closed {
		j.mu.Unlock()
		return nil
	}
	j.closed = true
	j.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var err error
	if _, err = j.cli.Put(ctx, j.run+"left/"+strconv.Itoa(j.cfg.ProcessID), ""); err == nil {
		if gr, e := j.cli.Get(ctx, j.run+"left/", clientv3.WithPrefix(), clientv3.WithCountOnly()); e == nil && gr.Count >= int64(j.cfg.NumProcesses) {
			j.cli.Delete(ctx, j.run, clientv3.WithPrefix())
		}
	}
	j.cancel()
	if _, e := j.cli.Revoke(ctx, j.lease); err == nil {
		err = e
	}
	j.wg.Wait()
	if e := j.cli.Close(); err == nil {
		err = e
	}
	return err
}
