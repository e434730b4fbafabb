package sharding

import (
	"fmt"
	"strings"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Meshes across processes (docs/distributed.md, "A global mesh"). In a
// job (runtime.InitDistributed), NewMesh takes its devices from the job's
// global device list: a mesh may span the devices of several processes.
// Every process builds the same mesh and runs the same programs on it
// (SPMD), each on its own devices; the Stela CPU plugin's collectives
// reach the other processes. As in JAX's multi-process arrays, a sharded
// array has, in each process, the pieces of that process's devices (its
// addressable shards, tensor.Shards):
//
//   - Put of a host tensor lays out, in each process, the pieces of its
//     own devices: every process passes the same global value;
//   - reading a sharded array (Float32s, Literal) works when this
//     process's devices hold every block (replicated, or split only over
//     local devices); otherwise it is an error that says so, and Gather
//     (collective: every process calls it) makes a replicated copy.

// lookupGlobal finds a device by name: Lookup's names, or, in a job,
// a device of another process ("cpu:1@p2").
func lookupGlobal(name string) (runtime.Device, error) {
	if !strings.Contains(name, "@p") || runtime.Distributed() == nil {
		return runtime.Lookup(name)
	}
	fam, _, _ := strings.Cut(name, ":")
	devs, err := runtime.GlobalFamilyDevices(fam)
	if err != nil {
		return nil, err
	}
	for _, d := range devs {
		if d.Name() == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no device %q in the job (%d %s devices)", name, len(devs), fam)
}

// global reports whether the mesh has devices of other processes.
func (m *Mesh) global() bool {
	for _, d := range m.devices {
		if !runtime.IsLocal(d) {
			return true
		}
	}
	return false
}

// Processes are the processes whose devices the mesh spans, in order
// (0 alone outside a job).
func (m *Mesh) Processes() []int {
	var out []int
	seen := map[int]bool{}
	for _, d := range m.devices {
		p := runtime.DeviceProcess(d)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// reshard lays sb out as sh on its mesh with a program (collectives)
// rather than through the host: what a mesh over several processes
// needs, where no process holds every piece.
func (d *meshDevice) reshard(sb *shardedBuffer, sh *ir.Sharding) (*shardedBuffer, error) {
	f := ir.NewFunc("reshard", sb.typ)
	f.Return(f.Params[0])
	f.InShardings = []*ir.Sharding{sb.sh.Clone()}
	f.OutShardings = []*ir.Sharding{sh.Clone()}
	e, err := d.compile(f)
	if err != nil {
		return nil, err
	}
	outs, err := e.Run([]runtime.Buffer{sb}, ir.CallerLoc())
	if err != nil {
		return nil, err
	}
	return outs[0].(*shardedBuffer), nil
}

// Gather returns t (sharded over a mesh) replicated on every device of
// its mesh, so that every process can read it whole: the check of a
// result sharded across processes. On a mesh over several processes it
// is collective (it runs a program with all_gather on every device):
// every process must call it, in the same order. A tensor that is not
// sharded is returned as it is.
func Gather(t *tensor.Tensor) *tensor.Tensor {
	loc := ir.CallerLoc()
	if t == nil {
		panic(ir.Errorf(loc, "sharding.Gather", "nil tensor"))
	}
	if t.Traced() {
		panic(ir.Errorf(loc, "sharding.Gather", "tensor %v is traced: inside jit.Compile use sharding.Constrain with a replicated spec", t.Type()))
	}
	sb, ok := t.Buffer().(*shardedBuffer)
	if !ok {
		return t
	}
	rep := ir.Replicated(sb.typ.Rank())
	if sb.sh.Equal(rep) {
		return t
	}
	out, err := sb.dev.reshard(sb, rep)
	if err != nil {
		panic(ir.Errorf(loc, "sharding.Gather", "%v", err))
	}
	return tensor.FromBuffer(out)
}
