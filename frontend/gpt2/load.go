package gpt2

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// Options configures Load.
type Options struct {
	// Device is where the weights go and the model runs ("cpu", "cuda",
	// "host", ...); "" is the default device.
	Device string
	// DType is the element type the weights are kept in (the file's are
	// converted): ir.F32 (the default, InvalidDType) or ir.BF16 / ir.F16,
	// which the model reads and computes with in f32.
	DType ir.DType
	// CopyWeights copies every weight into memory of the device's own.
	// By default a weight whose file dtype is DType is, on a device whose
	// buffers are host memory (Stela's CPU plugin), a view of the
	// memory-mapped file (safetensors.File.View): loading copies nothing
	// and the weights are the page cache's. A file changed in place while
	// such a model is loaded changes (or, truncated, faults) what it reads.
	CopyWeights bool
}

// Load reads a Hugging Face GPT-2 directory: config.json and
// model.safetensors (or the shards that model.safetensors.index.json
// lists). The tensors may be named as GPT2LMHeadModel saves them
// ("transformer.h.0.ln_1.weight", "lm_head.weight" when untied) or as
// GPT2Model does ("h.0.ln_1.weight"). Everything is checked against the
// config before anything is loaded: a missing tensor, one the model has
// no place for, a shape that differs from the config's, or a dtype that
// is not a float is an error naming the tensor. The causal-mask buffers
// that older files carry (h.N.attn.bias, h.N.attn.masked_bias) are
// ignored.
func Load(dir string, opts Options) (*Model, error) {
	cfg, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	r, err := openWeights(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	p, err := loadParams(cfg, r, opts)
	if err != nil {
		return nil, err
	}
	return newModel(cfg, p, opts)
}

// openWeights opens dir's model.safetensors, else its sharded index.
func openWeights(dir string) (safetensors.Reader, error) {
	single := filepath.Join(dir, "model.safetensors")
	index := filepath.Join(dir, "model.safetensors.index.json")
	if _, err := os.Stat(single); err == nil {
		return safetensors.Open(single)
	}
	if _, err := os.Stat(index); err == nil {
		return safetensors.OpenSharded(index)
	}
	if _, err := os.Stat(filepath.Join(dir, "pytorch_model.bin")); err == nil {
		return nil, fmt.Errorf("gpt2: %s has pytorch_model.bin but no model.safetensors: save it with save_pretrained(dir, safe_serialization=True)", dir)
	}
	return nil, fmt.Errorf("gpt2: %s has neither model.safetensors nor model.safetensors.index.json", dir)
}

// slot is one tensor the model wants: its name (without the
// "transformer." prefix for the transformer's), its shape, and where it
// goes.
type slot struct {
	name  string
	shape []int
	set   func(*tensor.Tensor)
}

// slots lists the tensors of a GPT-2 of config cfg, filling p.
func slots(cfg Config, p *Params) []slot {
	d, in := cfg.NEmbd, cfg.Inner()
	t := &p.Transformer
	t.H = make([]Block, cfg.NLayer)
	var s []slot
	add := func(name string, dst **tensor.Tensor, shape ...int) {
		s = append(s, slot{name, shape, func(x *tensor.Tensor) { *dst = x }})
	}
	add("wte.weight", &t.Wte.Weight, cfg.VocabSize, d)
	add("wpe.weight", &t.Wpe.Weight, cfg.NPositions, d)
	for i := range t.H {
		b := &t.H[i]
		pre := "h." + strconv.Itoa(i) + "."
		add(pre+"ln_1.weight", &b.Ln1.Weight, d)
		add(pre+"ln_1.bias", &b.Ln1.Bias, d)
		add(pre+"attn.c_attn.weight", &b.Attn.CAttn.Weight, d, 3*d)
		add(pre+"attn.c_attn.bias", &b.Attn.CAttn.Bias, 3*d)
		add(pre+"attn.c_proj.weight", &b.Attn.CProj.Weight, d, d)
		add(pre+"attn.c_proj.bias", &b.Attn.CProj.Bias, d)
		add(pre+"ln_2.weight", &b.Ln2.Weight, d)
		add(pre+"ln_2.bias", &b.Ln2.Bias, d)
		add(pre+"mlp.c_fc.weight", &b.MLP.CFc.Weight, d, in)
		add(pre+"mlp.c_fc.bias", &b.MLP.CFc.Bias, in)
		add(pre+"mlp.c_proj.weight", &b.MLP.CProj.Weight, in, d)
		add(pre+"mlp.c_proj.bias", &b.MLP.CProj.Bias, d)
	}
	add("ln_f.weight", &t.LnF.Weight, d)
	add("ln_f.bias", &t.LnF.Bias, d)
	return s
}

// ignored matches the attention's causal-mask buffers, which older
// checkpoints saved with the weights.
var ignored = regexp.MustCompile(`^h\.[0-9]+\.attn\.(bias|masked_bias)$`)

const headName = "lm_head.weight"

func loadParams(cfg Config, r safetensors.Reader, opts Options) (Params, error) {
	var p Params
	want := slots(cfg, &p)
	names := r.Names()
	// The prefix: GPT2LMHeadModel's "transformer.", or none (GPT2Model).
	prefix := ""
	if slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "transformer.") }) {
		prefix = "transformer."
	}
	byName := map[string]*slot{}
	for i := range want {
		byName[prefix+want[i].name] = &want[i]
	}
	var head *slot
	if slices.Contains(names, headName) {
		p.LMHead = &Embedding{}
		head = &slot{headName, []int{cfg.VocabSize, cfg.NEmbd}, func(x *tensor.Tensor) { p.LMHead.Weight = x }}
		byName[headName] = head
	}
	dt := opts.DType
	if dt == ir.InvalidDType {
		dt = ir.F32
	}
	if dt != ir.F32 && dt != ir.BF16 && dt != ir.F16 {
		return Params{}, fmt.Errorf("gpt2: weights dtype %v: want f32, bf16 or f16", dt)
	}
	// Check everything first.
	var errs []error
	for _, n := range names {
		s := byName[n]
		if s == nil {
			if !ignored.MatchString(strings.TrimPrefix(n, prefix)) {
				errs = append(errs, fmt.Errorf("tensor %q is not a GPT-2 weight (a %d-layer model has %s...%s)", n, cfg.NLayer, prefix+"wte.weight", prefix+"ln_f.bias"))
			}
			continue
		}
		info, err := r.Info(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch info.DType {
		case ir.F32, ir.F16, ir.BF16, ir.F64:
		default:
			errs = append(errs, fmt.Errorf("tensor %q has dtype %s: want a float (F32, F16, BF16, F64)", n, info.DTypeName))
			continue
		}
		if !slices.Equal(info.Shape, s.shape) {
			errs = append(errs, fmt.Errorf("tensor %q has shape %v, want %v for config.json's n_embd %d, n_head %d, n_inner %d, vocab_size %d, n_positions %d",
				n, info.Shape, s.shape, cfg.NEmbd, cfg.NHead, cfg.Inner(), cfg.VocabSize, cfg.NPositions))
		}
	}
	for i := range want {
		if !slices.Contains(names, prefix+want[i].name) {
			errs = append(errs, fmt.Errorf("tensor %q is missing (config.json has n_layer %d)", prefix+want[i].name, cfg.NLayer))
		}
	}
	if len(errs) > 0 {
		if len(errs) > 8 {
			errs = append(errs[:8], fmt.Errorf("... and %d more problems", len(errs)-8))
		}
		return Params{}, fmt.Errorf("gpt2: the weights do not fit config.json:\n%w", errors.Join(errs...))
	}
	dev, err := device(opts.Device)
	if err != nil {
		return Params{}, err
	}
	viewer, _ := r.(safetensors.Viewer)
	load := func(s *slot, name string) error {
		var x *tensor.Tensor
		if viewer != nil && !opts.CopyWeights {
			// The file's own pages where the device allows (the CPU
			// plugin): no copy, and the weights' memory is the page
			// cache's, shared with other processes mapping the file.
			v, err := viewer.View(name, dev)
			if err != nil {
				return fmt.Errorf("gpt2: %w", err)
			}
			x = v
		} else {
			l, err := r.Literal(name)
			if err != nil {
				return err
			}
			b, err := dev.Put(l)
			if err != nil {
				return fmt.Errorf("gpt2: tensor %q: putting it on %s: %w", name, dev.Name(), err)
			}
			x = tensor.FromResult(b, true)
		}
		if x.DType() != dt {
			var y *tensor.Tensor
			if err := tensor.Catch(func() { y = tensor.Convert(x, dt) }); err != nil {
				return fmt.Errorf("gpt2: tensor %q: converting it to %v: %w", name, dt, err)
			}
			x.Free()
			x = y
		}
		s.set(x)
		return nil
	}
	for i := range want {
		if err := load(&want[i], prefix+want[i].name); err != nil {
			return Params{}, err
		}
	}
	if head != nil {
		if err := load(head, headName); err != nil {
			return Params{}, err
		}
	}
	return p, nil
}

// device finds the named device, or the default one for "".
func device(name string) (tensor.Device, error) {
	if name == "" {
		return tensor.DefaultDevice(), nil
	}
	d, err := tensor.LookupDevice(name)
	if err != nil {
		return nil, fmt.Errorf("gpt2: device %q: %w", name, err)
	}
	return d, nil
}

// Save writes the model as a Hugging Face directory that Load and
// transformers' GPT2LMHeadModel.from_pretrained read: config.json and
// model.safetensors, its tensors under transformers' names, with the
// "format": "pt" metadata transformers wants.
func (m *Model) Save(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	b, err := json.Marshal(m.Config)
	if err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	cfg["model_type"] = "gpt2"
	cfg["architectures"] = []string{"GPT2LMHeadModel"}
	if m.Config.NInner == 0 {
		cfg["n_inner"] = nil
	}
	b, _ = json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "config.json"), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	return safetensors.Save(filepath.Join(dir, "model.safetensors"), m.Params, map[string]string{"format": "pt"})
}
