// Command bench compares GoMLX on Stela (frontend/gomlx) with GoMLX's Go
// backend on the same GoMLX programs, and with Stela's own frontend
// (frontend/jit) on the same workloads, in one run:
//
//	W1 dispatch of one op (Neg of f32[4]): GoMLX Exec.Call, and the
//	   backend's Executable.Execute alone
//	W2 elementwise chain on f32[4M] (8 ops, then a sum)
//	W3 GEMM 2048³ f32 (GFLOP/s)
//	W4 MLP training step through graph.Gradient (784-512-512-10,
//	   batch 256, SGD)
//	W5 GPT-2 block forward (seq 128, d 768, 12 heads, MLP 3072)
//	W6 first-call latency: build, compile and run a small MLP forward
//	   once (Stela's compile cache pointed at an empty directory)
//
//	cd test/gomlx && go run ./bench [-w 6,1,2,3,4,5] [-iters 20]
//
// Each row is the median of the iterations after one warm-up call.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/gobackend"
	"github.com/gomlx/compute/shapes"
	. "github.com/gomlx/gomlx/core/graph"
	"github.com/gomlx/gomlx/core/tensors"

	stelagomlx "github.com/stela-ml/stela/frontend/gomlx"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/tensor"
)

var (
	which = flag.String("w", "6,1,2,3,4,5", "workloads to run")
	iters = flag.Int("iters", 20, "timed iterations per row (W1: ×100)")
)

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

func timeIt(n int, f func()) time.Duration {
	f() // warm-up (compiles)
	ts := make([]time.Duration, n)
	for i := range ts {
		t := time.Now()
		f()
		ts[i] = time.Since(t)
	}
	return median(ts)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func row(w, who string, d time.Duration, extra string) {
	fmt.Printf("%-3s %-22s %12v  %s\n", w, who, d, extra)
}

func randF32(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 7))
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64() * 0.1)
	}
	return s
}

func backends() []compute.Backend {
	return []compute.Backend{must(gobackend.New("")), must(stelagomlx.New(""))}
}

// call runs e and reads the first output's value (the host read that
// waits for the computation).
func call(e *Exec, args ...any) {
	out := must(e.Call(args...))
	_ = out[0].Value()
	for _, o := range out {
		o.FinalizeAll()
	}
}

func w1() {
	for _, b := range backends() {
		e := must(NewExec(b, func(x *Node) *Node { return Neg(x) }))
		x := tensors.FromFlatDataAndDimensions([]float32{1, 2, 3, 4}, 4)
		row("W1", b.Name()+" Exec.Call", timeIt(*iters*100, func() { call(e, x) }), "")
		// The backend alone: compile once, Execute on a device buffer.
		bl := b.Builder("w1")
		f := bl.Main()
		p := must(f.Parameter("x", shapes.Make(dtypes.Float32, 4), nil))
		_ = f.Return([]compute.Value{must(f.Neg(p))}, nil)
		exe := must(bl.Compile())
		buf := must(b.BufferFromFlatData(0, []float32{1, 2, 3, 4}, shapes.Make(dtypes.Float32, 4)))
		got := make([]float32, 4)
		row("W1", b.Name()+" Execute", timeIt(*iters*100, func() {
			o := must(exe.Execute([]compute.Buffer{buf}, nil, 0))
			_ = o[0].ToFlatData(got)
			_ = o[0].Finalize()
		}), "")
	}
	f := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Neg(x) })
	x := tensor.FromSlice([]float32{1, 2, 3, 4}, 4)
	row("W1", "stela jit", timeIt(*iters*100, func() { _ = f(x).Float32s() }), "")
}

const w2n = 1 << 22

func w2Graph(x *Node) *Node {
	y := Tanh(AddScalar(MulScalar(x, 1.01), 0.5))
	y = Mul(y, x)
	y = Sub(y, Exp(Neg(Mul(x, x))))
	y = Max(y, MulScalar(x, 0.1))
	return ReduceAllSum(y)
}

func w2() {
	data := randF32(w2n, 1)
	for _, b := range backends() {
		e := must(NewExec(b, w2Graph))
		x := tensors.FromFlatDataAndDimensions(data, w2n)
		row("W2", b.Name(), timeIt(*iters, func() { call(e, x) }), "")
	}
	f := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor {
		y := tensor.Tanh(tensor.Add(tensor.Mul(x, tensor.Scalar(float32(1.01))), tensor.Scalar(float32(0.5))))
		y = tensor.Mul(y, x)
		y = tensor.Sub(y, tensor.Exp(tensor.Neg(tensor.Mul(x, x))))
		y = tensor.Maximum(y, tensor.Mul(x, tensor.Scalar(float32(0.1))))
		return tensor.Sum(y)
	})
	x := tensor.FromSlice(data, w2n)
	row("W2", "stela jit", timeIt(*iters, func() { _ = f(x).Float32s() }), "")
}

func gflops(n int, d time.Duration) string {
	return fmt.Sprintf("%.1f GFLOP/s", 2*math.Pow(float64(n), 3)/d.Seconds()/1e9)
}

func w3() {
	const n = 2048
	a, bb := randF32(n*n, 2), randF32(n*n, 3)
	for _, b := range backends() {
		e := must(NewExec(b, func(x, y *Node) *Node { return ReduceAllSum(MatMul(x, y)) }))
		x, y := tensors.FromFlatDataAndDimensions(a, n, n), tensors.FromFlatDataAndDimensions(bb, n, n)
		d := timeIt(max(*iters/4, 3), func() { call(e, x, y) })
		row("W3", b.Name(), d, gflops(n, d))
	}
	f := jit.Compile(func(x, y *tensor.Tensor) *tensor.Tensor { return tensor.Sum(tensor.MatMul(x, y)) })
	x, y := tensor.FromSlice(a, n, n), tensor.FromSlice(bb, n, n)
	d := timeIt(max(*iters/4, 3), func() { _ = f(x, y).Float32s() })
	row("W3", "stela jit", d, gflops(n, d))
}

var mlpDims = []int{784, 512, 512, 10}

// w4Step is one SGD step of an MLP with softmax cross-entropy: it
// returns the loss and the updated parameters.
func w4Step(in []*Node) []*Node {
	x, labels := in[0], in[1]
	params := in[2:]
	h := x
	for i := 0; i < len(params); i += 2 {
		h = Add(MatMul(h, params[i]), ExpandLeftToRank(params[i+1], 2))
		if i+2 < len(params) {
			h = Tanh(h)
		}
	}
	logp := Sub(h, ReduceAndKeep(h, ReduceMax, -1))
	logp = Sub(logp, Log(ReduceAndKeep(Exp(logp), ReduceSum, -1)))
	loss := Neg(ReduceAllMean(Mul(logp, labels)))
	grads := Gradient(loss, params...)
	out := []*Node{loss}
	for i, p := range params {
		out = append(out, Sub(p, MulScalar(grads[i], 0.01)))
	}
	return out
}

func w4() {
	const batch = 256
	x := randF32(batch*mlpDims[0], 4)
	labels := make([]float32, batch*10)
	for i := range batch {
		labels[i*10+i%10] = 1
	}
	var ps [][]float32
	for i := 0; i+1 < len(mlpDims); i++ {
		ps = append(ps, randF32(mlpDims[i]*mlpDims[i+1], uint64(10+i)), make([]float32, mlpDims[i+1]))
	}
	for _, b := range backends() {
		e := must(NewExec(b, w4Step))
		args := []any{tensors.FromFlatDataAndDimensions(x, batch, mlpDims[0]), tensors.FromFlatDataAndDimensions(labels, batch, 10)}
		for i := 0; i+1 < len(mlpDims); i++ {
			args = append(args, tensors.FromFlatDataAndDimensions(ps[2*i], mlpDims[i], mlpDims[i+1]), tensors.FromFlatDataAndDimensions(ps[2*i+1], mlpDims[i+1]))
		}
		row("W4", b.Name(), timeIt(*iters, func() { call(e, args...) }), "")
	}
}

const (
	seq, dModel, heads, dFF = 128, 768, 12, 3072
)

func layerNorm(x *Node) *Node {
	m := ReduceAndKeep(x, ReduceMean, -1)
	c := Sub(x, m)
	v := ReduceAndKeep(Mul(c, c), ReduceMean, -1)
	return Mul(c, Rsqrt(AddScalar(v, 1e-5)))
}

// w5Block is a GPT-2 block (pre-LN attention with a causal mask, then a
// tanh-GELU MLP), on x [seq, dModel]; returns the sum of its output.
func w5Block(in []*Node) *Node {
	x, wqkv, wo, w1, w2 := in[0], in[1], in[2], in[3], in[4]
	g := x.Graph()
	hd := dModel / heads
	qkv := MatMul(layerNorm(x), wqkv) // [seq, 3d]
	split := func(i int) *Node {
		s := Slice(qkv, AxisRange(), AxisRange(i*dModel, (i+1)*dModel))
		return TransposeAllAxes(Reshape(s, seq, heads, hd), 1, 0, 2) // [heads, seq, hd]
	}
	q, k, v := split(0), split(1), split(2)
	att := MulScalar(Einsum("hqd,hkd->hqk", q, k), 1/math.Sqrt(float64(hd)))
	mask := GreaterOrEqual(Iota(g, shapes.Make(dtypes.Int32, seq, seq), 0), Iota(g, shapes.Make(dtypes.Int32, seq, seq), 1))
	att = Where(BroadcastToDims(ExpandLeftToRank(mask, 3), heads, seq, seq), att, BroadcastToDims(Scalar(g, dtypes.Float32, -1e9), heads, seq, seq))
	att = Softmax(att, -1)
	o := Einsum("hqk,hkd->hqd", att, v)
	o = Reshape(TransposeAllAxes(o, 1, 0, 2), seq, dModel)
	x = Add(x, MatMul(o, wo))
	h := MatMul(layerNorm(x), w1)
	h = MulScalar(Mul(h, OnePlus(Tanh(MulScalar(Add(h, MulScalar(Mul(Mul(h, h), h), 0.044715)), math.Sqrt(2/math.Pi))))), 0.5)
	x = Add(x, MatMul(h, w2))
	return ReduceAllSum(x)
}

func w5() {
	x := randF32(seq*dModel, 20)
	ws := [][]float32{randF32(dModel*3*dModel, 21), randF32(dModel*dModel, 22), randF32(dModel*dFF, 23), randF32(dFF*dModel, 24)}
	for _, b := range backends() {
		e := must(NewExec(b, w5Block))
		args := []any{tensors.FromFlatDataAndDimensions(x, seq, dModel),
			tensors.FromFlatDataAndDimensions(ws[0], dModel, 3*dModel), tensors.FromFlatDataAndDimensions(ws[1], dModel, dModel),
			tensors.FromFlatDataAndDimensions(ws[2], dModel, dFF), tensors.FromFlatDataAndDimensions(ws[3], dFF, dModel)}
		row("W5", b.Name(), timeIt(max(*iters/2, 3), func() { call(e, args...) }), "")
	}
}

func w6() {
	x := randF32(32*784, 30)
	w := randF32(784*128, 31)
	for _, b := range backends() {
		t := time.Now()
		e := must(NewExec(b, func(x, w *Node) *Node { return ReduceAllSum(Tanh(MatMul(x, w))) }))
		call(e, tensors.FromFlatDataAndDimensions(x, 32, 784), tensors.FromFlatDataAndDimensions(w, 784, 128))
		row("W6", b.Name(), time.Since(t), "first call, cold compile cache")
	}
}

func main() {
	flag.Parse()
	// A cold compile cache for W6, and no reuse of other runs' programs.
	dir, err := os.MkdirTemp("", "stela-bench-cache")
	if err == nil {
		os.Setenv("STELA_CACHE_DIR", dir)
		defer os.RemoveAll(dir)
	}
	fmt.Printf("%-3s %-22s %12s\n", "", "backend", "median")
	for _, w := range strings.Split(*which, ",") {
		switch strings.TrimSpace(w) {
		case "6":
			w6()
		case "1":
			w1()
		case "2":
			w2()
		case "3":
			w3()
		case "4":
			w4()
		case "5":
			w5()
		}
	}
}
