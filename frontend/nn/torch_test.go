package nn_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/nn"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/torchbench"
)

// torchCase is one computation for testdata/torch_layers.py: the op, its
// attributes and inputs, and Stela's outputs with their tolerances.
type torchCase struct {
	Name   string          `json:"name"`
	Op     string          `json:"op"`
	Attrs  map[string]any  `json:"attrs,omitempty"`
	Inputs map[string]jarr `json:"inputs"`

	got        map[string]*tensor.Tensor
	atol, rtol float64
}

// runTorch runs the cases through testdata/torch_layers.py and returns
// PyTorch's outputs by case and name; it skips the test without a python3
// that can import torch (Debian's python3-torch, which .ci/run installs).
func runTorch(t *testing.T, cases []*torchCase) map[string]map[string]jarr {
	t.Helper()
	py, err := torchbench.Python("")
	if err != nil {
		t.Skipf("no PyTorch to compare with: %v", err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "cases.json"), filepath.Join(dir, "out.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join("testdata", "torch_layers.py"), in, out)
	if o, err := cmd.CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			t.Skipf("torch is not importable: %s", o)
		}
		t.Fatalf("torch_layers.py: %v\n%s", err, o)
	}
	b, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]map[string]jarr
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// TestLayersMatchPyTorch computes each layer, activation and loss with
// Stela (eagerly, on the default device) and with PyTorch 1.13's
// torch.nn.functional on the same f32 numbers (NHWC and HWIO converted to
// torch's NCHW and OIHW, [in, out] weights transposed), and compares
// them. The last case trains nothing but compares a small conv net's loss
// and its gradients (jit.ValueAndGradTree against torch's autograd).
func TestLayersMatchPyTorch(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	var cases []*torchCase
	add := func(c *torchCase, got map[string]*tensor.Tensor) {
		c.got = got
		if c.atol == 0 {
			c.atol, c.rtol = 2e-6, 2e-6
		}
		cases = append(cases, c)
	}
	in := func(kv ...any) map[string]jarr {
		m := map[string]jarr{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = toJ(kv[i+1].(*tensor.Tensor))
		}
		return m
	}

	// Linear: with and without bias, rank 2 and 3 inputs.
	lin := nn.Linear{W: randn(r, 0.5, 4, 3), B: randn(r, 0.5, 3)}
	x2, x3 := randn(r, 1, 5, 4), randn(r, 1, 2, 5, 4)
	add(&torchCase{Name: "linear", Op: "linear", Inputs: in("x", x2, "w", lin.W, "b", lin.B)},
		map[string]*tensor.Tensor{"y": lin.Forward(x2)})
	add(&torchCase{Name: "linear_rank3_nobias", Op: "linear", Inputs: in("x", x3, "w", lin.W)},
		map[string]*tensor.Tensor{"y": nn.Linear{W: lin.W}.Forward(x3)})

	// Conv2D: strides, paddings, dilations.
	img := randn(r, 1, 2, 7, 6, 3)
	for _, c := range []struct {
		name     string
		strides  [2]int
		pad      tensor.Padding
		padName  string
		dilation [2]int
		bias     bool
	}{
		{"conv_same", [2]int{1, 1}, tensor.Same, "SAME", [2]int{1, 1}, true},
		{"conv_valid_stride2", [2]int{2, 2}, tensor.Valid, "VALID", [2]int{1, 1}, true},
		{"conv_same_stride2x1", [2]int{2, 1}, tensor.Same, "SAME", [2]int{1, 1}, false},
		{"conv_same_dilated", [2]int{1, 1}, tensor.Same, "SAME", [2]int{2, 2}, true},
	} {
		conv := nn.Conv2D{W: randn(r, 0.3, 3, 3, 3, 4), Strides: c.strides, Padding: c.pad, Dilation: c.dilation}
		inputs := in("x", img, "w", conv.W)
		if c.bias {
			conv.B = randn(r, 0.3, 4)
			inputs["b"] = toJ(conv.B)
		}
		add(&torchCase{Name: c.name, Op: "conv2d", Inputs: inputs, atol: 1e-5, rtol: 1e-5,
			Attrs: map[string]any{"strides": c.strides, "padding": c.padName, "dilation": c.dilation}},
			map[string]*tensor.Tensor{"y": conv.Forward(img)})
	}

	// Normalizations.
	xn := randn(r, 2, 3, 5, 8)
	ln := nn.LayerNorm{Scale: randn(r, 1, 8), Bias: randn(r, 1, 8), Eps: 1e-5}
	add(&torchCase{Name: "layer_norm", Op: "layer_norm", Attrs: map[string]any{"eps": 1e-5},
		Inputs: in("x", xn, "scale", ln.Scale, "bias", ln.Bias), atol: 1e-5, rtol: 1e-5},
		map[string]*tensor.Tensor{"y": ln.Forward(xn)})
	rms := nn.RMSNorm{Scale: randn(r, 1, 8), Eps: 1e-6}
	add(&torchCase{Name: "rms_norm", Op: "rms_norm", Attrs: map[string]any{"eps": 1e-6},
		Inputs: in("x", xn, "scale", rms.Scale), atol: 1e-5, rtol: 1e-5},
		map[string]*tensor.Tensor{"y": rms.Forward(xn)})

	// Embedding.
	emb := nn.Embedding{W: randn(r, 1, 10, 4)}
	ids := tensor.FromSlice([]int32{3, 0, 9, 3, 7, 1}, 3, 2)
	add(&torchCase{Name: "embedding", Op: "embedding", Inputs: in("ids", ids, "w", emb.W)},
		map[string]*tensor.Tensor{"y": emb.Forward(ids)})

	// Attention: self-attention with and without the causal mask, and
	// cross-attention with a key mask.
	mha := nn.MultiHeadAttention{Heads: 2}
	for _, l := range []*nn.Linear{&mha.Q, &mha.K, &mha.V, &mha.Out} {
		*l = nn.Linear{W: randn(r, 0.4, 8, 8), B: randn(r, 0.2, 8)}
	}
	weights := func() map[string]jarr {
		return in("qw", mha.Q.W, "qb", mha.Q.B, "kw", mha.K.W, "kb", mha.K.B, "vw", mha.V.W, "vb", mha.V.B, "ow", mha.Out.W, "ob", mha.Out.B)
	}
	xs := randn(r, 1, 2, 5, 8)
	for _, causal := range []bool{false, true} {
		m := mha
		m.Causal = causal
		inputs := weights()
		inputs["q"] = toJ(xs)
		name := "mha_self"
		if causal {
			name += "_causal"
		}
		add(&torchCase{Name: name, Op: "mha", Attrs: map[string]any{"heads": 2, "causal": causal}, Inputs: inputs, atol: 1e-5, rtol: 1e-5},
			map[string]*tensor.Tensor{"y": m.Forward(xs)})
	}
	q := randn(r, 1, 2, 3, 8)
	keep := tensor.FromSlice([]float32{1, 1, 0, 1, 0, 1, 1, 1, 1, 0}, 2, 5)
	mask := tensor.Reshape(tensor.NotEqual(keep, tensor.Scalar(0)), 2, 1, 1, 5)
	inputs := weights()
	inputs["q"], inputs["kv"], inputs["keep"] = toJ(q), toJ(xs), toJ(keep)
	add(&torchCase{Name: "mha_cross_masked", Op: "mha", Attrs: map[string]any{"heads": 2}, Inputs: inputs, atol: 1e-5, rtol: 1e-5},
		map[string]*tensor.Tensor{"y": mha.Attend(q, xs, mask)})

	// Activations.
	xa := randn(r, 3, 4, 6)
	for _, a := range []nn.Activation{nn.ReLU, nn.GELU, nn.Tanh, nn.Sigmoid, nn.SiLU} {
		add(&torchCase{Name: "act_" + string(a), Op: "activation", Attrs: map[string]any{"name": string(a)}, Inputs: in("x", xa)},
			map[string]*tensor.Tensor{"y": a.Forward(xa)})
	}

	// Losses.
	logits := randn(r, 3, 6, 5)
	labels := tensor.FromSlice([]int32{0, 4, 2, 2, 1, 3}, 6)
	soft := tensor.Softmax(randn(r, 1, 6, 5), -1)
	add(&torchCase{Name: "softmax_cross_entropy", Op: "softmax_cross_entropy", Inputs: in("logits", logits, "targets", soft)},
		map[string]*tensor.Tensor{"loss": nn.SoftmaxCrossEntropy(logits, soft)})
	add(&torchCase{Name: "sparse_softmax_cross_entropy", Op: "sparse_softmax_cross_entropy", Inputs: in("logits", logits, "labels", labels)},
		map[string]*tensor.Tensor{"loss": nn.SparseSoftmaxCrossEntropy(logits, labels)})
	pred, target := randn(r, 2, 4, 3), randn(r, 2, 4, 3)
	add(&torchCase{Name: "mse", Op: "mse", Inputs: in("x", pred, "y", target)},
		map[string]*tensor.Tensor{"loss": nn.MSE(pred, target)})
	prob := tensor.Sigmoid(randn(r, 2, 4, 3))
	bl := randn(r, 20, 4, 3) // large logits: the stable formula matters
	add(&torchCase{Name: "bce_with_logits", Op: "bce_with_logits", Inputs: in("x", bl, "y", prob), atol: 1e-5, rtol: 1e-6},
		map[string]*tensor.Tensor{"loss": nn.BinaryCrossEntropyWithLogits(bl, prob)})

	// A small conv net's loss and gradients.
	type smallCNN struct {
		Conv  nn.Conv2D
		Dense nn.Linear
	}
	net := smallCNN{
		Conv:  nn.Conv2D{W: randn(r, 0.5, 3, 3, 1, 2), B: randn(r, 0.1, 2), Padding: tensor.Same},
		Dense: nn.Linear{W: randn(r, 0.5, 18, 3), B: randn(r, 0.1, 3)},
	}
	xc := randn(r, 1, 2, 6, 6, 1)
	lc := tensor.FromSlice([]int32{2, 0}, 2)
	lossFn := func(m smallCNN) *tensor.Tensor {
		h := nn.MaxPool2D{Window: [2]int{2, 2}}.Forward(tensor.Relu(m.Conv.Forward(xc)))
		return nn.SparseSoftmaxCrossEntropy(m.Dense.Forward(nn.Flatten{}.Forward(h)), lc)
	}
	loss, g, err := jit.ValueAndGradTree(lossFn)(net)
	if err != nil {
		t.Fatal(err)
	}
	add(&torchCase{Name: "small_cnn_grads", Op: "small_cnn",
		Inputs: in("x", xc, "labels", lc, "w1", net.Conv.W, "b1", net.Conv.B, "w2", net.Dense.W, "b2", net.Dense.B), atol: 1e-5, rtol: 1e-5},
		map[string]*tensor.Tensor{"loss": loss, "w1": g.Conv.W, "b1": g.Conv.B, "w2": g.Dense.W, "b2": g.Dense.B})

	want := runTorch(t, cases)
	for _, c := range cases {
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("%s: no result from PyTorch", c.Name)
			continue
		}
		for name, got := range c.got {
			tw, ok := w[name]
			if !ok {
				t.Errorf("%s: PyTorch returned no %s", c.Name, name)
				continue
			}
			if gs := got.Shape(); len(gs) != len(tw.Shape) || !sameShape(gs, tw.Shape) {
				t.Errorf("%s.%s: shape %v, PyTorch's %v", c.Name, name, gs, tw.Shape)
				continue
			}
			d, ok := closeTo(f64s(got), tw.Data, c.atol, c.rtol)
			if !ok {
				t.Errorf("%s.%s: max |Stela - PyTorch| = %.3g, beyond %g + %g·|x|", c.Name, name, d, c.atol, c.rtol)
			} else if testing.Verbose() {
				t.Logf("%s.%s: max |Stela - PyTorch| = %.3g", c.Name, name, d)
			}
		}
	}
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
