package gpt2_test

import (
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/gpt2"
	"github.com/stela-ml/stela/frontend/tree"
	"github.com/stela-ml/stela/ir"
)

// BenchmarkDecodeDType measures GPT-2 small's batch-1 decode step with
// f32 weights and with bf16 weights (computed with f32 accumulation),
// interleaved (rounds of steps of one, then of the other) so that a
// shared machine's load falls on both alike, and reports the median
// ms/token of each (f32-ms/token, bf16-ms/token) and their ratio, and
// the median CPU time per token of each (all the process's threads: on a
// machine others load, the work done, which wall time hides).
// STELA_CPU_BF16=off measures bf16 weights without the bf16 GEMM.
func BenchmarkDecodeDType(b *testing.B) {
	cfg, dir, _ := smallDir(b)
	const steps, prompt = 8, 16
	dts := []ir.DType{ir.F32, ir.BF16}
	var models []*gpt2.Model
	for _, dt := range dts {
		m, err := gpt2.Load(dir, gpt2.Options{DType: dt})
		if err != nil {
			b.Fatal(err)
		}
		models = append(models, m)
	}
	r := rand.New(rand.NewPCG(7, 7))
	ids := make([]int, prompt)
	for i := range ids {
		ids[i] = r.IntN(cfg.VocabSize)
	}
	times := make([][]float64, len(models))
	cpu := make([][]float64, len(models)) // CPU time (all threads) per step: less affected by other processes
	cpuMS := func() float64 {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
	}
	b.ResetTimer()
	for b.Loop() {
		for i, m := range models {
			st, _, err := m.Prefill([][]int{ids}, steps+1)
			if err != nil {
				b.Fatal(err)
			}
			next := []int{1}
			for range steps {
				t0, c0 := time.Now(), cpuMS()
				if _, err := m.Step(st, next); err != nil {
					b.Fatal(err)
				}
				times[i] = append(times[i], float64(time.Since(t0))/1e6)
				cpu[i] = append(cpu[i], cpuMS()-c0)
			}
			m.Release(st)
		}
	}
	med := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	f, h := med(times[0]), med(times[1])
	b.ReportMetric(f, "f32-ms/token")
	b.ReportMetric(h, "bf16-ms/token")
	b.ReportMetric(f/h, "bf16-speedup")
	b.ReportMetric(med(cpu[0]), "f32-cpu-ms/token")
	b.ReportMetric(med(cpu[1]), "bf16-cpu-ms/token")
}

// BenchmarkLoad: loading a GPT-2-small-sized directory (498 MB of f32
// weights) as views of the mapped file (the default on the CPU plugin) and
// as copies (Options.CopyWeights), with the file in the page cache.
func BenchmarkLoad(b *testing.B) {
	_, dir, m0 := smallDir(b)
	free := func(m *gpt2.Model) {
		leaves, _ := tree.FlattenWithPaths(m.Params)
		for _, l := range leaves {
			l.Tensor.Free()
		}
	}
	free(m0)
	for _, c := range []struct {
		name string
		copy bool
	}{{"view", false}, {"copy", true}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				m, err := gpt2.Load(dir, gpt2.Options{CopyWeights: c.copy})
				if err != nil {
					b.Fatal(err)
				}
				free(m)
			}
		})
	}
}

// smallDir saves a GPT-2-small-sized model with random weights (498 MB of
// f32) as a Hugging Face directory; it returns the config, the directory
// and the model saved.
func smallDir(b *testing.B) (gpt2.Config, string, *gpt2.Model) {
	cfg := gpt2.Config{VocabSize: 50257, NPositions: 1024, NEmbd: 768, NLayer: 12, NHead: 12,
		Eps: 1e-5, Activation: "gelu_new", BOS: 50256, EOS: 50256, ScaleAttnWeights: true, Tie: true}
	dir := b.TempDir()
	m, err := gpt2.New(cfg, gpt2.Init(cfg, 1))
	if err != nil {
		b.Fatal(err)
	}
	if err := m.Save(dir); err != nil {
		b.Fatal(err)
	}
	return cfg, dir, m
}
