package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/stela-ml/stela/frontend/gpt2"
	"github.com/stela-ml/stela/frontend/tokenizer"
	"github.com/stela-ml/stela/ir"
)

// promptList is --prompt, which may be given several times (a batch).
type promptList []string

func (p *promptList) String() string     { return strings.Join(*p, " | ") }
func (p *promptList) Set(s string) error { *p = append(*p, s); return nil }

// generateJSON is one line of `stela generate --json`.
type generateJSON struct {
	PromptIDs  []int   `json:"prompt_ids"`
	IDs        []int   `json:"ids"`
	Text       string  `json:"text"`
	PrefillMS  float64 `json:"prefill_ms"`
	MSPerToken float64 `json:"ms_per_token"`
	TokensPerS float64 `json:"tokens_per_s"`
}

func runGenerate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("generate")
	model := fs.String("model", "", "the Hugging Face GPT-2 `DIR`: config.json, model.safetensors (or model.safetensors.index.json and its shards), and tokenizer.json or vocab.json and merges.txt")
	var prompts promptList
	fs.Var(&prompts, "prompt", "the `TEXT` to continue; several --prompt make a batch (left-padded)")
	n := fs.Int("n", 64, "generate at most `N` new tokens per prompt")
	temp := fs.Float64("temperature", 0, "the sampling `TEMPERATURE`; 0 is greedy (argmax)")
	topK := fs.Int("top-k", 0, "sample among the `K` most likely tokens (0: all)")
	topP := fs.Float64("top-p", 0, "sample among the most likely tokens whose probabilities sum to `P` (0 or 1: all)")
	seed := fs.Uint64("seed", 0, "the sampling PRNG's `SEED`: the same seed gives the same tokens")
	device := fs.String("device", "", "the `DEVICE` to run on (cpu, cuda, host, ...; default: the default device, cpu)")
	dtype := fs.String("dtype", "f32", "the `TYPE` the weights are kept in: f32, bf16 or f16 (computed in f32)")
	asJSON := fs.Bool("json", false, "print one JSON object per prompt (prompt_ids, ids, text, prefill_ms, ms_per_token, tokens_per_s) instead of streaming")
	if err := noArgs(fs, args); err != nil {
		return err
	}
	if *model == "" {
		return fmt.Errorf("generate: --model DIR is required")
	}
	if len(prompts) == 0 {
		return fmt.Errorf("generate: --prompt TEXT is required")
	}
	dt, ok := ir.ParseDType(*dtype)
	if !ok || (dt != ir.F32 && dt != ir.BF16 && dt != ir.F16) {
		return fmt.Errorf("generate: --dtype %q: want f32, bf16 or f16", *dtype)
	}
	tok, err := tokenizer.Load(*model)
	if err != nil {
		return err
	}
	m, err := gpt2.Load(*model, gpt2.Options{Device: *device, DType: dt})
	if err != nil {
		return err
	}
	if tok.VocabSize() > m.Config.VocabSize {
		return fmt.Errorf("generate: the tokenizer has %d tokens, the model's vocab_size is %d", tok.VocabSize(), m.Config.VocabSize)
	}
	var ids [][]int
	for i, p := range prompts {
		e := tok.Encode(p)
		if len(e) == 0 {
			return fmt.Errorf("generate: prompt %d encodes to no tokens", i)
		}
		ids = append(ids, e)
	}
	opts := gpt2.GenerateOptions{
		MaxNewTokens: *n,
		Sampling:     gpt2.Sampling{Temperature: *temp, TopK: *topK, TopP: *topP, Seed: *seed},
	}
	if eos, ok := tok.EOS(); ok {
		opts.Stop = []int{eos}
	}
	stream := !*asJSON && len(ids) == 1
	dec := tok.NewStreamDecoder()
	if stream {
		fmt.Fprint(stdout, prompts[0])
		opts.OnToken = func(_, id int) {
			if tok.IsSpecial(id) {
				return
			}
			fmt.Fprint(stdout, dec.Add(id))
			if f, ok := stdout.(interface{ Sync() error }); ok {
				f.Sync()
			}
		}
	}
	res, err := m.Generate(ids, opts)
	if stream {
		fmt.Fprintln(stdout, dec.Flush())
	}
	if err != nil {
		return err
	}
	prefill := float64(res.Prefill.Microseconds()) / 1000
	perTok, tps := 0.0, 0.0
	if res.Steps > 0 {
		perTok = float64(res.Decode.Microseconds()) / 1000 / float64(res.Steps)
		tps = float64(res.Steps) / res.Decode.Seconds()
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for i := range ids {
			if err := enc.Encode(generateJSON{
				PromptIDs: ids[i], IDs: res.IDs[i], Text: tok.DecodeSkipSpecial(res.IDs[i]),
				PrefillMS: prefill, MSPerToken: perTok, TokensPerS: tps,
			}); err != nil {
				return err
			}
		}
		return nil
	}
	if !stream {
		for i, p := range prompts {
			fmt.Fprintf(stdout, "[%d] %s%s\n", i, p, tok.DecodeSkipSpecial(res.IDs[i]))
		}
	}
	fmt.Fprintf(stderr, "prefill %.1f ms (%d prompt tokens, batch %d); decode %d steps, %.2f ms/token, %.1f tokens/s per row\n",
		prefill, len(ids[0]), len(ids), res.Steps, perTok, tps)
	return nil
}
