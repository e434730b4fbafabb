package rt

import (
	"runtime"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkDecodeWeights runs the products of a GPT-2-small batch-1
// decode step (12 blocks of c_attn, attn.c_proj, c_fc and mlp.c_proj,
// k-major, and the tied LM head, n-major: 497 MB of f32 weights, or half
// that in bf16) in variants: f32 or bf16 weights, in 4 KiB pages or
// transparent huge pages (as the plugin's buffers of 2 MiB or more are),
// and one row times a k-major weight split by rows (the default) or by
// columns (STELA_CPU_GEMV=cols). Next to each round it runs W7's
// bandwidth probe (STREAM's copy of 256 MB, Go's copy on one goroutine
// per CPU). Each round runs every variant once, the order alternating;
// it reports per variant the median and the best ms of the step's
// products, the median CPU ms (all threads: on a machine other processes
// load, the work done) and the median of the round's bound (the f32
// weights' bytes at the round's copy rate) over the time, the figure
// W7's batch-1 target checks (>= 0.8 for f32; a loaded machine slows the
// probe too, so the ratio is noisy):
//
//	go test ./pjrt/cpu/internal/rt -run '^$' -bench DecodeWeights -benchtime 15x
func BenchmarkDecodeWeights(b *testing.B) {
	type prod struct{ K, N int64 }
	var seq []prod
	for range 12 {
		seq = append(seq, prod{768, 2304}, prod{768, 768}, prod{768, 3072}, prod{3072, 768})
	}
	const vocab = 50257
	type variant struct {
		name  string
		bf16  bool
		huge  bool
		rows  bool
		ws    []unsafe.Pointer // seq's weights, then the head's
		ms    []float64
		cpu   []float64
		ratio []float64
	}
	var maps [][]byte
	defer func() {
		for _, m := range maps {
			syscall.Munmap(m)
		}
	}()
	alloc := func(n int64, huge bool) unsafe.Pointer {
		const hp = 2 << 20
		m, err := syscall.Mmap(-1, 0, int(n)+hp, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			b.Fatal(err)
		}
		maps = append(maps, m)
		off := (hp - int(uintptr(unsafe.Pointer(&m[0])))%hp) % hp
		advice := syscall.MADV_NOHUGEPAGE
		if huge {
			advice = syscall.MADV_HUGEPAGE
		}
		if err := syscall.Madvise(m[off:off+int(n)], advice); err != nil {
			b.Fatal(err)
		}
		p := unsafe.Pointer(&m[off])
		Memset(p, 0x3c, int(n))
		return p
	}
	var vs []*variant
	for _, c := range []variant{
		{name: "f32-4k-cols"}, {name: "f32-huge-cols", huge: true}, {name: "f32-4k-rows", rows: true},
		{name: "f32-huge-rows", huge: true, rows: true},
		{name: "bf16-huge-cols", bf16: true, huge: true}, {name: "bf16-huge-rows", bf16: true, huge: true, rows: true},
	} {
		v := &c
		es := int64(4)
		if v.bf16 {
			es = 2
		}
		for _, p := range seq {
			v.ws = append(v.ws, alloc(p.K*p.N*es, v.huge))
		}
		v.ws = append(v.ws, alloc(vocab*768*es, v.huge))
		vs = append(vs, v)
	}
	f32Bytes := int64(vocab * 768 * 4)
	for _, p := range seq {
		f32Bytes += p.K * p.N * 4
	}
	defer SetSkinnyRow(true)
	A, Cm := Malloc(4*3072), Malloc(4*vocab)
	Memset(A, 0x3c, 4*3072)
	defer Free(A)
	defer Free(Cm)
	r := Default()
	step := func(v *variant) {
		SetSkinnyRow(v.rows)
		for i, p := range seq {
			if v.bf16 {
				r.GemmBF16(false, false, false, true, 1, p.N, p.K, 1, A, p.K, v.ws[i], p.N, 0, Cm, p.N)
			} else {
				r.Gemm(false, false, false, false, 1, p.N, p.K, 1, A, p.K, v.ws[i], p.N, 0, Cm, p.N)
			}
		}
		w := v.ws[len(seq)]
		if v.bf16 {
			r.GemmBF16(false, true, false, true, 1, vocab, 768, 1, A, 768, w, 768, 0, Cm, vocab)
		} else {
			r.Gemm(false, false, false, true, 1, vocab, 768, 1, A, 768, w, 768, 0, Cm, vocab)
		}
	}
	const bw = 256 << 20
	src, dst := make([]byte, bw), make([]byte, bw)
	for i := range src {
		src[i] = byte(i)
	}
	copyRate := func() float64 {
		n := runtime.NumCPU()
		chunk := (bw + n - 1) / n
		t0 := time.Now()
		var wg sync.WaitGroup
		for i := 0; i < bw; i += chunk {
			wg.Go(func() { copy(dst[i:min(i+chunk, bw)], src[i:min(i+chunk, bw)]) })
		}
		wg.Wait()
		return 2 * bw / time.Since(t0).Seconds()
	}
	for _, v := range vs {
		step(v) // warm up
	}
	round := 0
	for b.Loop() {
		rate := copyRate()
		order := slices.Clone(vs)
		if round%2 == 1 {
			slices.Reverse(order)
		}
		round++
		for _, v := range order {
			t0, c0 := time.Now(), cpuTime()
			step(v)
			d := time.Since(t0).Seconds()
			v.ms = append(v.ms, d*1e3)
			v.cpu = append(v.cpu, float64(cpuTime()-c0)/1e6)
			v.ratio = append(v.ratio, float64(f32Bytes)/rate/d)
		}
	}
	med := func(x []float64) float64 { x = slices.Clone(x); slices.Sort(x); return x[len(x)/2] }
	for _, v := range vs {
		b.ReportMetric(med(v.ms), v.name+"-ms")
		b.ReportMetric(slices.Min(v.ms), v.name+"-min-ms")
		b.ReportMetric(med(v.cpu), v.name+"-cpu-ms")
		b.ReportMetric(med(v.ratio), v.name+"-bound/t")
	}
}
