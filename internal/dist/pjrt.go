package dist

import (
	"context"
	"errors"
	"time"

	"github.com/stela-ml/stela/pjrt"
)

// PJRTStore is the job's key-value store as PJRT plugins' client creation
// takes it (pjrt.DistributedOptions.Store): keys live under the run's kv/
// prefix in etcd, and a Get fails early when the job fails.
func (j *Job) PJRTStore() pjrt.KeyValueStore { return pjrtStore{j} }

type pjrtStore struct{ j *Job }

// opTimeout bounds one etcd request of TryGet and Put.
const opTimeout = time.Minute

func (s pjrtStore) Get(key string, timeout time.Duration) ([]byte, error) {
	v, err := s.j.Get(context.Background(), key, timeout)
	if errors.Is(err, ErrTimeout) {
		return nil, errors.Join(err, pjrt.ErrKeyTimeout)
	}
	return v, err
}

func (s pjrtStore) TryGet(key string) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	return s.j.TryGet(ctx, key)
}

func (s pjrtStore) Put(key string, value []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	return s.j.Put(ctx, key, value)
}

// PJRTOptions are the distributed options of this process's PJRT client.
func (j *Job) PJRTOptions() pjrt.DistributedOptions {
	return pjrt.DistributedOptions{Store: j.PJRTStore(), NodeID: j.cfg.ProcessID, NumNodes: j.cfg.NumProcesses}
}
