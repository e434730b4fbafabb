package nn_test

import (
	"math"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

func f32(v ...float32) []float32 { return v }

func near(t *testing.T, what string, got *tensor.Tensor, want []float64, tol float64) {
	t.Helper()
	g := f64s(got)
	if d, ok := closeTo(g, want, tol, tol); !ok {
		t.Errorf("%s = %v, want %v (max diff %.3g)", what, g, want, d)
	}
}

// TestConstructors checks the parameters' shapes, types and paths each
// constructor makes, and its options.
func TestConstructors(t *testing.T) {
	key := tensor.RandomKey(0)
	for _, c := range []struct {
		name  string
		tree  any
		paths string // "path type, ..."
	}{
		{"linear", nn.NewLinear(key, 3, 2), "W f32[3,2], B f32[2]"},
		{"linear_nobias_f64", nn.NewLinear(key, 3, 2, nn.WithoutBias(), nn.WithDType(ir.F64)), "W f64[3,2]"},
		{"conv", nn.NewConv2D(key, 3, 8, 5, 3), "W f32[5,3,3,8], B f32[8]"},
		{"layer_norm", nn.NewLayerNorm(nil, 4), "Scale f32[4], Bias f32[4]"},
		{"rms_norm", nn.NewRMSNorm(nil, 4), "Scale f32[4]"},
		{"embedding", nn.NewEmbedding(key, 10, 3), "W f32[10,3]"},
		{"mlp", nn.NewMLP(key, []int{4, 3, 2}), "Layers.0.W f32[4,3], Layers.0.B f32[3], Layers.1.W f32[3,2], Layers.1.B f32[2]"},
		{"mha", nn.NewMultiHeadAttention(key, 4, 2, nn.WithoutBias()), "Q.W f32[4,4], K.W f32[4,4], V.W f32[4,4], Out.W f32[4,4]"},
		{"dropout", nn.Dropout{Rate: 0.1}, ""},
	} {
		leaves, err := tree.FlattenWithPaths(c.tree)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, l := range leaves {
			got = append(got, l.Path+" "+l.Tensor.Type().String())
		}
		if s := strings.Join(got, ", "); s != c.paths {
			t.Errorf("%s: leaves %q, want %q", c.name, s, c.paths)
		}
	}
	conv := nn.NewConv2D(key, 1, 1, 3, 3, nn.WithStrides(2, 1), nn.WithPadding(tensor.Valid), nn.WithDilation(1, 2))
	if conv.Strides != [2]int{2, 1} || conv.Padding.Mode != tensor.PadValid || conv.Dilation != [2]int{1, 2} {
		t.Errorf("conv options: %+v", conv)
	}
	if ln := nn.NewLayerNorm(nil, 2, nn.WithEps(1e-3), nn.WithoutBias()); ln.Eps != 1e-3 || ln.Bias != nil {
		t.Errorf("layer norm options: %+v", ln)
	}
	if m := nn.NewMLP(key, []int{2, 2}, nn.WithActivation(nn.Tanh)); m.Activation != nn.Tanh {
		t.Errorf("mlp activation %q", m.Activation)
	}
	if m := nn.NewMultiHeadAttention(key, 4, 2, nn.WithCausalMask()); !m.Causal || m.Heads != 2 {
		t.Errorf("mha options: heads %d, causal %v", m.Heads, m.Causal)
	}
	// Initializers: zeros biases and unit scales by default; options
	// replace them; each parameter gets its own key.
	l := nn.NewLinear(key, 2, 2, nn.WithKernelInit(nn.Ones), nn.WithBiasInit(nn.Constant(3)))
	near(t, "W", l.W, []float64{1, 1, 1, 1}, 0)
	near(t, "B", l.B, []float64{3, 3}, 0)
	near(t, "default bias", nn.NewLinear(key, 2, 2).B, []float64{0, 0}, 0)
	m := nn.NewMLP(key, []int{3, 3, 3})
	if a, b := m.Layers[0].W.Float32s(), m.Layers[1].W.Float32s(); a[0] == b[0] {
		t.Errorf("two layers drew the same weights %v and %v", a, b)
	}
	// The same key makes the same layer.
	if a, b := nn.NewLinear(key, 3, 2).W.Float32s(), nn.NewLinear(key, 3, 2).W.Float32s(); a[0] != b[0] || a[5] != b[5] {
		t.Errorf("one key, two weights: %v and %v", a, b)
	}
}

// TestForwardValues checks the layers on inputs small enough to compute
// by hand.
func TestForwardValues(t *testing.T) {
	lin := nn.Linear{W: tensor.FromSlice(f32(1, 2, 3, 4, 5, 6), 3, 2), B: tensor.FromSlice(f32(0.5, -1))}
	x := tensor.FromSlice(f32(1, 0, -1, 2, 1, 0), 2, 3)
	// [1,0,-1]·W = [1-5, 2-6] = [-4,-4]; [2,1,0]·W = [2+3, 4+4] = [5, 8].
	near(t, "linear", lin.Forward(x), []float64{-3.5, -5, 5.5, 7}, 0)
	near(t, "linear rank 1", lin.Forward(tensor.FromSlice(f32(1, 0, -1))), []float64{-3.5, -5}, 0)
	near(t, "linear rank 3", lin.Forward(tensor.Reshape(x, 2, 1, 3)), []float64{-3.5, -5, 5.5, 7}, 0)

	// A 2×2 kernel of ones sums windows; SAME pads high.
	img := tensor.FromSlice(f32(1, 2, 3, 4, 5, 6, 7, 8, 9), 1, 3, 3, 1)
	conv := nn.Conv2D{W: tensor.Ones(ir.F32, 2, 2, 1, 1), B: tensor.FromSlice(f32(100)), Padding: tensor.Same}
	near(t, "conv same", conv.Forward(img), []float64{112, 116, 109, 124, 128, 115, 115, 117, 109}, 0)
	conv.Padding, conv.Strides = tensor.Valid, [2]int{2, 2}
	near(t, "conv valid stride 2", conv.Forward(img), []float64{112}, 0)
	if got := conv.Forward(tensor.Reshape(img, 3, 3, 1)).Type(); !got.Equal(ir.TensorOf(ir.F32, 1, 1, 1)) {
		t.Errorf("conv of one image: %v", got)
	}

	// Layer norm of [1, 2, 3]: mean 2, variance 2/3.
	ln := nn.LayerNorm{Scale: tensor.FromSlice(f32(1, 2, 1)), Bias: tensor.FromSlice(f32(0, 0, 1)), Eps: 0}
	s := math.Sqrt(1.5)
	near(t, "layer norm", ln.Forward(tensor.FromSlice(f32(1, 2, 3), 1, 3)), []float64{-s, 0, s + 1}, 1e-6)
	rms := nn.RMSNorm{Scale: tensor.FromSlice(f32(1, 1)), Eps: 0}
	near(t, "rms norm", rms.Forward(tensor.FromSlice(f32(3, 4))), []float64{3 / math.Sqrt(12.5), 4 / math.Sqrt(12.5)}, 1e-6)

	emb := nn.Embedding{W: tensor.FromSlice(f32(0, 1, 10, 11, 20, 21), 3, 2)}
	near(t, "embedding", emb.Forward(tensor.FromSlice([]int32{2, 0, 2}, 3)), []float64{20, 21, 0, 1, 20, 21}, 0)
	bad := emb.Forward(tensor.FromSlice([]int32{1, 3, -1}, 3)).Float32s()
	if bad[0] != 10 || !math.IsNaN(float64(bad[2])) || !math.IsNaN(float64(bad[5])) {
		t.Errorf("embedding of out-of-range ids: %v, want NaN rows", bad)
	}
	near(t, "attend", emb.Attend(tensor.FromSlice(f32(1, 1), 1, 2)), []float64{1, 21, 41}, 0)

	mlp := nn.MLP{Layers: []nn.Linear{lin, {W: tensor.FromSlice(f32(1, 1), 2, 1)}}, Activation: nn.ReLU}
	// relu([-3.5, -5]) = 0 → 0; relu([5.5, 7]) → 12.5.
	near(t, "mlp", mlp.Forward(x), []float64{0, 12.5}, 0)
	seq := nn.Sequential{lin, nn.ReLU, nn.Linear{W: tensor.FromSlice(f32(1, 1), 2, 1)}}
	near(t, "sequential", seq.Forward(x), []float64{0, 12.5}, 0)
	near(t, "flatten", nn.Flatten{}.Forward(tensor.Reshape(img, 1, 9)), []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 0)
	near(t, "max pool", nn.MaxPool2D{Window: [2]int{2, 2}, Strides: [2]int{1, 1}}.Forward(img), []float64{5, 6, 8, 9}, 0)
	near(t, "avg pool", nn.AvgPool2D{Window: [2]int{2, 2}, Strides: [2]int{1, 1}}.Forward(img), []float64{3, 4, 6, 7}, 0)

	// Attention with identity projections and one head: with a causal
	// mask the first position sees only itself.
	eye := tensor.FromSlice(f32(1, 0, 0, 1), 2, 2)
	id := nn.Linear{W: eye}
	mha := nn.MultiHeadAttention{Q: id, K: id, V: id, Out: id, Heads: 1, Causal: true}
	seqx := tensor.FromSlice(f32(1, 0, 0, 1), 1, 2, 2)
	w := 1 / (1 + math.Exp(0)) // position 1 attends to both equally: scores 0/√2 and 1/√2 ... computed below
	a, b := 0.0, 1/math.Sqrt(2)
	w = math.Exp(a) / (math.Exp(a) + math.Exp(b))
	near(t, "causal attention", mha.Forward(seqx), []float64{1, 0, w, 1 - w}, 1e-6)
}

func TestLosses(t *testing.T) {
	logits := tensor.FromSlice(f32(1, 2, 3, 0, 0, 0), 2, 3)
	lse := math.Log(math.Exp(1) + math.Exp(2) + math.Exp(3))
	labels := tensor.FromSlice([]int32{2, 1}, 2)
	want := ((lse - 3) + math.Log(3)) / 2
	near(t, "sparse", nn.SparseSoftmaxCrossEntropy(logits, labels), []float64{want}, 1e-6)
	oneHot := tensor.FromSlice(f32(0, 0, 1, 0, 1, 0), 2, 3)
	near(t, "one-hot", nn.SoftmaxCrossEntropy(logits, oneHot), []float64{want}, 1e-6)
	if v := nn.SparseSoftmaxCrossEntropy(logits, tensor.FromSlice([]int32{2, 3}, 2)).Float32s()[0]; !math.IsNaN(float64(v)) {
		t.Errorf("a label out of range: loss %v, want NaN", v)
	}
	near(t, "mse", nn.MSE(tensor.FromSlice(f32(1, 2)), tensor.FromSlice(f32(0, 4))), []float64{2.5}, 0)
	x, y := []float64{-30, 0, 2}, []float64{0, 0.5, 1}
	var bce float64
	for i := range x {
		p := 1 / (1 + math.Exp(-x[i]))
		bce -= y[i]*math.Log(p) + (1-y[i])*math.Log1p(-p)
	}
	near(t, "bce", nn.BinaryCrossEntropyWithLogits(tensor.FromSlice(x), tensor.FromSlice(y)), []float64{bce / 3}, 1e-12)
	// Ties go to the first class.
	near(t, "accuracy", nn.Accuracy(logits, tensor.FromSlice([]int32{2, 0}, 2)), []float64{1}, 0)
	near(t, "accuracy", nn.Accuracy(logits, tensor.FromSlice([]int64{2, 1}, 2)), []float64{0.5}, 0)
}

// TestDropout checks the mask's rate and scale, determinism per key, the
// evaluation mode, and that a compiled step draws what an eager one does.
func TestDropout(t *testing.T) {
	d := nn.Dropout{Rate: 0.25}
	x := tensor.Ones(ir.F32, 100, 100)
	k := tensor.RandomKey(3)
	if y := d.Forward(nil, x, false); y != x {
		t.Errorf("dropout when not training is not the identity")
	}
	y := d.Forward(k, x, true).Float32s()
	zeros := 0
	for _, v := range y {
		switch v {
		case 0:
			zeros++
		case float32(1 / 0.75):
		default:
			t.Fatalf("dropout kept an element as %v, want 0 or 1/0.75", v)
		}
	}
	if f := float64(zeros) / 1e4; math.Abs(f-0.25) > 0.02 {
		t.Errorf("dropout dropped %.3f of the elements, want 0.25", f)
	}
	again := d.Forward(k, x, true).Float32s()
	other := d.Forward(tensor.FoldIn(k, 1), x, true).Float32s()
	same, diff := true, false
	for i := range y {
		same = same && y[i] == again[i]
		diff = diff || y[i] != other[i]
	}
	if !same || !diff {
		t.Errorf("dropout: same key same mask %v, other key other mask %v", same, diff)
	}
	near(t, "rate 1", nn.Dropout{Rate: 1}.Forward(k, tensor.Ones(ir.F32, 3), true), []float64{0, 0, 0}, 0)
	// Compiled, with the key an argument: the same mask.
	f := jit.Compile(func(key, x *tensor.Tensor) *tensor.Tensor { return d.Forward(key, x, true) })
	var c []float32
	if err := tensor.Catch(func() { c = f(k, x).Float32s() }); err != nil {
		t.Fatalf("compiled dropout: %v", err)
	}
	for i := range y {
		if c[i] != y[i] {
			t.Fatalf("compiled dropout differs from eager at %d: %v and %v", i, c[i], y[i])
		}
	}
}

// TestErrors checks that mistakes are located errors at the caller's
// line, naming the nn function.
func TestErrors(t *testing.T) {
	key := tensor.RandomKey(0)
	lin := nn.NewLinear(key, 3, 2)
	for _, c := range []struct {
		name  string
		fn    func()
		wants []string
	}{
		{"linear input", func() { lin.Forward(tensor.Zeros(ir.F32, 2, 4)) }, []string{"nn_test.go:", "nn.Linear: the input is f32[2,4], want 3 features"}},
		{"linear int input", func() { lin.Forward(tensor.Zeros(ir.S32, 2, 3)) }, []string{"nn.Linear: the input is si32[2,3]: want a floating-point tensor"}},
		{"zero linear", func() { nn.Linear{}.Forward(tensor.Zeros(ir.F32, 2, 3)) }, []string{"nn.Linear: W is nil"}},
		{"mixed types", func() { lin.Forward(tensor.Zeros(ir.F64, 2, 3)) }, []string{"nn.Linear: matmul:", "element types must match"}},
		{"bad option", func() { nn.NewLinear(key, 3, 2, nn.WithStrides(2, 2)) }, []string{"nn.NewLinear: option WithStrides does not apply"}},
		{"bad size", func() { nn.NewLinear(key, 0, 2) }, []string{"nn.NewLinear: sizes in, out [0 2]: want positive sizes"}},
		{"bad key", func() { nn.NewLinear(tensor.Zeros(ir.F32, 2), 3, 2) }, []string{"the key is f32[2], want ui32[2]"}},
		{"nil key", func() { nn.NewLinear(nil, 3, 2) }, []string{"the key is nil"}},
		{"int params", func() { nn.NewLinear(key, 3, 2, nn.WithDType(ir.S32)) }, []string{"want a floating-point type"}},
		{"conv channels", func() { nn.NewConv2D(key, 3, 4, 3, 3).Forward(tensor.Zeros(ir.F32, 1, 5, 5, 2)) }, []string{"nn.Conv2D: the input is f32[1,5,5,2], want NHWC with 3 channels"}},
		{"layer norm features", func() { nn.NewLayerNorm(nil, 4).Forward(tensor.Zeros(ir.F32, 2, 3)) }, []string{"nn.LayerNorm: the input is f32[2,3]: its last dimension 3 does not match"}},
		{"embedding float ids", func() { nn.NewEmbedding(key, 4, 2).Forward(tensor.Zeros(ir.F32, 2)) }, []string{"nn.Embedding: the ids are f32[2]: want an integer tensor"}},
		{"heads", func() { nn.NewMultiHeadAttention(key, 6, 4) }, []string{"dim 6 is not a multiple of heads 4"}},
		{"causal cross", func() {
			nn.NewMultiHeadAttention(key, 4, 2, nn.WithCausalMask()).Attend(tensor.Zeros(ir.F32, 1, 2, 4), tensor.Zeros(ir.F32, 1, 3, 4), nil)
		}, []string{"a causal mask needs as many queries as keys"}},
		{"activation", func() { nn.Activation("swoosh").Forward(tensor.Zeros(ir.F32, 2)) }, []string{`unknown activation "swoosh"`}},
		{"mlp inner", func() { nn.NewMLP(key, []int{3, 2}).Forward(tensor.Zeros(ir.F32, 2, 5)) }, []string{"nn.MLP: the input is f32[2,5], want 3 features"}},
		{"dropout rate", func() { nn.Dropout{Rate: 1.5}.Forward(key, tensor.Zeros(ir.F32, 2), true) }, []string{"nn.Dropout: rate 1.5"}},
		{"dropout key", func() { nn.Dropout{Rate: 0.5}.Forward(nil, tensor.Zeros(ir.F32, 2), true) }, []string{"nn.Dropout: the key is nil"}},
		{"labels", func() { nn.SparseSoftmaxCrossEntropy(tensor.Zeros(ir.F32, 2, 3), tensor.Zeros(ir.S32, 3)) }, []string{"nn.SparseSoftmaxCrossEntropy: the logits are f32[2,3] and the labels si32[3]: want integer labels of shape [2]"}},
		{"targets", func() { nn.SoftmaxCrossEntropy(tensor.Zeros(ir.F32, 2, 3), tensor.Zeros(ir.F32, 2, 2)) }, []string{"want the same type"}},
		{"fans", func() { nn.GlorotUniform(key, ir.F32, 5) }, []string{"nn.GlorotUniform: shape [5] has rank 1"}},
		{"sequential nil", func() { nn.Sequential{lin, nil}.Forward(tensor.Zeros(ir.F32, 1, 3)) }, []string{"nn.Sequential: layer 1 is nil"}},
	} {
		expectError(t, c.name, c.fn, c.wants...)
	}
}

// TestTreeRoundTrip: layers pass through jit.Compile as arguments and
// results, static leaves included.
func TestTreeRoundTrip(t *testing.T) {
	key := tensor.RandomKey(1)
	conv := nn.NewConv2D(key, 1, 2, 3, 3, nn.WithStrides(2, 2))
	f := jit.Compile(func(c nn.Conv2D, x *tensor.Tensor) (nn.Conv2D, *tensor.Tensor) {
		c.W = tensor.Mul(c.W, tensor.ScalarLike(c.W, 2))
		return c, c.Forward(x)
	})
	x := tensor.Ones(ir.F32, 1, 4, 4, 1)
	c2, y := f(conv, x)
	if c2.Strides != [2]int{2, 2} || c2.Padding.Mode != tensor.PadSame {
		t.Errorf("static leaves: %+v", c2)
	}
	if got := y.Type(); !got.Equal(ir.TensorOf(ir.F32, 1, 2, 2, 2)) {
		t.Errorf("strided conv output %v", got)
	}
	w, w2 := conv.W.Float32s(), c2.W.Float32s()
	for i := range w {
		if w2[i] != 2*w[i] {
			t.Fatalf("W[%d] = %v, want %v", i, w2[i], 2*w[i])
		}
	}
}
