package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

// checkGrads compares the gradient of f at p, a tree of f64 tensors, as
// jit.GradTree computes it eagerly and compiled, with central finite
// differences of f at up to 10 elements of each leaf. The differences
// evaluate f eagerly: its ops' one-op programs are the ones the eager
// gradient's forward pass compiled already.
func checkGrads[P any](t *testing.T, name string, p P, f func(P) *tensor.Tensor) {
	t.Helper()
	leaves, err := tree.FlattenWithPaths(p)
	if err != nil {
		t.Fatal(err)
	}
	eager, err := jit.GradTree(f)(p)
	if err != nil {
		t.Fatalf("%s: eager GradTree: %v", name, err)
	}
	compiled, err := jit.Compile(func(p P) (P, error) { return jit.GradTree(f)(p) })(p)
	if err != nil {
		t.Fatalf("%s: compiled GradTree: %v", name, err)
	}
	ge, _ := tree.Flatten(eager)
	gc, _ := tree.Flatten(compiled)
	at := func(i int, v []float64) float64 {
		ls := make([]*tensor.Tensor, len(leaves))
		for j, l := range leaves {
			ls[j] = l.Tensor
		}
		ls[i] = tensor.FromSlice(v, leaves[i].Tensor.Shape()...)
		q, err := tree.Unflatten(p, ls)
		if err != nil {
			t.Fatal(err)
		}
		return f(q).Float64s()[0]
	}
	r := rand.New(rand.NewPCG(3, uint64(len(name))))
	const h = 1e-5
	worst := 0.0
	for i, l := range leaves {
		if l.Tensor.DType() != ir.F64 {
			continue
		}
		v := l.Tensor.Float64s()
		e, c := ge[i].Float64s(), gc[i].Float64s()
		idx := r.Perm(len(v))
		if len(idx) > 10 {
			idx = idx[:10]
		}
		for _, k := range idx {
			orig := v[k]
			v[k] = orig + h
			fp := at(i, v)
			v[k] = orig - h
			fm := at(i, v)
			v[k] = orig
			fd := (fp - fm) / (2 * h)
			tol := 1e-6 + 1e-5*math.Abs(fd)
			worst = max(worst, math.Abs(e[k]-fd))
			if math.Abs(e[k]-fd) > tol || math.Abs(c[k]-fd) > tol {
				t.Errorf("%s: d/d%s[%d]: eager %.10g, compiled %.10g, finite differences %.10g", name, l.Path, k, e[k], c[k], fd)
			}
		}
	}
	if testing.Verbose() {
		t.Logf("%s: max |grad - finite difference| %.3g", name, worst)
	}
}

// weighted is Σ y·w for a fixed random w of y's shape: a scalar whose
// gradient reaches every output element with a different weight.
func weighted(r *rand.Rand, y *tensor.Tensor) func(*tensor.Tensor) *tensor.Tensor {
	w := randn64(r, 1, y.Shape()...)
	return func(y *tensor.Tensor) *tensor.Tensor { return tensor.Sum(tensor.Mul(y, w)) }
}

// withInput is a layer and its input, both differentiated.
type withInput[L any] struct {
	L L
	X *tensor.Tensor
}

// TestLayerGradients checks every layer's gradients with respect to its
// parameters and its input, and the losses' with respect to their
// inputs, against finite differences in f64.
func TestLayerGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	f64 := nn.WithDType(ir.F64)
	keys := tensor.SplitKey(tensor.RandomKey(5), 8)
	rnd := func(shape ...int) *tensor.Tensor { return randn64(r, 1, shape...) }
	// Biases and scales start at zeros and ones; make them random so that
	// nothing is special.
	random := nn.WithBiasInit(func(_ *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor { return randn64(r, 0.5, shape...) })
	randomScale := nn.WithScaleInit(func(_ *tensor.Tensor, dt ir.DType, shape ...int) *tensor.Tensor { return randn64(r, 0.5, shape...) })

	layer := func(name string, l nn.Layer, x *tensor.Tensor) {
		out := weighted(r, l.Forward(x))
		checkGrads(t, name, withInput[nn.Layer]{l, x}, func(p withInput[nn.Layer]) *tensor.Tensor { return out(p.L.Forward(p.X)) })
	}
	layer("linear", nn.NewLinear(keys[0], 4, 3, f64, random), rnd(2, 4))
	layer("conv_same", nn.NewConv2D(keys[1], 2, 3, 3, 3, f64, random), rnd(2, 5, 5, 2))
	layer("conv_strided_valid_dilated", nn.NewConv2D(keys[2], 2, 2, 2, 3, f64, random,
		nn.WithStrides(2, 1), nn.WithPadding(tensor.Valid), nn.WithDilation(1, 2)), rnd(1, 6, 7, 2))
	layer("layer_norm", nn.NewLayerNorm(nil, 6, f64, randomScale, random), rnd(3, 6))
	layer("rms_norm", nn.NewRMSNorm(nil, 6, f64, randomScale), rnd(3, 6))
	layer("mlp_tanh", nn.NewMLP(keys[3], []int{3, 4, 2}, f64, random, nn.WithActivation(nn.Tanh)), rnd(2, 3))
	layer("mlp_gelu", nn.NewMLP(keys[4], []int{3, 4, 2}, f64, random, nn.WithActivation(nn.GELU)), rnd(2, 3))
	layer("mha_causal", nn.NewMultiHeadAttention(keys[5], 4, 2, f64, random, nn.WithCausalMask()), rnd(2, 3, 4))
	layer("sequential", nn.Sequential{
		nn.NewConv2D(keys[6], 1, 2, 3, 3, f64), nn.SiLU,
		nn.AvgPool2D{Window: [2]int{2, 2}}, nn.Flatten{},
		nn.NewLinear(keys[7], 8, 2, f64), nn.Sigmoid,
	}, rnd(2, 4, 4, 1))

	// Embedding: the gradient flows to the rows looked up (row 1 twice).
	emb := nn.NewEmbedding(keys[0], 5, 3, f64)
	ids := tensor.FromSlice([]int32{1, 4, 1, 0}, 2, 2)
	eo := weighted(r, emb.Forward(ids))
	checkGrads(t, "embedding", emb, func(e nn.Embedding) *tensor.Tensor { return eo(e.Forward(ids)) })

	// Dropout with a fixed key is a fixed mask and scale.
	d := nn.Dropout{Rate: 0.5}
	dk := tensor.RandomKey(9)
	xd := rnd(4, 5)
	do := weighted(r, xd)
	checkGrads(t, "dropout", xd, func(x *tensor.Tensor) *tensor.Tensor { return do(d.Forward(dk, x, true)) })

	// Losses with respect to their first input.
	logits := rnd(4, 5)
	labels := tensor.FromSlice([]int32{0, 3, 4, 1}, 4)
	probs := tensor.Softmax(rnd(4, 5), -1)
	targets := tensor.Sigmoid(rnd(4, 5))
	for _, c := range []struct {
		name string
		f    func(x *tensor.Tensor) *tensor.Tensor
	}{
		{"softmax_cross_entropy", func(x *tensor.Tensor) *tensor.Tensor { return nn.SoftmaxCrossEntropy(x, probs) }},
		{"sparse_softmax_cross_entropy", func(x *tensor.Tensor) *tensor.Tensor { return nn.SparseSoftmaxCrossEntropy(x, labels) }},
		{"mse", func(x *tensor.Tensor) *tensor.Tensor { return nn.MSE(x, probs) }},
		{"bce_with_logits", func(x *tensor.Tensor) *tensor.Tensor { return nn.BinaryCrossEntropyWithLogits(x, targets) }},
	} {
		checkGrads(t, c.name, logits, c.f)
	}
}
