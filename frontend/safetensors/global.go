package safetensors

import (
	"context"
	"fmt"
	"time"

	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/runtime"
)

// SaveTimeout bounds SaveGlobal's wait for process 0 to write the file.
var SaveTimeout = 10 * time.Minute

// SaveGlobal is Save for the processes of a job (docs/distributed.md,
// "Checkpoints"): every process calls it with the same tree, in the same
// order (it is collective); leaves sharded across processes are gathered
// first (sharding.Gather), process 0 writes the file, and all return once
// it is complete (a barrier), so that a job that dies afterwards can
// resume from it. path must be on storage all processes read when they
// resume (Load, in every process). Outside a job it is Save.
func SaveGlobal(path string, t any, metadata map[string]string) error {
	job := runtime.Distributed()
	if job == nil {
		return Save(path, t, metadata)
	}
	const op = "safetensors.SaveGlobal"
	gathered, err := tree.Map(t, func(p string, x *tensor.Tensor) (*tensor.Tensor, error) {
		if x.Traced() {
			return nil, fmt.Errorf("%s: at %s: tensor %v is traced: it has no values to save", op, p, x.Type())
		}
		var g *tensor.Tensor
		err := tensor.Catch(func() { g = sharding.Gather(x) })
		return g, err
	})
	if err != nil {
		return err
	}
	var saveErr error
	if job.ProcessID() == 0 {
		saveErr = Save(path, gathered, metadata)
	}
	ctx, cancel := context.WithTimeout(context.Background(), SaveTimeout)
	defer cancel()
	// The others wait for process 0's write (its error is its own: a
	// process that fails to save ends the job, typically).
	if err := job.Barrier(ctx, "safetensors-save"); err != nil {
		return fmt.Errorf("%s: %s: %w", op, path, err)
	}
	return saveErr
}
