package gpt2

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// The parameters, as a parameter tree (frontend/tree) whose paths are
// Hugging Face's names for GPT2LMHeadModel's tensors
// ("transformer.h.0.attn.c_attn.weight"), so that safetensors.Save of a
// Params writes a file transformers loads.

// Linear is a GPT-2 Conv1D: y = x·Weight + Bias, Weight [in, out] (the
// transpose of torch.nn.Linear's layout).
type Linear struct {
	Weight *tensor.Tensor `stela:"weight"`
	Bias   *tensor.Tensor `stela:"bias"`
}

// Norm is a LayerNorm's scale (Weight) and shift (Bias).
type Norm struct {
	Weight *tensor.Tensor `stela:"weight"`
	Bias   *tensor.Tensor `stela:"bias"`
}

// Embedding is a table [rows, n_embd].
type Embedding struct {
	Weight *tensor.Tensor `stela:"weight"`
}

// Attention is a block's attention: the fused q, k, v projection and the
// output projection.
type Attention struct {
	CAttn Linear `stela:"c_attn"` // [n_embd, 3·n_embd]
	CProj Linear `stela:"c_proj"` // [n_embd, n_embd]
}

// MLP is a block's feed-forward network.
type MLP struct {
	CFc   Linear `stela:"c_fc"`   // [n_embd, inner]
	CProj Linear `stela:"c_proj"` // [inner, n_embd]
}

// Block is one transformer block: x + attn(ln_1(x)), then + mlp(ln_2(x)).
type Block struct {
	Ln1  Norm      `stela:"ln_1"`
	Attn Attention `stela:"attn"`
	Ln2  Norm      `stela:"ln_2"`
	MLP  MLP       `stela:"mlp"`
}

// Transformer is GPT2Model's parameters.
type Transformer struct {
	Wte Embedding `stela:"wte"` // [vocab, n_embd]
	Wpe Embedding `stela:"wpe"` // [n_positions, n_embd]
	H   []Block   `stela:"h"`
	LnF Norm      `stela:"ln_f"`
}

// Params is GPT2LMHeadModel's parameters. LMHead is nil when the head is
// tied to wte (GPT-2's case); a file with its own lm_head.weight [vocab,
// n_embd] fills it.
type Params struct {
	Transformer Transformer `stela:"transformer"`
	LMHead      *Embedding  `stela:"lm_head"`
}

// forward runs the model on ids [B, S] (s32) whose tokens sit at cache
// positions pos, pos+1, ..., pos+S-1 of the key/value cache kv (per
// layer, keys then values, each [B, heads, T, head size]), with pad[b]
// left-padding slots at the start of row b that no token attends to. It
// writes the new keys and values into the cache (DynamicUpdateSlice at
// pos) and returns the final hidden states [B, S, n_embd] and the new
// cache. A token at cache position j of row b has position id j - pad[b]
// (Hugging Face's cumsum of the attention mask, minus one).
func forward(cfg Config, p Params, ids, pad, pos *tensor.Tensor, kv []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
	t := p.Transformer
	sh := ids.Shape()
	b, s := sh[0], sh[1]
	d, nh, dh := cfg.NEmbd, cfg.NHead, cfg.HeadDim()
	T := kv[0].Shape()[2]

	// Cache positions of the queries: pos + i, [S]; position ids [B, S].
	qpos := tensor.Add(tensor.IotaLike(ids, ir.S32, []int{s}, 0), pos)
	padCol := tensor.Reshape(pad, b, 1)
	posIDs := tensor.Clamp(tensor.Sub(tensor.Reshape(qpos, 1, s), padCol),
		tensor.Scalar(int32(0)), tensor.Scalar(int32(cfg.NPositions-1)))
	x := tensor.Add(tensor.Take(t.Wte.Weight, ids, 0), tensor.Take(t.Wpe.Weight, posIDs, 0))
	x = asF32(x)

	// mask[b, 0, i, j]: query i of row b sees cache slot j.
	key := tensor.IotaLike(ids, ir.S32, []int{T}, 0)
	causal := tensor.LessEqual(tensor.Reshape(key, 1, 1, 1, T), tensor.Reshape(qpos, 1, 1, s, 1))
	notPad := tensor.GreaterEqual(tensor.Reshape(key, 1, 1, 1, T), tensor.Reshape(pad, b, 1, 1, 1))
	mask := tensor.And(causal, notPad) // [B, 1, S, T]
	neg := tensor.ScalarLike(x, -math.MaxFloat32)
	scale := tensor.ScalarLike(x, 1/math.Sqrt(float64(dh)))

	zero := tensor.Scalar(int32(0))
	at := []*tensor.Tensor{zero, zero, pos, zero}
	out := make([]*tensor.Tensor, len(kv))
	for l, blk := range t.H {
		h := layerNorm(x, blk.Ln1, cfg.Eps)
		qkv := dense(h, blk.Attn.CAttn) // [B, S, 3d]
		split := func(i int) *tensor.Tensor {
			part := tensor.SliceAxis(qkv, -1, i*d, (i+1)*d)
			return tensor.Transpose(tensor.Reshape(part, b, s, nh, dh), 0, 2, 1, 3) // [B, nh, S, dh]
		}
		q, k, v := split(0), split(1), split(2)
		ck := tensor.DynamicUpdateSlice(kv[2*l], convert(k, kv[2*l].DType()), at)
		cv := tensor.DynamicUpdateSlice(kv[2*l+1], convert(v, kv[2*l+1].DType()), at)
		out[2*l], out[2*l+1] = ck, cv
		scores := tensor.DotGeneral(q, asF32(ck), ir.DotGeneralAttr{ // [B, nh, S, T]
			LhsBatch: []int{0, 1}, RhsBatch: []int{0, 1}, LhsContract: []int{3}, RhsContract: []int{3},
		})
		scores = tensor.Where(mask, tensor.Mul(scores, scale), neg)
		a := tensor.MatMul(tensor.Softmax(scores, -1), asF32(cv)) // [B, nh, S, dh]
		a = tensor.Reshape(tensor.Transpose(a, 0, 2, 1, 3), b, s, d)
		x = tensor.Add(x, dense(a, blk.Attn.CProj))
		h = layerNorm(x, blk.Ln2, cfg.Eps)
		x = tensor.Add(x, dense(tensor.GELU(dense(h, blk.MLP.CFc)), blk.MLP.CProj))
	}
	return layerNorm(x, t.LnF, cfg.Eps), out
}

// Forward returns the logits [B, S, vocab] (f32) of ids [B, S] (an
// integer tensor), without a cache: a pure function of the parameters,
// to train with (jit.ValueAndGradTree differentiates it).
func (c Config) Forward(p Params, ids *tensor.Tensor) *tensor.Tensor {
	ids = convert(ids, ir.S32)
	return forwardAll(c, p, ids, tensor.BroadcastTo(tensor.ScalarLike(ids, 0), ids.Shape()[0]))
}

// forwardAll is forward over a fresh cache of the sequence's length:
// the logits of every position.
func forwardAll(cfg Config, p Params, ids, pad *tensor.Tensor) *tensor.Tensor {
	sh := ids.Shape()
	// Constants made with ids's Like functions are part of the trace
	// (tensor.Scalar and Iota alone would run eagerly, and be captured).
	zero := tensor.ScalarLike(ids, 0)
	kv := make([]*tensor.Tensor, 2*cfg.NLayer)
	for i := range kv {
		kv[i] = tensor.BroadcastTo(tensor.Convert(zero, ir.F32), sh[0], cfg.NHead, sh[1], cfg.HeadDim())
	}
	h, _ := forward(cfg, p, ids, pad, zero, kv)
	return head(p, h)
}

// head turns hidden states [..., n_embd] into logits [..., vocab] (f32).
func head(p Params, h *tensor.Tensor) *tensor.Tensor {
	w := p.Transformer.Wte.Weight
	if p.LMHead != nil {
		w = p.LMHead.Weight
	}
	// h · wᵀ, contracting n_embd with the table's rows.
	r := h.Rank()
	lhs := tensor.Reshape(h, -1, h.Shape()[r-1])
	logits := tensor.DotGeneral(lhs, asF32(w), ir.DotGeneralAttr{
		LhsContract: []int{1}, RhsContract: []int{1},
	})
	return tensor.Reshape(logits, append(h.Shape()[:r-1], w.Shape()[0])...)
}

func asF32(x *tensor.Tensor) *tensor.Tensor { return convert(x, ir.F32) }

func convert(x *tensor.Tensor, dt ir.DType) *tensor.Tensor {
	if x.DType() == dt {
		return x
	}
	return tensor.Convert(x, dt)
}

func dense(x *tensor.Tensor, l Linear) *tensor.Tensor {
	return tensor.Add(tensor.MatMul(x, asF32(l.Weight)), asF32(l.Bias))
}

func layerNorm(x *tensor.Tensor, n Norm, eps float64) *tensor.Tensor {
	return tensor.LayerNorm(x, asF32(n.Weight), asF32(n.Bias), -1, eps)
}

// Init returns random parameters of config cfg (on the default device),
// drawn on the host from a PCG seeded with seed, as GPT-2 initializes
// them but with noise everywhere: weights from N(0, 0.02²), the residual
// projections' scaled by 1/√(2·n_layer), and biases, layer-norm scales
// (around 1) and shifts from N(0, 0.02²), so that a dropped one shows in
// a comparison.
func Init(cfg Config, seed uint64) Params {
	var p Params
	r := rand.New(rand.NewPCG(seed, 0x67707432))
	resid := 0.02 / math.Sqrt(2*float64(cfg.NLayer))
	for _, sl := range slots(cfg, &p) {
		std, mean := 0.02, 0.0
		if strings.HasSuffix(sl.name, "c_proj.weight") {
			std = resid
		}
		if strings.Contains(sl.name, "ln_") && strings.HasSuffix(sl.name, ".weight") {
			mean = 1
		}
		n := 1
		for _, d := range sl.shape {
			n *= d
		}
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(mean + std*r.NormFloat64())
		}
		sl.set(tensor.FromSlice(v, sl.shape...))
	}
	return p
}
