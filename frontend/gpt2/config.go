package gpt2

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Config is a GPT-2 model's shape, as Hugging Face's config.json gives it
// (transformers.GPT2Config's field names).
type Config struct {
	VocabSize  int     `json:"vocab_size"`
	NPositions int     `json:"n_positions"`
	NEmbd      int     `json:"n_embd"`
	NLayer     int     `json:"n_layer"`
	NHead      int     `json:"n_head"`
	NInner     int     `json:"n_inner"` // 0 (null in the file): 4·NEmbd
	Eps        float64 `json:"layer_norm_epsilon"`
	Activation string  `json:"activation_function"`
	BOS        int     `json:"bos_token_id"`
	EOS        int     `json:"eos_token_id"`
	// ScaleAttnWeights divides the attention scores by √(head size)
	// (true in every released GPT-2); the other attention variants of
	// GPT2Config (scale_attn_by_inverse_layer_idx, reorder_and_upcast_attn)
	// must be off.
	ScaleAttnWeights bool `json:"scale_attn_weights"`
	ScaleByLayer     bool `json:"scale_attn_by_inverse_layer_idx"`
	Reorder          bool `json:"reorder_and_upcast_attn"`
	// Tie is tie_word_embeddings: the LM head is wte's transpose.
	Tie bool `json:"tie_word_embeddings"`
}

// Inner is the MLP's hidden width.
func (c Config) Inner() int {
	if c.NInner > 0 {
		return c.NInner
	}
	return 4 * c.NEmbd
}

// HeadDim is the size of one attention head.
func (c Config) HeadDim() int { return c.NEmbd / c.NHead }

// ReadConfig reads dir/config.json, filling GPT2Config's defaults for the
// fields it leaves out, and checks it.
func ReadConfig(dir string) (Config, error) {
	path := filepath.Join(dir, "config.json")
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("gpt2: %w", err)
	}
	c := Config{
		VocabSize: 50257, NPositions: 1024, NEmbd: 768, NLayer: 12, NHead: 12,
		Eps: 1e-5, Activation: "gelu_new", BOS: 50256, EOS: 50256,
		ScaleAttnWeights: true, Tie: true,
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return Config{}, fmt.Errorf("gpt2: %s: %v", path, err)
	}
	if mt, ok := raw["model_type"].(string); ok && mt != "gpt2" {
		return Config{}, fmt.Errorf("gpt2: %s: model_type is %q, want \"gpt2\"", path, mt)
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return Config{}, fmt.Errorf("gpt2: %s: %v", path, err)
	}
	if err := c.Check(); err != nil {
		return Config{}, fmt.Errorf("gpt2: %s: %v", path, err)
	}
	return c, nil
}

// Check reports a config this package cannot run.
func (c Config) Check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"vocab_size", c.VocabSize}, {"n_positions", c.NPositions}, {"n_embd", c.NEmbd}, {"n_layer", c.NLayer}, {"n_head", c.NHead}} {
		if f.v <= 0 {
			return fmt.Errorf("%s is %d, want a positive size", f.name, f.v)
		}
	}
	if c.NEmbd%c.NHead != 0 {
		return fmt.Errorf("n_embd %d is not a multiple of n_head %d", c.NEmbd, c.NHead)
	}
	switch c.Activation {
	case "gelu_new", "gelu_pytorch_tanh":
	default:
		return fmt.Errorf("activation_function %q is not supported (gelu_new, gelu_pytorch_tanh)", c.Activation)
	}
	if !c.ScaleAttnWeights || c.ScaleByLayer || c.Reorder {
		return fmt.Errorf("only GPT-2's standard attention is supported (scale_attn_weights true, scale_attn_by_inverse_layer_idx and reorder_and_upcast_attn false)")
	}
	if c.Eps <= 0 {
		return fmt.Errorf("layer_norm_epsilon is %g, want a positive number", c.Eps)
	}
	return nil
}
