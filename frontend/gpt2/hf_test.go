package gpt2_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"testing"

	"github.com/stela-ml/stela/frontend/gpt2"
	"github.com/stela-ml/stela/frontend/optim"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/frontend/train"
)

// hfPython returns the python3 and environment that can import torch and
// transformers: Debian's /usr/bin/python3 (torch 1.13) with
// $STELA_HF_PYTHONPATH (where .ci/run installs transformers 4.40.2 and
// its pure-Python dependencies) on PYTHONPATH, offline. Without them the
// test skips, except under CI=true, where it fails.
func hfPython(t *testing.T) (string, []string) {
	t.Helper()
	missing := func(why string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Hugging Face oracle under CI=true: %s", why)
		}
		t.Skipf("no Hugging Face oracle: %s", why)
	}
	dir := os.Getenv("STELA_HF_PYTHONPATH")
	if dir == "" {
		missing("STELA_HF_PYTHONPATH is not set (.ci/run sets it)")
	}
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		missing(err.Error())
	}
	env := append(os.Environ(), "PYTHONPATH="+dir, "HF_HUB_OFFLINE=1", "TRANSFORMERS_OFFLINE=1", "OMP_NUM_THREADS=2")
	return py, env
}

// hfSpec is what testdata/hf_gpt2.py reads.
type hfSpec struct {
	Seed    int            `json:"seed"`
	Config  map[string]any `json:"config"`
	IDs     [][]int        `json:"ids"`
	Prompts [][]int        `json:"prompts"`
	New     int            `json:"new"`
}

type hfOut struct {
	Logits      [][][]float64 `json:"logits"`
	Greedy      [][]int       `json:"greedy"`
	Batch       [][]int       `json:"batch"`
	BatchLogits [][][]float64 `json:"batch_logits"`
}

func runHF(t *testing.T, mode, dir string, spec hfSpec) hfOut {
	t.Helper()
	py, env := hfPython(t)
	tmp := t.TempDir()
	in, out := filepath.Join(tmp, "spec.json"), filepath.Join(tmp, "out.json")
	b, _ := json.Marshal(spec)
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, filepath.Join("testdata", "hf_gpt2.py"), mode, dir, in, out)
	cmd.Env = env
	if o, err := cmd.CombinedOutput(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 && os.Getenv("CI") != "true" {
			t.Skipf("transformers is not importable: %s", o)
		}
		t.Fatalf("hf_gpt2.py %s: %v\n%s", mode, err, o)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res hfOut
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func randomIDs(r *rand.Rand, vocab, n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = r.IntN(vocab)
	}
	return ids
}

// relErr is max |got - want| over max |want|.
func relErr(got []float32, want []float64) float64 {
	var d, m float64
	for i, w := range want {
		d = max(d, math.Abs(float64(got[i])-w))
		m = max(m, math.Abs(w))
	}
	return d / m
}

// untilStop cuts a Hugging Face row after its first stop token (the rest
// is padding).
func untilStop(ids []int, eos int) []int {
	if i := slices.Index(ids, eos); i >= 0 {
		return ids[:i+1]
	}
	return ids
}

// checkAgainstHF builds a random GPT-2 of config with transformers, loads
// the directory it saved, and compares logits, greedy generation and
// left-padded batch generation.
func checkAgainstHF(t *testing.T, config map[string]any, seqLen int, prompts []int, newTokens int) {
	r := rand.New(rand.NewPCG(1, 2))
	vocab := int(config["vocab_size"].(float64))
	spec := hfSpec{Seed: 3, Config: config, New: newTokens}
	spec.IDs = [][]int{randomIDs(r, vocab, seqLen), randomIDs(r, vocab, seqLen)}
	for _, n := range prompts {
		spec.Prompts = append(spec.Prompts, randomIDs(r, vocab, n))
	}
	dir := t.TempDir()
	want := runHF(t, "make", dir, spec)

	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	eos := m.Config.EOS
	logits, err := m.Logits(spec.IDs, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := logits.Float32s()
	var flat []float64
	for _, row := range want.Logits {
		for _, pos := range row {
			flat = append(flat, pos...)
		}
	}
	if len(got) != len(flat) {
		t.Fatalf("logits: %d values, transformers has %d", len(got), len(flat))
	}
	if e := relErr(got, flat); e > 1e-4 {
		t.Errorf("logits differ from transformers' by %.3g relative, want <= 1e-4", e)
	} else {
		t.Logf("logits match transformers' to %.3g relative", e)
	}

	for i, p := range spec.Prompts {
		res, err := m.Generate([][]int{p}, gpt2.GenerateOptions{MaxNewTokens: newTokens})
		if err != nil {
			t.Fatal(err)
		}
		if w := untilStop(want.Greedy[i], eos); !slices.Equal(res.IDs[0], w) {
			t.Errorf("prompt %d (%d tokens): greedy\n got %v\nwant %v (transformers' generate)", i, len(p), res.IDs[0], w)
		}
	}
	if len(spec.Prompts) > 1 {
		res, err := m.Generate(spec.Prompts, gpt2.GenerateOptions{MaxNewTokens: newTokens})
		if err != nil {
			t.Fatal(err)
		}
		for i := range spec.Prompts {
			if w := untilStop(want.Batch[i], eos); !slices.Equal(res.IDs[i], w) {
				t.Errorf("left-padded batch, row %d: greedy\n got %v\nwant %v (transformers' generate)", i, res.IDs[i], w)
			}
		}
		// The batch's logits at the real positions.
		s := 0
		for _, p := range spec.Prompts {
			s = max(s, len(p))
		}
		var ids [][]int
		var pad []int
		for _, p := range spec.Prompts {
			ids = append(ids, append(make([]int, s-len(p)), p...))
			pad = append(pad, s-len(p))
		}
		lb, err := m.Logits(ids, pad)
		if err != nil {
			t.Fatal(err)
		}
		all := lb.Float32s()
		for i, p := range spec.Prompts {
			var g []float32
			for j := s - len(p); j < s; j++ {
				g = append(g, all[(i*s+j)*vocab:(i*s+j+1)*vocab]...)
			}
			var w []float64
			for _, row := range want.BatchLogits[i] {
				w = append(w, row...)
			}
			if e := relErr(g, w); e > 1e-4 {
				t.Errorf("left-padded batch, row %d: logits differ from transformers' by %.3g relative", i, e)
			}
		}
	}
}

// TestMatchesTransformersSmall: a 2-layer, 4-head, d_model 128 GPT-2.
func TestMatchesTransformersSmall(t *testing.T) {
	checkAgainstHF(t, map[string]any{
		"n_layer": 2.0, "n_head": 4.0, "n_embd": 128.0, "vocab_size": 1000.0, "n_positions": 128.0,
		"bos_token_id": 999.0, "eos_token_id": 999.0,
	}, 12, []int{5, 13, 1}, 32)
}

// TestMatchesTransformersGPT2Small: GPT-2 small's config (124M
// parameters), randomly initialized.
func TestMatchesTransformersGPT2Small(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a 124M-parameter model")
	}
	checkAgainstHF(t, map[string]any{"vocab_size": 50257.0}, 8, []int{7}, 32)
}

// TestFineTuneLoadsInTransformers fine-tunes a random 2-layer GPT-2 that
// transformers built for 200 steps on local text (the bytes of Go's
// fmt/print.go, as token ids) with Stela's autodiff and Adam, checks that
// the loss fell, saves the parameters (their tree
// paths are transformers' names) with Model.Save, and has transformers
// load the directory:
// its logits equal Stela's.
func TestFineTuneLoadsInTransformers(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 200 training steps")
	}
	src, err := os.ReadFile(filepath.Join(goruntime.GOROOT(), "src", "fmt", "print.go"))
	if err != nil {
		t.Skip(err)
	}
	config := map[string]any{"n_layer": 2.0, "n_head": 4.0, "n_embd": 128.0, "vocab_size": 300.0, "n_positions": 64.0,
		"bos_token_id": 299.0, "eos_token_id": 299.0}
	dir := t.TempDir()
	runHF(t, "make", dir, hfSpec{Seed: 9, Config: config, New: 1})
	m, err := gpt2.Load(dir, gpt2.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Config
	const batch, seq, steps = 8, 32, 200
	c, err := train.NewClassifier(m.Params, func(p gpt2.Params, x *tensor.Tensor) *tensor.Tensor {
		l := cfg.Forward(p, x)
		return tensor.Reshape(l, -1, cfg.VocabSize)
	}, optim.NewAdam(1e-3))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(4, 4))
	var first, last float64
	for step := range steps {
		xs := make([]int32, 0, batch*seq)
		ys := make([]int32, 0, batch*seq)
		for range batch {
			at := r.IntN(len(src) - seq - 1)
			for j := range seq {
				xs = append(xs, int32(src[at+j]))
				ys = append(ys, int32(src[at+j+1]))
			}
		}
		loss, err := c.Step(tensor.FromSlice(xs, batch, seq), tensor.FromSlice(ys, batch*seq))
		if err != nil {
			t.Fatal(err)
		}
		if step < 10 {
			first += float64(loss) / 10
		}
		if step >= steps-10 {
			last += float64(loss) / 10
		}
	}
	t.Logf("loss: %.3f over the first 10 steps, %.3f over the last 10", first, last)
	if last > 0.8*first {
		t.Errorf("the loss fell from %.3f to only %.3f in %d steps", first, last, steps)
	}
	trained, err := gpt2.New(cfg, c.Model)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := trained.Save(out); err != nil {
		t.Fatal(err)
	}
	ids := [][]int{make([]int, 24)}
	for i := range ids[0] {
		ids[0][i] = int(src[100+i])
	}
	want := runHF(t, "logits", out, hfSpec{IDs: ids})
	got, err := trained.Logits(ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	var flat []float64
	for _, pos := range want.Logits[0] {
		flat = append(flat, pos...)
	}
	if e := relErr(got.Float32s(), flat); e > 1e-4 {
		t.Errorf("the fine-tuned model's logits in transformers differ from Stela's by %.3g relative", e)
	} else {
		t.Logf("transformers' logits of the fine-tuned model match Stela's to %.3g relative", e)
	}
}
