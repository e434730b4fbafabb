package gpt2_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/gpt2"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/internal/env/envtest"
	"github.com/stela-ml/stela/ir"
)

// tiny is a small config that the reference evaluator runs quickly.
var tiny = gpt2.Config{
	VocabSize: 97, NPositions: 64, NEmbd: 32, NLayer: 2, NHead: 4,
	Eps: 1e-5, Activation: "gelu_new", BOS: 96, EOS: 96, ScaleAttnWeights: true, Tie: true,
}

// writeModel saves p as a Hugging Face directory: config.json and
// model.safetensors with GPT2LMHeadModel's names.
func writeModel(t *testing.T, dir string, cfg gpt2.Config, p gpt2.Params) {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	json.Unmarshal(b, &m)
	m["model_type"] = "gpt2"
	b, _ = json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := safetensors.Save(filepath.Join(dir, "model.safetensors"), p, nil); err != nil {
		t.Fatal(err)
	}
}

func tinyDir(t *testing.T) (string, gpt2.Params) {
	dir := t.TempDir()
	p := gpt2.Init(tiny, 3)
	writeModel(t, dir, tiny, p)
	return dir, p
}

func argmax(v []float32) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

// TestSavedNamesAreHuggingFaces: the parameter tree's paths are
// GPT2LMHeadModel's state_dict names.
func TestSavedNamesAreHuggingFaces(t *testing.T) {
	p := gpt2.Init(tiny, 1)
	leaves, err := tree.FlattenWithPaths(p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range leaves {
		names = append(names, l.Path)
	}
	for _, want := range []string{"transformer.wte.weight", "transformer.wpe.weight", "transformer.h.0.ln_1.weight",
		"transformer.h.1.attn.c_attn.weight", "transformer.h.1.attn.c_proj.bias", "transformer.h.0.mlp.c_fc.weight",
		"transformer.h.0.mlp.c_proj.weight", "transformer.ln_f.bias"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s among %v", want, names)
		}
	}
	if len(names) != 2+12*tiny.NLayer+2 {
		t.Errorf("%d tensors, want %d", len(names), 2+12*tiny.NLayer+2)
	}
}

// TestCompiledMatchesReference: the loaded model's logits on the CPU
// plugin equal the reference evaluator's (the host device) on the same
// weights.
func TestCompiledMatchesReference(t *testing.T) {
	dir, _ := tinyDir(t)
	cpu, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	host, err := gpt2.Load(dir, gpt2.Options{Device: "host"})
	if err != nil {
		t.Fatal(err)
	}
	ids := [][]int{{1, 5, 9, 33, 2, 80}, {4, 4, 4, 7, 96, 0}}
	pad := []int{0, 2}
	a, err := cpu.Logits(ids, pad)
	if err != nil {
		t.Fatal(err)
	}
	b, err := host.Logits(ids, pad)
	if err != nil {
		t.Fatal(err)
	}
	x, y := a.Float32s(), b.Float32s()
	var d, m float64
	for i := range x {
		d = max(d, math.Abs(float64(x[i]-y[i])))
		m = max(m, math.Abs(float64(y[i])))
	}
	if d > 1e-5*m {
		t.Errorf("cpu and host logits differ by %g (max |logit| %g)", d, m)
	}
}

// TestGenerateMatchesRecompute: greedy generation with the KV cache gives
// the ids that recomputing the whole sequence each step (no cache) gives,
// for a left-padded batch of prompts of different lengths.
func TestGenerateMatchesRecompute(t *testing.T) {
	dir, _ := tinyDir(t)
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The recomputation runs on the reference evaluator (no compile per
	// sequence length).
	ref, err := gpt2.Load(dir, gpt2.Options{Device: "host"})
	if err != nil {
		t.Fatal(err)
	}
	prompts := [][]int{{3, 1, 4, 1, 5}, {9}, {2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4, 6, 2, 6, 4}}
	const n = 12
	res, err := m.Generate(prompts, gpt2.GenerateOptions{MaxNewTokens: n, Stop: []int{}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Steps != n-1 {
		t.Errorf("%d decode steps, want %d", res.Steps, n-1)
	}
	for r, p := range prompts {
		seq := slices.Clone(p)
		var want []int
		for range n {
			l, err := ref.Logits([][]int{seq}, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := l.Float32s()
			next := argmax(v[len(v)-tiny.VocabSize:])
			want = append(want, next)
			seq = append(seq, next)
		}
		if !slices.Equal(res.IDs[r], want) {
			t.Errorf("row %d: generated %v, recomputing gives %v", r, res.IDs[r], want)
		}
	}
}

// TestSampling: the same seed gives the same tokens; top-k 1 is greedy;
// sampled tokens are in the top k.
func TestSampling(t *testing.T) {
	dir, _ := tinyDir(t)
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := gpt2.Load(dir, gpt2.Options{Device: "host"})
	if err != nil {
		t.Fatal(err)
	}
	prompts := [][]int{{1, 2, 3}, {7, 7}}
	gen := func(s gpt2.Sampling) [][]int {
		res, err := m.Generate(prompts, gpt2.GenerateOptions{MaxNewTokens: 20, Sampling: s, Stop: []int{}})
		if err != nil {
			t.Fatal(err)
		}
		return res.IDs
	}
	a := gen(gpt2.Sampling{Temperature: 1.5, TopP: 0.95, Seed: 42})
	b := gen(gpt2.Sampling{Temperature: 1.5, TopP: 0.95, Seed: 42})
	c := gen(gpt2.Sampling{Temperature: 1.5, TopP: 0.95, Seed: 43})
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("seed 42 twice: %v and %v", a, b)
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Errorf("seeds 42 and 43 give the same %v", a)
	}
	greedy := gen(gpt2.Sampling{})
	if k1 := gen(gpt2.Sampling{Temperature: 1, TopK: 1, Seed: 9}); !slices.EqualFunc(k1, greedy, slices.Equal) {
		t.Errorf("top-k 1 gives %v, greedy %v", k1, greedy)
	}
	// With top-k 3, each sampled token is among the 3 most likely.
	k3 := gen(gpt2.Sampling{Temperature: 2, TopK: 3, Seed: 1})
	for r, p := range prompts {
		seq := slices.Clone(p)
		for _, id := range k3[r] {
			l, err := ref.Logits([][]int{seq}, nil)
			if err != nil {
				t.Fatal(err)
			}
			v := l.Float32s()
			v = v[len(v)-tiny.VocabSize:]
			rank := 0
			for _, x := range v {
				if x > v[id] {
					rank++
				}
			}
			if rank >= 3 {
				t.Fatalf("row %d: top-k 3 sampled token %d of rank %d", r, id, rank)
			}
			seq = append(seq, id)
		}
	}
}

// TestStopTokens: a row ends at its first stop token, which it includes.
func TestStopTokens(t *testing.T) {
	dir, _ := tinyDir(t)
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	free, err := m.Generate([][]int{{5, 6}}, gpt2.GenerateOptions{MaxNewTokens: 16, Stop: []int{}})
	if err != nil {
		t.Fatal(err)
	}
	stop := free.IDs[0][3]
	res, err := m.Generate([][]int{{5, 6}}, gpt2.GenerateOptions{MaxNewTokens: 16, Stop: []int{stop}})
	if err != nil {
		t.Fatal(err)
	}
	want := free.IDs[0][:slices.Index(free.IDs[0], stop)+1]
	if !slices.Equal(res.IDs[0], want) {
		t.Errorf("with stop token %d: %v, want %v", stop, res.IDs[0], want)
	}
}

// TestPromptBuckets: prompts of 1..70 tokens compile one prefill program
// per bucket (16, 32, 64), and a prompt past the model's positions is an
// error.
func TestPromptBuckets(t *testing.T) {
	cfg := tiny
	cfg.NPositions = 128
	dir := t.TempDir()
	writeModel(t, dir, cfg, gpt2.Init(cfg, 4))
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	jit.LogOutput = &sb
	envtest.Setenv(t, "STELA_LOG", "recompile")
	defer func() { jit.LogOutput = nil }()
	before := jit.CacheStats().Misses
	for n := 1; n <= 70; n += 3 {
		p := make([]int, n)
		for i := range p {
			p[i] = (i * 7) % cfg.VocabSize
		}
		if _, err := m.Generate([][]int{p}, gpt2.GenerateOptions{MaxNewTokens: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// Prefill compiles per bucket (16, 32, 64, 128): 4 at most; decode
	// does not run with one new token.
	if misses := jit.CacheStats().Misses - before; misses > 4 {
		t.Log(sb.String())
		t.Errorf("prompts of 1..70 tokens compiled %d programs, want at most 4 (one per bucket)", misses)
	}
	if !strings.Contains(sb.String(), "bucket 64") {
		t.Errorf("STELA_LOG=recompile shows no bucket choice:\n%s", sb.String())
	}
	if _, err := m.Generate([][]int{make([]int, 120)}, gpt2.GenerateOptions{MaxNewTokens: 10}); err == nil || !strings.Contains(err.Error(), "n_positions") {
		t.Errorf("a prompt past n_positions: err %v", err)
	}
}

// TestLoadErrors: a directory that does not fit its config is an error
// naming the tensor.
func TestLoadErrors(t *testing.T) {
	p := gpt2.Init(tiny, 5)
	cases := []struct {
		name  string
		edit  func(t *testing.T, dir string)
		wants []string
	}{
		{"missing tensor", func(t *testing.T, dir string) {
			q := p
			q.Transformer.H = slices.Clone(p.Transformer.H)
			q.Transformer.H[1].MLP.CFc.Bias = nil
			writeModel(t, dir, tiny, q)
		}, []string{`"transformer.h.1.mlp.c_fc.bias" is missing`}},
		{"wrong shape", func(t *testing.T, dir string) {
			q := p
			q.Transformer.H = slices.Clone(p.Transformer.H)
			q.Transformer.H[0].Attn.CAttn.Weight = tensor.Transpose(p.Transformer.H[0].Attn.CAttn.Weight, 1, 0)
			writeModel(t, dir, tiny, q)
		}, []string{`"transformer.h.0.attn.c_attn.weight" has shape [96 32], want [32 96]`}},
		{"wrong config", func(t *testing.T, dir string) {
			writeModel(t, dir, tiny, p)
			b, _ := json.Marshal(map[string]any{"n_embd": 64, "vocab_size": 97, "n_positions": 64, "n_layer": 2, "n_head": 4})
			os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644)
		}, []string{`"transformer.h.0.attn.c_attn.bias" has shape [96], want [192]`, "... and 20 more problems"}},
		{"extra layer", func(t *testing.T, dir string) {
			writeModel(t, dir, tiny, p)
			b, _ := json.Marshal(map[string]any{"n_embd": 32, "vocab_size": 97, "n_positions": 64, "n_layer": 1, "n_head": 4})
			os.WriteFile(filepath.Join(dir, "config.json"), b, 0o644)
		}, []string{`tensor "transformer.h.1.attn.c_attn.bias" is not a GPT-2 weight`}},
		{"truncated", func(t *testing.T, dir string) {
			writeModel(t, dir, tiny, p)
			f := filepath.Join(dir, "model.safetensors")
			b, _ := os.ReadFile(f)
			os.WriteFile(f, b[:len(b)-100], 0o644)
		}, []string{"run past the end of the data"}},
		{"lying offsets", func(t *testing.T, dir string) {
			writeModel(t, dir, tiny, p)
			f := filepath.Join(dir, "model.safetensors")
			b, _ := os.ReadFile(f)
			n := binary.LittleEndian.Uint64(b)
			var h map[string]any
			json.Unmarshal(b[8:8+n], &h)
			e := h["transformer.ln_f.bias"].(map[string]any)
			offs := e["data_offsets"].([]any)
			e["data_offsets"] = []any{offs[0], offs[1].(float64) + 4}
			hb, _ := json.Marshal(h)
			for len(hb)%8 != 0 {
				hb = append(hb, ' ')
			}
			out := binary.LittleEndian.AppendUint64(nil, uint64(len(hb)))
			out = append(append(out, hb...), b[8+n:]...)
			os.WriteFile(f, out, 0o644)
		}, []string{`"transformer.ln_f.bias"`}},
		{"no weights", func(t *testing.T, dir string) {
			writeModel(t, dir, tiny, p)
			os.Remove(filepath.Join(dir, "model.safetensors"))
		}, []string{"neither model.safetensors nor model.safetensors.index.json"}},
		{"not gpt2", func(t *testing.T, dir string) {
			writeModel(t, dir, tiny, p)
			os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"model_type": "llama"}`), 0o644)
		}, []string{`model_type is "llama"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.edit(t, dir)
			_, err := gpt2.Load(dir, gpt2.Options{})
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}

// TestShardedAndUnprefixed: a checkpoint split over two files with an
// index, and one named as GPT2Model saves it (no "transformer." prefix)
// with an untied lm_head, load and compute what they should.
func TestShardedAndUnprefixed(t *testing.T) {
	dir, p := tinyDir(t)
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := [][]int{{5, 17, 3, 88}}
	want, _ := m.Logits(ids, nil)

	// The weights are views of the mapped file by default (on the CPU
	// plugin); copied ones compute the same logits.
	mc, err := gpt2.Load(dir, gpt2.Options{CopyWeights: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := mc.Logits(ids, nil); !slices.Equal(got.Float32s(), want.Float32s()) {
		t.Error("copied weights compute other logits than viewed ones")
	}

	// Sharded: the transformer's first half of the tensors in one file.
	sh := t.TempDir()
	leaves, _ := tree.FlattenWithPaths(p)
	wm := map[string]string{}
	files := map[string]map[string]*tensor.Tensor{}
	for i, l := range leaves {
		f := "model-00001-of-00002.safetensors"
		if i >= len(leaves)/2 {
			f = "model-00002-of-00002.safetensors"
		}
		wm[l.Path] = f
		if files[f] == nil {
			files[f] = map[string]*tensor.Tensor{}
		}
		files[f][l.Path] = l.Tensor
	}
	for f, ts := range files {
		if err := safetensors.Save(filepath.Join(sh, f), ts, nil); err != nil {
			t.Fatal(err)
		}
	}
	idx, _ := json.Marshal(map[string]any{"metadata": map[string]any{}, "weight_map": wm})
	os.WriteFile(filepath.Join(sh, "model.safetensors.index.json"), idx, 0o644)
	cfgb, _ := os.ReadFile(filepath.Join(dir, "config.json"))
	os.WriteFile(filepath.Join(sh, "config.json"), cfgb, 0o644)
	ms, err := gpt2.Load(sh, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := ms.Logits(ids, nil)
	if !slices.Equal(got.Float32s(), want.Float32s()) {
		t.Error("the sharded checkpoint computes other logits")
	}
	// The index giving a tensor to the wrong shard is an error naming it.
	wm["transformer.wte.weight"] = "model-00002-of-00002.safetensors"
	idx, _ = json.Marshal(map[string]any{"weight_map": wm})
	os.WriteFile(filepath.Join(sh, "model.safetensors.index.json"), idx, 0o644)
	if _, err := gpt2.Load(sh, gpt2.Options{}); err == nil || !strings.Contains(err.Error(), `"transformer.wte.weight"`) {
		t.Errorf("a wrong weight map: err %v", err)
	}

	// GPT2Model's names, with an untied head equal to wte: same logits.
	un := t.TempDir()
	flat := map[string]*tensor.Tensor{}
	for _, l := range leaves {
		flat[strings.TrimPrefix(l.Path, "transformer.")] = l.Tensor
	}
	flat["lm_head.weight"] = p.Transformer.Wte.Weight
	if err := safetensors.Save(filepath.Join(un, "model.safetensors"), flat, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(un, "config.json"), cfgb, 0o644)
	mu, err := gpt2.Load(un, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if mu.Params.LMHead == nil {
		t.Error("lm_head.weight was not loaded as the head")
	}
	got, _ = mu.Logits(ids, nil)
	if !slices.Equal(got.Float32s(), want.Float32s()) {
		t.Error("the unprefixed checkpoint computes other logits")
	}
}

// TestHalfWeights: weights kept in bf16 or f16 (computed in f32) give
// logits close to f32's, and the same greedy tokens on a short run.
func TestHalfWeights(t *testing.T) {
	dir, _ := tinyDir(t)
	ref, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ids := [][]int{{1, 5, 9, 33, 2, 80}}
	want, _ := ref.Logits(ids, nil)
	for _, dt := range []ir.DType{ir.BF16, ir.F16} {
		m, err := gpt2.Load(dir, gpt2.Options{DType: dt})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Params.Transformer.H[0].Attn.CAttn.Weight.DType(); got != dt {
			t.Errorf("%v: weights are %v", dt, got)
		}
		got, err := m.Logits(ids, nil)
		if err != nil {
			t.Fatal(err)
		}
		x, y := got.Float32s(), want.Float32s()
		var d, mx float64
		for i := range x {
			d = max(d, math.Abs(float64(x[i]-y[i])))
			mx = max(mx, math.Abs(float64(y[i])))
		}
		if d > 0.02*mx {
			t.Errorf("%v weights: logits differ from f32's by %g (max |logit| %g)", dt, d, mx)
		}
		if _, err := m.Generate(ids, gpt2.GenerateOptions{MaxNewTokens: 4}); err != nil {
			t.Errorf("%v weights: %v", dt, err)
		}
	}
}

// TestStepDonatesTheCache: a decode step gives the cache's buffers to the
// compiled program (jit.Donate), which writes the new cache into them:
// the old tensors are gone after the step.
func TestStepDonatesTheCache(t *testing.T) {
	dir, _ := tinyDir(t)
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, _, err := m.Prefill([][]int{{1, 2, 3}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	old := slices.Clone(st.KV)
	if _, err := m.Step(st, []int{4}); err != nil {
		t.Fatal(err)
	}
	for i, x := range old {
		if !x.Freed() {
			t.Fatalf("cache tensor %d was not donated to the decode step", i)
		}
	}
	m.Release(st)
}
