package examples

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Example is a built-in program.
type Example interface {
	// Name is the registry name ("mlp").
	Name() string
	// Doc is one line about the program.
	Doc() string
	// Func is the Go function to trace or call: one *tensor.Tensor
	// parameter per spec, one *tensor.Tensor result, or a slice of them
	// whose first is the one to compare (a training step's loss).
	Func() any
	// Specs are the parameter types: the data, then the weights.
	Specs() []ir.Type
	// Inputs makes deterministic random arguments, one per spec.
	Inputs(seed uint64) []*tensor.Tensor
}

var registry = []Example{
	DefaultMLP(),
	DefaultMLPTrain(),
	DefaultCNN(),
	SmallTransformer(),
	GPT2Small(),
}

// All returns the built-in examples, sorted by name.
func All() []Example {
	out := slices.Clone(registry)
	slices.SortFunc(out, func(a, b Example) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// Names lists the built-in examples' names, sorted.
func Names() []string {
	var names []string
	for _, e := range All() {
		names = append(names, e.Name())
	}
	return names
}

// Get finds a built-in example by name.
func Get(name string) (Example, error) {
	for _, e := range registry {
		if e.Name() == name {
			return e, nil
		}
	}
	return nil, fmt.Errorf("examples: unknown example %q (have %s)", name, strings.Join(Names(), ", "))
}

// Trace traces ex on its specs into a function named after it.
func Trace(ex Example) (*jit.TraceResult, error) {
	r, err := jit.TraceFull(ex.Func(), ex.Specs()...)
	if err != nil {
		return nil, fmt.Errorf("examples: trace %s: %w", ex.Name(), err)
	}
	r.Func.Name = strings.ReplaceAll(ex.Name(), "-", "_")
	return r, nil
}

// TraceNamed is Trace of the example called name.
func TraceNamed(name string) (*jit.TraceResult, error) {
	ex, err := Get(name)
	if err != nil {
		return nil, err
	}
	return Trace(ex)
}

// Call runs ex eagerly on its inputs and returns its result.
func Call(ex Example, inputs []*tensor.Tensor) (*tensor.Tensor, error) {
	out, err := jit.Call(ex.Func(), inputs...)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// rng makes the generator behind Inputs.
func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5354454c41)) } // "STELA"

// normal is a tensor of f32 samples from N(0, std²).
func normal(r *rand.Rand, std float64, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = float32(r.NormFloat64() * std)
	}
	return tensor.FromSlice(data, shape...)
}

// uniform is a tensor of f32 samples from [0, 1), like pixel intensities.
func uniform(r *rand.Rand, shape ...int) *tensor.Tensor {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float32, n)
	for i := range data {
		data[i] = r.Float32()
	}
	return tensor.FromSlice(data, shape...)
}

// ones is a tensor of f32 ones (layer-norm scales start at one).
func ones(shape ...int) *tensor.Tensor { return tensor.Ones(ir.F32, shape...) }

// dense is x·w + b for x [..., in], w [in, out], b [out].
func dense(x, w, b *tensor.Tensor) *tensor.Tensor { return tensor.Add(tensor.MatMul(x, w), b) }

// heInit is the standard deviation that keeps activations' scale through
// a layer with fan-in n.
func heInit(n int) float64 { return math.Sqrt(2 / float64(n)) }

func f32(shape ...int) ir.Type { return ir.TensorOf(ir.F32, shape...) }
