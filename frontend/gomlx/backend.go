// Package gomlx is Stela as a GoMLX backend: it implements
// github.com/gomlx/compute's Backend (GoMLX v0.28's backend interface),
// so that GoMLX programs build Stela IR functions, run through Stela's
// passes and lowering, and compile and run on any device of Stela's
// runtime: its own CPU PJRT plugin, or any PJRT plugin (CUDA, TPU, a
// plugin's path).
//
// Importing the package registers the backend as "stela" (compute.Register
// in init), so that GOMLX_BACKEND selects it:
//
//	GOMLX_BACKEND=stela              Stela's CPU plugin, device cpu:0
//	GOMLX_BACKEND=stela:cpu          all the CPU plugin's devices
//	GOMLX_BACKEND=stela:cpu:1        device cpu:1 alone
//	GOMLX_BACKEND=stela:cuda         a CUDA PJRT plugin (pjrt.FindPlugin)
//	GOMLX_BACKEND=stela:tpu          libtpu
//	GOMLX_BACKEND=stela:/path/x.so   that plugin
//	GOMLX_BACKEND=stela:host         the reference evaluator (ir.Eval)
//
// docs/gomlx.md describes what lowers, the mapping of GoMLX ops to IR
// ops, and how the backend was checked.
package gomlx

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/shapes"
	"github.com/pkg/errors"

	_ "github.com/stela-ml/stela/frontend/tensor" // lowering (runtime.SetLowering) and the cpu family
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// BackendName is the name GOMLX_BACKEND selects the backend by.
const BackendName = "stela"

func init() {
	compute.Register(BackendName, func(config string) (compute.Backend, error) { return New(config) })
	// Errors the runtime locates on its own (an execution that fails to
	// start, a read of a donated buffer) name the GoMLX user's line:
	// GoMLX's frames and this package's are not the user's.
	ir.RegisterLibraryPackages("github.com/gomlx/", "github.com/stela-ml/stela/frontend/gomlx.")
}

// Backend is Stela as a compute.Backend. Its devices (compute.DeviceNum
// i) are the runtime devices of one family, or one device when the
// configuration names one ("cpu:1").
type Backend struct {
	config    string
	family    string
	devices   []runtime.Device
	finalized atomic.Bool
	// hostMemory: every device keeps its buffers in host memory
	// (HasSharedBuffers).
	hostMemory bool
}

var _ compute.Backend = (*Backend)(nil)

// New returns the backend for config (GOMLX_BACKEND's part after
// "stela:"): "" (device cpu:0 of Stela's CPU plugin, one device as XLA's
// CPU client has), "FAMILY" (all devices of a family: cpu, cuda, tpu, a
// plugin's path, host), or "FAMILY:N" (one device).
func New(config string) (*Backend, error) {
	config = strings.TrimSpace(config)
	fam := config
	if fam == "" {
		fam = "cpu:0"
	}
	b := &Backend{config: config, family: fam}
	if fam == "host" {
		d, err := runtime.Lookup("host")
		if err != nil {
			return nil, errors.Wrapf(err, "stela backend %q", config)
		}
		b.devices = []runtime.Device{d}
		return b, nil
	}
	if i := strings.LastIndexByte(fam, ':'); i >= 0 && isDigits(fam[i+1:]) {
		d, err := runtime.Lookup(fam)
		if err != nil {
			return nil, errors.Wrapf(err, "stela backend %q", config)
		}
		b.family = runtime.DeviceFamily(d)
		b.devices = []runtime.Device{d}
		b.hostMemory = runtime.HostMemory(d)
		return b, nil
	}
	devs, err := runtime.FamilyDevices(fam)
	if err != nil {
		return nil, errors.Wrapf(err, "stela backend %q", config)
	}
	if len(devs) == 0 {
		return nil, errors.Errorf("stela backend %q: family %s has no devices", config, fam)
	}
	b.devices = devs
	b.hostMemory = true
	for _, d := range devs {
		b.hostMemory = b.hostMemory && runtime.HostMemory(d)
	}
	return b, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Name is "stela".
func (b *Backend) Name() string { return BackendName }

// String is Name.
func (b *Backend) String() string { return BackendName }

// Description names the devices.
func (b *Backend) Description() string {
	names := make([]string, len(b.devices))
	for i, d := range b.devices {
		names[i] = d.Name()
	}
	return fmt.Sprintf("Stela (IR, passes, StableHLO lowering, PJRT) on %s", strings.Join(names, ", "))
}

// NumDevices is the number of devices of the configuration.
func (b *Backend) NumDevices() int { return len(b.devices) }

// DeviceDescription is the runtime's name of the device.
func (b *Backend) DeviceDescription(deviceNum compute.DeviceNum) string {
	if d, err := b.device(deviceNum); err == nil {
		return d.Name()
	}
	return fmt.Sprintf("invalid device #%d", deviceNum)
}

// Device returns the runtime device behind deviceNum.
func (b *Backend) Device(deviceNum compute.DeviceNum) (runtime.Device, error) {
	return b.device(deviceNum)
}

func (b *Backend) device(n compute.DeviceNum) (runtime.Device, error) {
	if b.finalized.Load() {
		return nil, errors.New("stela backend: used after Finalize")
	}
	if int(n) < 0 || int(n) >= len(b.devices) {
		return nil, errors.Errorf("stela backend: device #%d out of range (it has %d)", n, len(b.devices))
	}
	return b.devices[n], nil
}

// Finalize marks the backend finalized. The runtime's platforms live as
// long as the process (docs/runtime.md), so there is nothing to close.
func (b *Backend) Finalize() { b.finalized.Store(true) }

// IsFinalized reports whether Finalize was called.
func (b *Backend) IsFinalized() bool { return b.finalized.Load() }

// Builder starts a computation.
func (b *Backend) Builder(name string) compute.Builder { return newBuilder(b, name) }

// The element types both sides have.
var dtypeMap = map[dtypes.DType]ir.DType{
	dtypes.Bool: ir.Bool, dtypes.Int8: ir.S8, dtypes.Int16: ir.S16, dtypes.Int32: ir.S32, dtypes.Int64: ir.S64,
	dtypes.Uint8: ir.U8, dtypes.Uint16: ir.U16, dtypes.Uint32: ir.U32, dtypes.Uint64: ir.U64,
	dtypes.Float16: ir.F16, dtypes.BFloat16: ir.BF16, dtypes.Float32: ir.F32, dtypes.Float64: ir.F64,
	dtypes.Complex64: ir.C64, dtypes.Complex128: ir.C128,
}

var dtypeBack = func() map[ir.DType]dtypes.DType {
	m := map[ir.DType]dtypes.DType{}
	for k, v := range dtypeMap {
		m[v] = k
	}
	return m
}()

// irType is the IR type of a GoMLX shape.
func irType(s shapes.Shape) (ir.Type, error) {
	dt, ok := dtypeMap[s.DType]
	if !ok {
		return ir.Type{}, errors.Wrapf(compute.ErrNotImplemented, "stela backend: dtype %s has no Stela element type", s.DType)
	}
	for _, d := range s.Dimensions {
		if d < 0 {
			return ir.Type{}, errors.Wrapf(compute.ErrNotImplemented, "stela backend: dynamic shape %s (Stela compiles static shapes; GoMLX re-builds the graph per shape)", s)
		}
	}
	return ir.TensorOf(dt, slices.Clone(s.Dimensions)...), nil
}

// gomlxShape is the GoMLX shape of an IR type.
func gomlxShape(t ir.Type) shapes.Shape {
	return shapes.Make(dtypeBack[t.DType], t.Shape...)
}

var capsOnce = sync.OnceValue(func() compute.Capabilities {
	c := compute.Capabilities{
		Operations:    map[compute.OpType]bool{},
		DTypes:        map[dtypes.DType]bool{},
		Functions:     true,
		DynamicShapes: compute.DynamicShapesNone,
	}
	for dt := range dtypeMap {
		c.DTypes[dt] = true
	}
	for _, op := range supportedOps {
		c.Operations[op] = true
	}
	return c
})

// Capabilities lists exactly the ops this package lowers (supportedOps,
// ops.go) and the element types Stela's IR has.
func (b *Backend) Capabilities() compute.Capabilities { return capsOnce().Clone() }
