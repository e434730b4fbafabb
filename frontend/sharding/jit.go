package sharding

import (
	"fmt"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Sharding is a Spec on a Mesh: where jit.InShardings puts an argument
// and jit.OutShardings a result (JAX's NamedSharding). The zero value
// leaves it to the arguments and to propagation.
type Sharding struct {
	Mesh *Mesh
	Spec Spec
}

// On is the Sharding of spec on m.
func (m *Mesh) On(spec Spec) Sharding { return Sharding{Mesh: m, Spec: spec} }

// MeshOf returns the mesh a sharded tensor is laid out over, or nil.
func MeshOf(t *tensor.Tensor) *Mesh {
	if t == nil || t.Traced() || t.Buffer() == nil {
		return nil
	}
	if d, ok := t.Buffer().Device().(*meshDevice); ok {
		return d.m
	}
	return nil
}

// IsMeshDevice reports whether d is a mesh's device, and which mesh.
func IsMeshDevice(d runtime.Device) (*Mesh, bool) {
	md, ok := d.(*meshDevice)
	if !ok {
		return nil, false
	}
	return md.m, true
}

// PrepareJit decides the mesh of a jit-compiled function and writes its
// shardings into f, whose parameters are the call's tensors then the
// tensors it captured (all of them in tensors). The mesh is the one of
// the options, of the sharded tensors and of the sharding.Maps in f,
// which must agree; nil when
// nothing is sharded (f is left alone). A parameter gets its option's
// Spec, else its tensor's sharding on that mesh, else is replicated; a
// result gets its option's Spec, else what propagation decides.
func PrepareJit(f *ir.Func, tensors []*tensor.Tensor, in, out []Sharding) (*Mesh, error) {
	var mesh *Mesh
	var from string
	use := func(m *Mesh, what string) error {
		if m == nil {
			return nil
		}
		if mesh == nil {
			mesh, from = m, what
			return nil
		}
		if m.dev != mesh.dev && !(m.ir.Equal(mesh.ir) && sameDevices(m, mesh) && m.mode == mesh.mode) {
			return fmt.Errorf("%s is on %v, but %s is on %v: one compiled call runs on one mesh", what, m, from, mesh)
		}
		return nil
	}
	for i, s := range in {
		if err := use(s.Mesh, fmt.Sprintf("jit.InShardings[%d]", i)); err != nil {
			return nil, err
		}
	}
	for i, s := range out {
		if err := use(s.Mesh, fmt.Sprintf("jit.OutShardings[%d]", i)); err != nil {
			return nil, err
		}
	}
	for i, t := range tensors {
		if err := use(MeshOf(t), fmt.Sprintf("tensor #%d", i)); err != nil {
			return nil, err
		}
	}
	bm, where, err := meshOfBodies(f, mesh)
	if err != nil {
		return nil, err
	}
	if err := use(bm, where); err != nil {
		return nil, err
	}
	if mesh == nil {
		return nil, nil
	}
	if len(in) > len(tensors) {
		return nil, fmt.Errorf("jit.InShardings gives %d shardings for %d tensor arguments", len(in), len(tensors))
	}
	if len(out) > len(f.Results) {
		return nil, fmt.Errorf("jit.OutShardings gives %d shardings for %d tensor results", len(out), len(f.Results))
	}
	f.Mesh = mesh.ir
	f.InShardings = make([]*ir.Sharding, len(f.Params))
	for i, p := range f.Params {
		var sh *ir.Sharding
		var err error
		switch {
		case i < len(in) && in[i].Mesh != nil:
			sh, err = normalize(in[i].Spec, mesh.ir, p.Type)
			if err != nil {
				return nil, fmt.Errorf("jit.InShardings[%d]: %w", i, err)
			}
		case i < len(tensors) && MeshOf(tensors[i]) != nil:
			sh = tensors[i].Sharding()
		default:
			sh = ir.Replicated(p.Type.Rank())
		}
		f.InShardings[i] = sh
	}
	f.OutShardings = nil
	for i, s := range out {
		if s.Mesh == nil {
			setSharding(&f.OutShardings, i, nil)
			continue
		}
		sh, err := normalize(s.Spec, mesh.ir, f.Results[i].Type)
		if err != nil {
			return nil, fmt.Errorf("jit.OutShardings[%d]: %w", i, err)
		}
		setSharding(&f.OutShardings, i, sh)
	}
	return mesh, nil
}

func sameDevices(a, b *Mesh) bool {
	if len(a.devices) != len(b.devices) {
		return false
	}
	for i := range a.devices {
		if a.devices[i] != b.devices[i] {
			return false
		}
	}
	return true
}
