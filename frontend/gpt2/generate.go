package gpt2

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Model is a loaded GPT-2 with its compiled functions: prefill (a batch
// of prompts, their length bucketed by jit.Buckets) and decode (one token
// per row), both writing a preallocated key/value cache that they are
// donated, so that a decode step allocates no new cache.
type Model struct {
	Config Config
	Params Params
	dev    tensor.Device

	prefill, decode stepFunc
	logits          func(p Params, ids, pad *tensor.Tensor) *tensor.Tensor
	// cache is the last cache, kept for the next Generate of the same
	// shape: its contents are stale but every slot a query can see is
	// written before it is read.
	cache []*tensor.Tensor
}

type stepFunc = func(p Params, ids, pad, pos, length *tensor.Tensor, kv []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor)

// PrefillBuckets are the prompt lengths prefill compiles for (powers of
// two from 16, and n_positions): a prompt is padded to the next one.
func (c Config) PrefillBuckets() []int {
	var b []int
	for n := 16; n < c.NPositions; n *= 2 {
		b = append(b, n)
	}
	return append(b, c.NPositions)
}

// New makes a model of config cfg from parameters p (on one device, the
// one the model runs on).
func New(cfg Config, p Params) (*Model, error) {
	if err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("gpt2: %v", err)
	}
	return newModel(cfg, p, Options{})
}

func newModel(cfg Config, p Params, opts Options) (*Model, error) {
	if p.Transformer.Wte.Weight == nil {
		return nil, fmt.Errorf("gpt2: the parameters have no wte")
	}
	m := &Model{Config: cfg, Params: p, dev: p.Transformer.Wte.Weight.Buffer().Device()}
	step := func(p Params, ids, pad, pos, length *tensor.Tensor, kv []*tensor.Tensor) (*tensor.Tensor, []*tensor.Tensor) {
		h, kv := forward(cfg, p, ids, pad, pos, kv)
		// The hidden state of each row's last real token (at length-1:
		// a bucketed prompt has padding after it).
		b := h.Shape()[0]
		zero := tensor.Scalar(int32(0))
		last := tensor.DynamicSlice(h, []*tensor.Tensor{zero, tensor.Sub(length, tensor.Scalar(int32(1))), zero}, []int{b, 1, cfg.NEmbd})
		return tensor.Reshape(head(p, last), b, cfg.VocabSize), kv
	}
	const kvArg = 5
	m.prefill = jit.Compile(step, jit.WithName("gpt2_prefill"), jit.Donate(kvArg),
		jit.Buckets(jit.BucketDim{Arg: 1, Axis: 1, LengthArg: 4}, cfg.PrefillBuckets()...))
	m.decode = jit.Compile(step, jit.WithName("gpt2_decode"), jit.Donate(kvArg))
	m.logits = jit.Compile(func(p Params, ids, pad *tensor.Tensor) *tensor.Tensor {
		return forwardAll(cfg, p, ids, pad)
	}, jit.WithName("gpt2_logits"))
	return m, nil
}

// Logits runs the model on a batch of token ids [B][S] (all of one
// length) and returns the logits [B, S, vocab], f32. pad, if not nil, is
// the number of left-padding tokens of each row (masked out, as
// Hugging Face's attention_mask does).
func (m *Model) Logits(ids [][]int, pad []int) (*tensor.Tensor, error) {
	b, s, err := m.rect(ids)
	if err != nil {
		return nil, err
	}
	if pad == nil {
		pad = make([]int, b)
	}
	var out *tensor.Tensor
	err = tensor.Catch(func() {
		out = m.logits(m.Params, m.ints(flat(ids), b, s), m.ints(pad, b))
	})
	return out, err
}

func (m *Model) rect(ids [][]int) (b, s int, err error) {
	if len(ids) == 0 || len(ids[0]) == 0 {
		return 0, 0, fmt.Errorf("gpt2: no tokens")
	}
	for i, r := range ids {
		if len(r) != len(ids[0]) {
			return 0, 0, fmt.Errorf("gpt2: row %d has %d tokens, row 0 has %d", i, len(r), len(ids[0]))
		}
		for _, id := range r {
			if id < 0 || id >= m.Config.VocabSize {
				return 0, 0, fmt.Errorf("gpt2: token id %d in row %d is out of the vocabulary [0, %d)", id, i, m.Config.VocabSize)
			}
		}
	}
	return len(ids), len(ids[0]), nil
}

func flat(rows [][]int) []int {
	var out []int
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// ints puts int32 values of the given shape on the model's device.
func (m *Model) ints(v []int, shape ...int) *tensor.Tensor {
	d := make([]int32, len(v))
	for i, x := range v {
		d[i] = int32(x)
	}
	l := &ir.Literal{Type: ir.TensorOf(ir.S32, shape...), Data: d}
	b, err := m.dev.Put(l)
	if err != nil {
		panic(err)
	}
	return tensor.FromResult(b, false)
}

// Sampling chooses the next token from the logits. The zero value is
// greedy decoding.
type Sampling struct {
	// Temperature divides the logits; 0 is greedy (argmax).
	Temperature float64
	// TopK keeps the K most likely tokens (0: all).
	TopK int
	// TopP keeps the smallest set of most likely tokens whose
	// probabilities sum to at least TopP (0 or 1: all), as Hugging Face's
	// TopPLogitsWarper does.
	TopP float64
	// Seed seeds the PRNG (PCG): the same seed, prompts and options give
	// the same tokens.
	Seed uint64
}

// GenerateOptions configures Generate.
type GenerateOptions struct {
	MaxNewTokens int
	Sampling     Sampling
	// Stop tokens end a row (the stop token is its last token); nil means
	// the config's eos_token_id, an empty non-nil slice none.
	Stop []int
	// OnToken, if set, is called with each new token of each row as soon
	// as it is chosen (for streaming).
	OnToken func(row, id int)
}

// Result is what Generate made: per row the new tokens, and timings.
type Result struct {
	IDs [][]int
	// Prefill is the time from the start to the first token's logits on
	// the host; Decode the time of the decode steps, Steps their number.
	Prefill, Decode time.Duration
	Steps           int
}

// State is a batch in the middle of generation: its key/value cache
// (given to each step, which writes the next slot), the rows' left
// padding, and Pos, the cache slot the next token goes to.
type State struct {
	KV  []*tensor.Tensor
	Pad []int
	Pos int
	// Len is the cache's length (slots); Pos must stay below it.
	Len int

	padT, one *tensor.Tensor
}

// Prefill starts generation for a batch of prompts (token ids; they may
// differ in length: they are left-padded, with the padding masked out, as
// Hugging Face does with padding_side="left"), with room for maxNew
// tokens after the longest, and returns the state and each row's logits
// for the next token ([B·vocab], f32).
func (m *Model) Prefill(prompts [][]int, maxNew int) (*State, []float32, error) {
	cfg := m.Config
	b := len(prompts)
	if b == 0 {
		return nil, nil, fmt.Errorf("gpt2: no prompts")
	}
	s := 0
	for i, p := range prompts {
		if len(p) == 0 {
			return nil, nil, fmt.Errorf("gpt2: prompt %d is empty", i)
		}
		s = max(s, len(p))
	}
	if maxNew < 1 {
		return nil, nil, fmt.Errorf("gpt2: %d new tokens: want at least 1", maxNew)
	}
	if s+maxNew > cfg.NPositions {
		return nil, nil, fmt.Errorf("gpt2: a prompt of %d tokens and %d new ones need %d positions; the model has %d (n_positions)", s, maxNew, s+maxNew, cfg.NPositions)
	}
	padded := make([][]int, b)
	pad := make([]int, b)
	for i, p := range prompts {
		pad[i] = s - len(p)
		padded[i] = append(make([]int, pad[i]), p...)
		for _, id := range p {
			if id < 0 || id >= cfg.VocabSize {
				return nil, nil, fmt.Errorf("gpt2: token id %d in prompt %d is out of the vocabulary [0, %d)", id, i, cfg.VocabSize)
			}
		}
	}
	// The cache holds the bucketed prompt and the new tokens. Its length
	// depends on the bucket, not the prompt, so that prefill compiles
	// once per bucket (for a given maxNew).
	bucket := cfg.NPositions
	for _, n := range cfg.PrefillBuckets() {
		if n >= s {
			bucket = n
			break
		}
	}
	T := cfg.NPositions
	for n := 16; n < cfg.NPositions; n *= 2 {
		if n >= bucket+maxNew {
			T = n
			break
		}
	}
	kv, err := m.kvCache(b, T)
	if err != nil {
		return nil, nil, err
	}
	st := &State{Pad: pad, Pos: s, Len: T, padT: m.ints(pad, b), one: m.ints([]int{1})}
	var logits *tensor.Tensor
	err = tensor.Catch(func() {
		logits, st.KV = m.prefill(m.Params, m.ints(flat(padded), b, s), st.padT, m.ints([]int{0}), nil, kv)
	})
	if err != nil {
		return nil, nil, err
	}
	v, err := floats(logits)
	if err != nil {
		return nil, nil, err
	}
	return st, v, nil
}

// Step feeds one token per row (ids[r] for row r) at cache slot st.Pos,
// advances st.Pos, and returns the logits of the next token ([B·vocab]).
func (m *Model) Step(st *State, ids []int) ([]float32, error) {
	b := len(st.Pad)
	if len(ids) != b {
		return nil, fmt.Errorf("gpt2: %d ids for a batch of %d", len(ids), b)
	}
	if st.Pos >= st.Len {
		return nil, fmt.Errorf("gpt2: the cache's %d slots are full", st.Len)
	}
	if st.KV == nil {
		return nil, fmt.Errorf("gpt2: the state's cache is gone (a step failed)")
	}
	for _, id := range ids {
		if id < 0 || id >= m.Config.VocabSize {
			return nil, fmt.Errorf("gpt2: token id %d is out of the vocabulary [0, %d)", id, m.Config.VocabSize)
		}
	}
	var logits *tensor.Tensor
	err := tensor.Catch(func() {
		logits, st.KV = m.decode(m.Params, m.ints(ids, b, 1), st.padT, m.ints([]int{st.Pos}), st.one, st.KV)
	})
	if err != nil {
		st.KV = nil
		return nil, err
	}
	st.Pos++
	return floats(logits)
}

// Release gives the state's cache back to the model, for the next
// Prefill of the same shape to reuse.
func (m *Model) Release(st *State) {
	if st.KV != nil {
		m.cache, st.KV = st.KV, nil
	}
}

// Generate continues each prompt (token ids; the prompts may differ in
// length: they are left-padded, with the padding masked out, as Hugging
// Face does with padding_side="left") by up to MaxNewTokens tokens.
func (m *Model) Generate(prompts [][]int, o GenerateOptions) (*Result, error) {
	cfg := m.Config
	stop := o.Stop
	if stop == nil {
		stop = []int{cfg.EOS}
	}
	b := len(prompts)
	res := &Result{IDs: make([][]int, b)}
	done := make([]bool, b)
	rng := rand.New(rand.NewPCG(o.Sampling.Seed, 0x5354454c41))
	next := make([]int, b)
	choose := func(v []float32) {
		V := cfg.VocabSize
		for r := range b {
			if done[r] {
				next[r] = stop[0]
				continue
			}
			next[r] = sample(v[r*V:(r+1)*V], o.Sampling, rng)
			res.IDs[r] = append(res.IDs[r], next[r])
			if o.OnToken != nil {
				o.OnToken(r, next[r])
			}
			done[r] = slices.Contains(stop, next[r])
		}
	}
	start := time.Now()
	st, v, err := m.Prefill(prompts, o.MaxNewTokens)
	if err != nil {
		return nil, err
	}
	defer m.Release(st)
	choose(v)
	res.Prefill = time.Since(start)
	start = time.Now()
	for step := 1; step < o.MaxNewTokens && slices.Contains(done, false); step++ {
		v, err := m.Step(st, next)
		if err != nil {
			return nil, err
		}
		choose(v)
		res.Steps++
	}
	res.Decode = time.Since(start)
	return res, nil
}

// kvCache returns a cache for batch b and T slots: the last one if it has
// that shape, else new zeros.
func (m *Model) kvCache(b, T int) ([]*tensor.Tensor, error) {
	cfg := m.Config
	shape := []int{b, cfg.NHead, T, cfg.HeadDim()}
	if len(m.cache) == 2*cfg.NLayer && slices.Equal(m.cache[0].Shape(), shape) {
		kv := m.cache
		m.cache = nil
		return kv, nil
	}
	for _, t := range m.cache {
		t.Free()
	}
	m.cache = nil
	kv := make([]*tensor.Tensor, 2*cfg.NLayer)
	n := b * cfg.NHead * T * cfg.HeadDim()
	for i := range kv {
		l := &ir.Literal{Type: ir.TensorOf(ir.F32, shape...), Data: make([]float32, n)}
		buf, err := m.dev.Put(l)
		if err != nil {
			return nil, fmt.Errorf("gpt2: allocating the key/value cache on %s: %w", m.dev.Name(), err)
		}
		kv[i] = tensor.FromResult(buf, true) // as the results that replace it
	}
	return kv, nil
}

func floats(t *tensor.Tensor) (v []float32, err error) {
	err = tensor.Catch(func() { v = t.Float32s() })
	return v, err
}

// sample picks a token from one row of logits.
func sample(logits []float32, s Sampling, rng *rand.Rand) int {
	if s.Temperature <= 0 {
		best := 0
		for i, x := range logits {
			if x > logits[best] {
				best = i
			}
		}
		return best
	}
	idx := make([]int, len(logits))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return logits[idx[a]] > logits[idx[b]] })
	if s.TopK > 0 && s.TopK < len(idx) {
		idx = idx[:s.TopK]
	}
	// Softmax of logits/T over the kept tokens, in descending order.
	p := make([]float64, len(idx))
	top := float64(logits[idx[0]]) / s.Temperature
	sum := 0.0
	for i, k := range idx {
		p[i] = math.Exp(float64(logits[k])/s.Temperature - top)
		sum += p[i]
	}
	if s.TopP > 0 && s.TopP < 1 {
		acc := 0.0
		for i := range p {
			acc += p[i] / sum
			if acc >= s.TopP {
				idx, p = idx[:i+1], p[:i+1]
				break
			}
		}
		sum = 0
		for _, x := range p {
			sum += x
		}
	}
	u := rng.Float64() * sum
	for i, x := range p {
		u -= x
		if u < 0 {
			return idx[i]
		}
	}
	return idx[len(idx)-1]
}
