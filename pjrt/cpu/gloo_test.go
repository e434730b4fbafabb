package cpu

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stela-ml/stela/pjrt"
)

// mapStore is a key-value store in memory, for clients of one process.
type mapStore struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *mapStore) Get(key string, timeout time.Duration) ([]byte, error) {
	end := time.Now().Add(timeout)
	for {
		if v, ok, _ := s.TryGet(key); ok {
			return v, nil
		}
		if time.Now().After(end) {
			return nil, pjrt.ErrKeyTimeout
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (s *mapStore) TryGet(key string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok, nil
}

func (s *mapStore) Put(key string, value []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = value
	return nil
}

// A plugin built without Gloo (STELA_CPU_GLOO=0, or no libgloo-dev or
// C++ compiler) still builds and runs; a client of several processes is
// refused, saying why.
func TestPluginWithoutGloo(t *testing.T) {
	needCC(t)
	t.Setenv(GlooVar, "0")
	path, err := buildPlugin(filepath.Join(t.TempDir(), "plugin"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("nm", "-D", path).Output(); err == nil && strings.Contains(string(out), "gloo") {
		t.Errorf("the plugin built with %s=0 links Gloo", GlooVar)
	}
	p, err := pjrt.LoadPlugin(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	c.Destroy()
	d := pjrt.DistributedOptions{Store: &mapStore{m: map[string][]byte{}}, NodeID: 0, NumNodes: 2}
	_, err = p.NewDistributedClient(d)
	if err == nil || !strings.Contains(err.Error(), "built without it (install Debian's libgloo-dev and g++") {
		t.Fatalf("a client of 2 processes from a plugin without Gloo: %v", err)
	}
	t.Log(err)
}

// With Gloo, two clients of a job of two processes (here, of this one)
// connect through the store.
func TestPluginGlooConnect(t *testing.T) {
	path := testPlugin(t)
	if glooCompiler() == nil {
		t.Skip("the plugin is built without Gloo here (no libgloo-dev or C++ compiler)")
	}
	p, err := pjrt.LoadPlugin(path)
	if err != nil {
		t.Fatal(err)
	}
	store := &mapStore{m: map[string][]byte{}}
	clients := make([]*pjrt.Client, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for n := range 2 {
		wg.Go(func() {
			clients[n], errs[n] = p.NewDistributedClient(pjrt.DistributedOptions{Store: store, NodeID: n, NumNodes: 2},
				pjrt.NamedValue{Name: "stela_gloo_host", Value: "127.0.0.1"})
		})
	}
	wg.Wait()
	for n := range 2 {
		if errs[n] != nil {
			t.Fatalf("node %d: %v", n, errs[n])
		}
		defer clients[n].Destroy()
		if clients[n].ProcessIndex() != n {
			t.Errorf("node %d: ProcessIndex %d", n, clients[n].ProcessIndex())
		}
	}
	if len(store.m) == 0 {
		t.Error("Gloo's rendezvous left nothing in the store")
	}
}
