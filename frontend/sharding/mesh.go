// Package sharding lays tensors out across several devices and runs
// programs on them as one (docs/sharding.md).
//
// A Mesh is a grid of devices with named axes:
//
//	mesh, err := sharding.NewMesh([]string{"data", "model"}, []int{2, 4}, "cpu")
//
// A Spec says, for each dimension of a tensor, which mesh axes split it
// (sharding.P("data", nil): rows split over "data", columns whole). A
// sharded tensor is one logical tensor whose pieces live on the mesh's
// devices:
//
//	x = sharding.Put(x, mesh, sharding.P("data", nil))
//
// Ops on sharded tensors run sharded, eagerly or compiled: one program
// for all the devices, partitioned by Stela's own SPMD partitioner
// (mode Partition, the default on CPU) or annotated for the backend
// compiler's (mode Annotate, XLA's on TPU and GPU). Inside jit.Compile,
// Constrain asks for a value's sharding, and jit.InShardings and
// jit.OutShardings for the arguments' and results'; propagation decides
// the rest, and STELA_LOG=sharding says why each value got its sharding.
package sharding

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Mode is how a mesh's programs are partitioned.
type Mode int

const (
	// Partition: Stela's SPMD partitioner rewrites the program into the
	// program of one device with explicit collectives, which any plugin
	// runs (the default for the Stela CPU plugin).
	Partition Mode = iota
	// Annotate: the program carries mhlo.sharding annotations and the
	// plugin's compiler partitions it (XLA's SPMD partitioner; the
	// default for other plugins).
	Annotate
)

func (m Mode) String() string {
	if m == Annotate {
		return "annotate"
	}
	return "partition"
}

// Mesh is a grid of devices with named axes. Mesh device i, the one at
// the row-major coordinates of i over the axes, is Devices()[i] and runs
// partition i of the mesh's programs.
type Mesh struct {
	ir      *ir.Mesh
	devices []runtime.Device
	family  string
	mode    Mode
	dev     *meshDevice
}

// NewMesh makes a mesh of the named axes and sizes over devices of one
// family: their names ("cpu:0", ..., "cpu:7"), or a family's name ("cpu",
// "cuda", "tpu") for its first devices, or nothing for the default
// device's family. The mode is Partition for Stela's CPU plugin and
// Annotate for other plugins (WithMode changes it).
func NewMesh(axes []string, shape []int, devices ...string) (*Mesh, error) {
	loc := ir.CallerLoc()
	fail := func(format string, args ...any) (*Mesh, error) {
		return nil, ir.Errorf(loc, "sharding.NewMesh", format, args...)
	}
	im, err := ir.NewMesh(axes, shape)
	if err != nil {
		return fail("%v", err)
	}
	n := im.NumDevices()
	var devs []runtime.Device
	family := ""
	switch {
	case len(devices) == 0 || (len(devices) == 1 && !strings.Contains(devices[0], ":")):
		if len(devices) == 1 {
			family = devices[0]
		} else {
			family = runtime.DeviceFamily(tensor.DefaultDevice())
		}
		// In a job: the devices of all its processes (collective).
		all, err := runtime.GlobalFamilyDevices(family)
		if err != nil {
			return fail("%v", err)
		}
		if len(all) < n {
			hint := ""
			if family == "cpu" {
				hint = fmt.Sprintf(" (set %s=%d for more virtual CPU devices)", "STELA_CPU_DEVICES", n)
			}
			return fail("mesh %v needs %d devices, but %s has %d%s", im, n, family, len(all), hint)
		}
		devs = all[:n]
	default:
		if len(devices) != n {
			return fail("mesh %v has %d devices, but %d are named (%s)", im, n, len(devices), strings.Join(devices, ", "))
		}
		for i, name := range devices {
			d, err := lookupGlobal(name)
			if err != nil {
				return fail("device #%d: %v", i, err)
			}
			f := runtime.DeviceFamily(d)
			if family == "" {
				family = f
			} else if f != family {
				return fail("devices from two families: %s is %s, %s is %s; a mesh spans one family", devices[0], family, name, f)
			}
			if slices.Contains(devs, d) {
				return fail("device %s named twice", name)
			}
			devs = append(devs, d)
		}
	}
	m := &Mesh{ir: im, devices: devs, family: family}
	if family != "cpu" {
		m.mode = Annotate
	}
	m.dev = newMeshDevice(m)
	return m, nil
}

// WithMode returns the mesh with programs partitioned as mode says: the
// same devices and axes, another mesh device (tensors sharded over one
// are moved to the other like tensors of two devices).
func (m *Mesh) WithMode(mode Mode) *Mesh {
	c := *m
	c.mode = mode
	c.dev = newMeshDevice(&c)
	return &c
}

// Mode is how the mesh's programs are partitioned.
func (m *Mesh) Mode() Mode { return m.mode }

// Axes lists the axis names, Shape their sizes.
func (m *Mesh) Axes() []string { return m.ir.AxisNames() }

// Shape lists the axis sizes.
func (m *Mesh) Shape() []int {
	s := make([]int, len(m.ir.Axes))
	for i, a := range m.ir.Axes {
		s[i] = a.Size
	}
	return s
}

// Size is the number of devices.
func (m *Mesh) Size() int { return len(m.devices) }

// Devices names the mesh's devices in mesh order.
func (m *Mesh) Devices() []string {
	ns := make([]string, len(m.devices))
	for i, d := range m.devices {
		ns[i] = d.Name()
	}
	return ns
}

// IR is the mesh as the IR has it (axes only).
func (m *Mesh) IR() *ir.Mesh { return m.ir }

// Device is the mesh as a device: where sharded tensors live, and what
// runs programs on them.
func (m *Mesh) Device() runtime.Device { return m.dev }

func (m *Mesh) String() string {
	return fmt.Sprintf("mesh %v on %s (%s)", m.ir, deviceRange(m.Devices()), m.mode)
}

// deviceRange prints cpu:0..7 for consecutive devices of one family.
func deviceRange(names []string) string {
	if len(names) > 1 {
		fam, first, ok := strings.Cut(names[0], ":")
		consecutive := ok
		var last string
		for i, n := range names {
			f, id, ok2 := strings.Cut(n, ":")
			consecutive = consecutive && ok2 && f == fam && id == fmt.Sprint(atoi(first)+i)
			last = id
		}
		if consecutive {
			return fmt.Sprintf("%s:%s..%s", fam, first, last)
		}
	}
	return strings.Join(names, ",")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// Spec is how a tensor is split: for each dimension, the mesh axes that
// split it (major first; none: the dimension is whole), and for the
// partitioner's internal use, the axes over which a value is a partial
// sum. A Spec with fewer dimensions than a tensor leaves the rest whole.
type Spec = ir.Sharding

// P makes a Spec like JAX's PartitionSpec: one argument per dimension, a
// mesh axis name, a []string of several axes, or nil (or "") for a whole
// dimension. P() is replicated.
func P(dims ...any) Spec {
	s := Spec{Dims: make([][]string, len(dims))}
	for i, d := range dims {
		switch d := d.(type) {
		case nil:
		case string:
			if d != "" {
				s.Dims[i] = []string{d}
			}
		case []string:
			s.Dims[i] = slices.Clone(d)
		default:
			panic(fmt.Sprintf("sharding.P: dimension %d is %T; want a mesh axis name, a []string of them, or nil", i, d))
		}
	}
	return s
}

// Replicated is the Spec of a tensor every device holds whole.
func Replicated() Spec { return Spec{} }

// normalize pads spec with whole dimensions to rank and checks it on the
// mesh for a value of type t.
func normalize(spec Spec, m *ir.Mesh, t ir.Type) (*ir.Sharding, error) {
	s := spec.Clone()
	if s == nil {
		s = &ir.Sharding{}
	}
	if len(s.Dims) > t.Rank() {
		return nil, fmt.Errorf("spec %v has %d dimensions, but the tensor %v has rank %d", s, len(s.Dims), t, t.Rank())
	}
	for len(s.Dims) < t.Rank() {
		s.Dims = append(s.Dims, nil)
	}
	if len(s.Partial) > 0 {
		return nil, fmt.Errorf("spec %v is a partial sum: only the partitioner makes those", s)
	}
	if err := s.Check(m, t); err != nil {
		return nil, err
	}
	return s, nil
}
