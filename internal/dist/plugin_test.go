package dist_test

import (
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stela-ml/stela/pjrt"
)

// recording is a store that counts the plugin's calls.
type recording struct {
	pjrt.KeyValueStore
	mu   sync.Mutex
	ops  []string
	keys map[string]bool
}

func (r *recording) log(op, key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ops = append(r.ops, op+" "+key)
}

func (r *recording) Get(key string, timeout time.Duration) ([]byte, error) {
	r.log("get", key)
	return r.KeyValueStore.Get(key, timeout)
}

func (r *recording) TryGet(key string) ([]byte, bool, error) {
	r.log("tryget", key)
	return r.KeyValueStore.TryGet(key)
}

func (r *recording) Put(key string, value []byte) error {
	r.log("put", key)
	return r.KeyValueStore.Put(key, value)
}

// realPlugin returns the path in env, skipping when it is unset (.ci/run
// sets both after installing the plugins from PyPI).
func realPlugin(t *testing.T, env string) string {
	p := os.Getenv(env)
	if p == "" {
		t.Skipf("%s is not set (.ci/run installs the plugin and sets it)", env)
	}
	return p
}

// createDistributed creates a client of the plugin at path as process 0 of
// a one-process job on a real etcd, with the job's store and node options.
func createDistributed(t *testing.T, path string, nodeOptions bool, options ...pjrt.NamedValue) (*recording, *pjrt.Client, error) {
	e := etcd(t)
	jobs, errs := joinAll(t, e.Endpoint, 1, nil)
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	p, err := pjrt.LoadPlugin(path)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recording{KeyValueStore: jobs[0].PJRTStore()}
	d := jobs[0].PJRTOptions()
	d.Store = rec
	d.NoNodeOptions = !nodeOptions
	c, err := p.NewDistributedClient(d, options...)
	rec.mu.Lock()
	t.Logf("NewDistributedClient(node 0 of 1): %v; store calls %v", err, rec.ops)
	rec.mu.Unlock()
	return rec, c, err
}

// XLA's CUDA plugin takes node_id and num_nodes and uses the store to
// exchange each node's topology. Without a GPU, client creation fails
// looking for one, after the options were checked: the test checks that
// they were accepted (an unknown or mistyped option is InvalidArgument
// before anything else, TestRealPluginCUDA in pjrt).
func TestPJRTDistributedCUDA(t *testing.T) {
	path := realPlugin(t, "STELA_TEST_CUDA_PLUGIN")
	rec, c, err := createDistributed(t, path, true, pjrt.NamedValue{Name: "preallocate", Value: false})
	if errors.Is(err, pjrt.ErrInvalidArgument) {
		t.Fatalf("node_id/num_nodes with the key-value callbacks refused: %v", err)
	}
	if err == nil {
		defer c.Destroy()
		devs := c.AddressableDevices()
		t.Logf("GPU client: %d addressable devices, %d in all", len(devs), len(c.Devices()))
		rec.mu.Lock()
		defer rec.mu.Unlock()
		if len(rec.ops) == 0 {
			t.Error("the plugin made a client for a distributed job without using the store")
		}
		return
	}
	var perr *pjrt.Error
	if !errors.As(err, &perr) {
		t.Fatalf("error %T %v, want *pjrt.Error", err, err)
	}
}

// libtpu takes the callbacks too; without a TPU client creation fails
// cleanly.
func TestPJRTDistributedTPU(t *testing.T) {
	path := realPlugin(t, "STELA_TEST_LIBTPU")
	for k, v := range map[string]string{"TPU_SKIP_MDS_QUERY": "1", "TPU_WORKER_ID": "0", "TPU_WORKER_HOSTNAMES": "localhost", "ALLOW_MULTIPLE_LIBTPU_LOAD": "1"} {
		if _, ok := os.LookupEnv(k); !ok {
			t.Setenv(k, v)
		}
	}
	// libtpu's options differ from XLA's GPU client's: it refuses
	// node_id, which the runtime therefore does not pass it.
	_, _, err := createDistributed(t, path, true)
	if !errors.Is(err, pjrt.ErrInvalidArgument) {
		t.Errorf("libtpu with node_id/num_nodes: %v; want INVALID_ARGUMENT (the runtime leaves them out for tpu on that ground)", err)
	}
	_, c, err := createDistributed(t, path, false)
	if errors.Is(err, pjrt.ErrInvalidArgument) {
		t.Fatalf("the key-value callbacks refused: %v", err)
	}
	if err == nil {
		c.Destroy()
		return
	}
	var perr *pjrt.Error
	if !errors.As(err, &perr) {
		t.Fatalf("error %T %v, want *pjrt.Error", err, err)
	}
}

// The Stela CPU plugin takes node_id, num_nodes and the store: two
// clients of a job of two processes (here two clients of one process, on
// a real etcd) connect through Gloo, whose rendezvous goes through the
// store, and each says which process it is.
func TestPJRTDistributedStelaCPU(t *testing.T) {
	path := realPlugin(t, "STELA_PJRT_PLUGIN")
	e := etcd(t)
	jobs, errs := joinAll(t, e.Endpoint, 2, nil)
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	p, err := pjrt.LoadPlugin(path)
	if err != nil {
		t.Fatal(err)
	}
	recs := make([]*recording, 2)
	clients := make([]*pjrt.Client, 2)
	var wg sync.WaitGroup
	for n := range 2 {
		recs[n] = &recording{KeyValueStore: jobs[n].PJRTStore()}
		d := jobs[n].PJRTOptions()
		d.Store = recs[n]
		wg.Go(func() {
			clients[n], errs[n] = p.NewDistributedClient(d, pjrt.NamedValue{Name: "stela_gloo_host", Value: "127.0.0.1"}, pjrt.NamedValue{Name: "cpu_device_count", Value: int64(2)})
		})
	}
	wg.Wait()
	for n := range 2 {
		if errs[n] != nil {
			t.Fatalf("node %d: %v", n, errs[n])
		}
		defer clients[n].Destroy()
		if got := clients[n].ProcessIndex(); got != n {
			t.Errorf("node %d: ProcessIndex %d", n, got)
		}
		recs[n].mu.Lock()
		ops := strings.Join(recs[n].ops, " ")
		recs[n].mu.Unlock()
		if !strings.Contains(ops, "put stela_cpu/gloo/") || !strings.Contains(ops, "get stela_cpu/gloo/") {
			t.Errorf("node %d: Gloo's rendezvous did not use the store: %s", n, ops)
		}
	}
	// Options that do not make a job are refused.
	if _, err := p.NewClient(pjrt.NamedValue{Name: "node_id", Value: int64(0)}); err == nil || !strings.Contains(err.Error(), "create option node_id without num_nodes") {
		t.Errorf("node_id alone: %v", err)
	}
	if _, err := p.NewClient(pjrt.NamedValue{Name: "node_id", Value: int64(0)}, pjrt.NamedValue{Name: "num_nodes", Value: int64(2)}); err == nil || !strings.Contains(err.Error(), "needs the key-value callbacks") {
		t.Errorf("num_nodes 2 without a store: %v", err)
	}
}
