package examples

import (
	"fmt"
	"math"
	"slices"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// ShardingCase is one program that `stela demo sharding` runs sharded over
// a mesh of CPU devices and compares with the same program unsharded
// (docs/sharding.md).
type ShardingCase struct {
	Name, Doc string
	// Mesh gives the mesh's axes and sizes for n devices.
	Mesh func(n int) (axes []string, shape []int)
	// Func is the program (for jit.Compile); Inputs its arguments, In
	// their specs (nil: replicated) and Out its results' (nil: what
	// propagation decides).
	Func any
	// Manual, when set, makes the sharded program for a mesh, one that
	// names its mesh (sharding.Map); Func is then the unsharded
	// reference.
	Manual func(m *sharding.Mesh) any
	Inputs func(seed uint64) []*tensor.Tensor
	In     []sharding.Spec
	Out    []sharding.Spec
	// Steps > 0 makes it a training loop: the program returns the loss
	// then the updated parameters, which are the last len(results)-1
	// arguments of the next step; it runs Steps times and every step's
	// loss and the final parameters are compared.
	Steps int
	// Tolerance is the largest |sharded - unsharded| allowed: sharded
	// sums add in another order (float rounding).
	Tolerance float64
}

// ShardingResult is what a case did on one mesh in one mode.
type ShardingResult struct {
	Case    string
	Mode    string
	Devices int
	Mesh    string
	// Collectives counts the per-device program's collectives by op
	// name; BytesMoved is what they receive per device per step. Known
	// is false when the compiler does not report them.
	Collectives map[string]int
	BytesMoved  int64
	Known       bool
	MaxAbsDiff  float64
	Tolerance   float64
	OK          bool
	Remarks     []string
	Err         error
}

// ShardingCases lists the demo's cases.
func ShardingCases() []*ShardingCase {
	oneAxis := func(name string) func(n int) ([]string, []int) {
		return func(n int) ([]string, []int) { return []string{name}, []int{n} }
	}
	return []*ShardingCase{
		{
			Name: "mlp-data-parallel", Doc: "a two-layer MLP with the batch split over the devices, the weights replicated",
			Mesh: oneAxis("data"), Func: mlp2,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				return []*tensor.Tensor{uniform(r, 64, 32), normal(r, heInit(32), 32, 64), normal(r, 0.1, 64), normal(r, heInit(64), 64, 16), normal(r, 0.1, 16)}
			},
			In:        []sharding.Spec{sharding.P("data")},
			Out:       []sharding.Spec{sharding.P("data")},
			Tolerance: 1e-5,
		},
		{
			Name: "mlp-tensor-parallel", Doc: "Megatron-style MLP: the first weight split by columns, the second by rows, one all_reduce",
			Mesh: oneAxis("model"), Func: mlp2,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				return []*tensor.Tensor{uniform(r, 16, 32), normal(r, heInit(32), 32, 64), normal(r, 0.1, 64), normal(r, heInit(64), 64, 32), normal(r, 0.1, 32)}
			},
			In:        []sharding.Spec{sharding.P(), sharding.P(nil, "model"), sharding.P("model"), sharding.P("model", nil), sharding.P()},
			Out:       []sharding.Spec{sharding.P()},
			Tolerance: 1e-4,
		},
		{
			Name: "attention-heads", Doc: "softmax attention with the heads split over the devices",
			Mesh: oneAxis("model"), Func: attentionHeads,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				return []*tensor.Tensor{normal(r, 1, 2, 8, 16, 8), normal(r, 1, 2, 8, 16, 8), normal(r, 1, 2, 8, 16, 8)}
			},
			In:        []sharding.Spec{sharding.P(nil, "model"), sharding.P(nil, "model"), sharding.P(nil, "model")},
			Out:       []sharding.Spec{sharding.P(nil, "model")},
			Tolerance: 1e-5,
		},
		{
			Name: "fsdp", Doc: "FSDP-style: the batch and the weights' rows split over the same axis; weights all-gathered before use",
			Mesh: oneAxis("data"), Func: mlp2NoBias,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				return []*tensor.Tensor{uniform(r, 256, 64), normal(r, heInit(64), 64, 64), normal(r, heInit(64), 64, 32)}
			},
			In:        []sharding.Spec{sharding.P("data"), sharding.P("data"), sharding.P("data")},
			Out:       []sharding.Spec{sharding.P("data")},
			Tolerance: 1e-5,
		},
		{
			Name: "mesh-2d", Doc: "a 2-D mesh (data × model): batch over data, Megatron weights over model",
			Mesh: func(n int) ([]string, []int) {
				if n < 2 {
					return []string{"data", "model"}, []int{1, n}
				}
				return []string{"data", "model"}, []int{2, n / 2}
			},
			Func: mlp2NoBias,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				return []*tensor.Tensor{uniform(r, 32, 32), normal(r, heInit(32), 32, 64), normal(r, heInit(64), 64, 32)}
			},
			In:        []sharding.Spec{sharding.P("data"), sharding.P(nil, "model"), sharding.P("model", nil)},
			Out:       []sharding.Spec{sharding.P("data")},
			Tolerance: 1e-4,
		},
		{
			Name: "mlp-manual", Doc: "the Megatron MLP written in manual mode (sharding.Map with an explicit AllReduce) between automatic ops",
			Mesh: oneAxis("model"), Func: mlp2, Manual: mlp2Manual,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				return []*tensor.Tensor{uniform(r, 16, 32), normal(r, heInit(32), 32, 64), normal(r, 0.1, 64), normal(r, heInit(64), 64, 32), normal(r, 0.1, 32)}
			},
			Out:       []sharding.Spec{sharding.P()},
			Tolerance: 1e-4,
		},
		{
			Name: "train-data-parallel", Doc: "data-parallel training: the loss's gradients all-reduced over the batch's devices, five SGD steps, the same loss curve as one device",
			Mesh: oneAxis("data"), Func: trainStep, Steps: 5,
			Inputs: func(seed uint64) []*tensor.Tensor {
				r := rng(seed)
				labels := make([]float32, 64*4)
				for i := range 64 {
					labels[i*4+r.IntN(4)] = 1
				}
				return []*tensor.Tensor{uniform(r, 64, 16), tensor.FromSlice(labels, 64, 4),
					normal(r, heInit(16), 16, 32), normal(r, 0.01, 32), normal(r, heInit(32), 32, 4), normal(r, 0.01, 4)}
			},
			In:        []sharding.Spec{sharding.P("data"), sharding.P("data")},
			Out:       []sharding.Spec{sharding.P(), sharding.P(), sharding.P(), sharding.P(), sharding.P()},
			Tolerance: 1e-4,
		},
	}
}

func mlp2(x, w1, b1, w2, b2 *tensor.Tensor) *tensor.Tensor {
	return dense(tensor.Relu(dense(x, w1, b1)), w2, b2)
}

// mlp2Manual is mlp2 with its hidden layer in manual mode over the mesh's
// one axis: each device computes its columns of the hidden layer and its
// part of the second product, and an AllReduce sums the parts; the last
// bias is added outside, in automatic mode.
func mlp2Manual(m *sharding.Mesh) any {
	axis := m.Axes()[0]
	hidden := sharding.Map(func(p ...*tensor.Tensor) []*tensor.Tensor {
		part := tensor.MatMul(tensor.Relu(dense(p[0], p[1], p[2])), p[3])
		return []*tensor.Tensor{sharding.AllReduce(part, axis, sharding.Sum)}
	}, m, []sharding.Spec{sharding.P(), sharding.P(nil, axis), sharding.P(axis), sharding.P(axis)}, []sharding.Spec{sharding.P()})
	return func(x, w1, b1, w2, b2 *tensor.Tensor) *tensor.Tensor {
		return tensor.Add(hidden(x, w1, b1, w2)[0], b2)
	}
}

func mlp2NoBias(x, w1, w2 *tensor.Tensor) *tensor.Tensor {
	return tensor.MatMul(tensor.Tanh(tensor.MatMul(x, w1)), w2)
}

// attentionHeads is softmax(q kᵀ/√d) v over [batch, heads, seq, dim].
func attentionHeads(q, k, v *tensor.Tensor) *tensor.Tensor {
	d := q.Shape()[3]
	s := tensor.DotGeneral(q, k, ir.DotGeneralAttr{LhsBatch: []int{0, 1}, RhsBatch: []int{0, 1}, LhsContract: []int{3}, RhsContract: []int{3}})
	p := tensor.Softmax(tensor.Mul(s, tensor.Scalar(1/math.Sqrt(float64(d)))), -1)
	return tensor.DotGeneral(p, v, ir.DotGeneralAttr{LhsBatch: []int{0, 1}, RhsBatch: []int{0, 1}, LhsContract: []int{3}, RhsContract: []int{2}})
}

func trainLoss(x, y, w1, b1, w2, b2 *tensor.Tensor) *tensor.Tensor {
	h := tensor.Relu(dense(x, w1, b1))
	logp := tensor.LogSoftmax(dense(h, w2, b2), -1)
	return tensor.Neg(tensor.Mean(tensor.Sum(tensor.Mul(y, logp), -1)))
}

// trainStep is one SGD step: the loss, then the updated parameters.
func trainStep(x, y, w1, b1, w2, b2 *tensor.Tensor) []*tensor.Tensor {
	loss, grads, err := jit.ValueAndGrad(trainLoss, 2, 3, 4, 5)(x, y, w1, b1, w2, b2)
	if err != nil {
		panic(err)
	}
	out := []*tensor.Tensor{loss}
	for i, w := range []*tensor.Tensor{w1, b1, w2, b2} {
		out = append(out, tensor.Sub(w, tensor.Mul(grads[i], tensor.Scalar(0.5))))
	}
	return out
}

// shardings are the case's argument and result specs on mesh.
func (c *ShardingCase) shardings(mesh *sharding.Mesh) (in, out []sharding.Sharding) {
	in = make([]sharding.Sharding, len(c.In))
	for i, s := range c.In {
		in[i] = mesh.On(s)
	}
	out = make([]sharding.Sharding, len(c.Out))
	for i, s := range c.Out {
		out[i] = mesh.On(s)
	}
	return in, out
}

// ShardingProgram is a case traced for a mesh in annotate mode, neither
// compiled nor run: the program a plugin's SPMD partitioner (XLA's) is
// given.
type ShardingProgram struct {
	Mesh *sharding.Mesh
	// Func is the program as the mesh compiles it in annotate mode: the
	// case's function traced, its shardings set (sharding.PrepareJit) and
	// optimized (passes.Default) as jit.Compile does, then
	// Mesh.Annotated. Plain is the same function traced and optimized
	// without shardings, what RunSharding's unsharded run compiles.
	Func, Plain *ir.Func
	// Inputs are the arguments of both: the case's Inputs, then the
	// tensors the function captured.
	Inputs []*tensor.Tensor
}

// Annotated traces the case for a mesh of n CPU devices in annotate
// mode on its Inputs(seed), as RunSharding compiles it, without
// compiling or running it. Of a training case it is one step.
func (c *ShardingCase) Annotated(n int, seed uint64) (*ShardingProgram, error) {
	axes, shape := c.Mesh(n)
	mesh, err := sharding.NewMesh(axes, shape, "cpu")
	if err != nil {
		return nil, err
	}
	mesh = mesh.WithMode(sharding.Annotate)
	args := c.Inputs(seed)
	types := make([]ir.Type, len(args))
	for i, a := range args {
		types[i] = a.Type()
	}
	fn := c.Func
	if c.Manual != nil {
		fn = c.Manual(mesh)
	}
	r, err := jit.TraceFull(fn, types...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	f := r.Func
	f.Name = c.Name // jit.WithName(c.Name), as RunSharding compiles it
	args = append(args, r.Captured...)
	optimize := func(f *ir.Func) (*ir.Func, error) {
		m := &ir.Module{Funcs: []*ir.Func{f}}
		if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		return m.Funcs[0], nil
	}
	reference := ir.CloneFunc(f)
	if c.Manual != nil {
		// The unsharded reference is Func, traced on its own.
		rp, err := jit.TraceFull(c.Func, types...)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		if len(rp.Captured) != len(r.Captured) {
			return nil, fmt.Errorf("%s: the manual program captures %d tensors, the reference %d", c.Name, len(r.Captured), len(rp.Captured))
		}
		reference = rp.Func
	}
	plain, err := optimize(reference)
	if err != nil {
		return nil, err
	}
	in, out := c.shardings(mesh)
	if _, err := sharding.PrepareJit(f, args, in, out); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	if f, err = optimize(f); err != nil {
		return nil, err
	}
	g, err := mesh.Annotated(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	return &ShardingProgram{Mesh: mesh, Func: g, Plain: plain, Inputs: args}, nil
}

// RunSharding runs the case on n CPU devices in the given mode and
// compares it with the program unsharded on one device.
func (c *ShardingCase) RunSharding(n int, mode sharding.Mode) (res ShardingResult) {
	return c.RunShardingOn(n, nil, mode)
}

// RunShardingOn is RunSharding on the named devices (nil: the first n
// CPU devices). In a job (runtime.InitDistributed) the devices may be
// those of several processes: every process runs the case on the same
// mesh, and the results are gathered (sharding.Gather) to be compared.
func (c *ShardingCase) RunShardingOn(n int, devices []string, mode sharding.Mode) (res ShardingResult) {
	res = ShardingResult{Case: c.Name, Mode: mode.String(), Devices: n, Tolerance: c.Tolerance}
	err := tensor.Catch(func() {
		axes, shape := c.Mesh(n)
		if devices == nil {
			devices = []string{"cpu"}
		}
		mesh, err := sharding.NewMesh(axes, shape, devices...)
		if err != nil {
			panic(err)
		}
		mesh = mesh.WithMode(mode)
		res.Mesh = mesh.String()
		in, out := c.shardings(mesh)
		name := c.Name
		plain := jit.CompileAny(c.Func, jit.WithName(name+"_unsharded"))
		fn := c.Func
		if c.Manual != nil {
			fn = c.Manual(mesh)
		}
		sharded := jit.CompileAny(fn, jit.WithName(name), jit.InShardings(in...), jit.OutShardings(out...))
		args := c.Inputs(7)
		steps := max(c.Steps, 1)
		wantArgs, gotArgs := args, args
		for step := 0; step < steps; step++ {
			want, err := plain(wantArgs...)
			if err != nil {
				panic(err)
			}
			got, err := sharded(gotArgs...)
			if err != nil {
				panic(err)
			}
			for i := range want {
				if sh := got[i].Sharding(); sh == nil && n > 1 {
					panic(fmt.Errorf("result #%d is not sharded", i))
				}
				// Gathered: on a mesh across processes, no process holds
				// every piece (it is the result itself elsewhere).
				res.MaxAbsDiff = math.Max(res.MaxAbsDiff, maxAbsDiff(sharding.Gather(got[i]).Float32s(), want[i].Float32s()))
			}
			if c.Steps > 0 {
				k := len(want) - 1
				wantArgs = append(slices.Clone(args[:len(args)-k]), want[1:]...)
				gotArgs = append(slices.Clone(args[:len(args)-k]), got[1:]...)
			}
		}
		for _, p := range mesh.Compiled() {
			if p.Name != name {
				continue
			}
			res.Collectives, res.BytesMoved, res.Known = p.Collectives, p.BytesMoved, p.Known
			res.Remarks = append(res.Remarks, p.Remarks...)
			res.Remarks = append(res.Remarks, p.Conflicts...)
		}
	})
	if err != nil {
		res.Err = err
		return res
	}
	res.OK = res.MaxAbsDiff <= c.Tolerance
	return res
}

func maxAbsDiff(a, b []float32) float64 {
	m := 0.0
	if len(a) != len(b) {
		return math.Inf(1)
	}
	for i := range a {
		d := math.Abs(float64(a[i]) - float64(b[i]))
		if math.IsNaN(d) {
			return math.Inf(1)
		}
		m = math.Max(m, d)
	}
	return m
}
