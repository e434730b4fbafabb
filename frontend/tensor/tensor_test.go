package tensor_test

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	. "github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

// check fails the test with the located error if fn panics with one.
func check(t *testing.T, fn func()) {
	t.Helper()
	if err := Catch(fn); err != nil {
		t.Fatal(err)
	}
}

// same fails unless got holds exactly want's type and values.
func same(t *testing.T, got, want *Tensor) {
	t.Helper()
	g, w := got.Literal(), want.Literal()
	if !ir.LiteralEqual(g, w) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

// near fails unless got is want within a small tolerance.
func near(t *testing.T, got, want *Tensor) {
	t.Helper()
	if err := ir.LiteralsAllClose(got.Literal(), want.Literal(), 1e-5, 1e-5); err != nil {
		t.Errorf("%v\ngot  %v\nwant %v", err, got, want)
	}
}

func f32(data []float32, shape ...int) *Tensor { return FromSlice(data, shape...) }

func TestConstructorsAndAccessors(t *testing.T) {
	check(t, func() {
		x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
		if got := x.Type().String(); got != "f32[2,3]" {
			t.Errorf("Type = %s", got)
		}
		if x.Rank() != 2 || x.DType() != ir.F32 || x.NumElements() != 6 || x.Traced() {
			t.Errorf("accessors: rank %d dtype %v n %d traced %v", x.Rank(), x.DType(), x.NumElements(), x.Traced())
		}
		if d, want := x.Device(), DefaultDevice().Name(); d != want {
			t.Errorf("Device = %q, want the default device %s", d, want)
		}
		data := []float32{1, 2}
		y := FromSlice(data)
		data[0] = 9 // FromSlice copies
		same(t, y, f32([]float32{1, 2}, 2))
		same(t, Zeros(ir.S32, 2), FromSlice([]int32{0, 0}))
		same(t, Ones(ir.Bool, 2), FromSlice([]bool{true, true}))
		same(t, Full(ir.S8, 300, 1), FromSlice([]int8{127})) // saturates
		same(t, Scalar(float64(2.5)), FromLiteral(ir.ScalarOf(2.5)))
		same(t, Arange(ir.S32, 4), FromSlice([]int32{0, 1, 2, 3}))
		same(t, Iota(ir.F32, []int{2, 3}, 0), f32([]float32{0, 0, 0, 1, 1, 1}, 2, 3))
		same(t, IotaLike(x, ir.S64, []int{3}, -1), FromSlice([]int64{0, 1, 2}))
		same(t, FullLike(x, 7), f32([]float32{7, 7, 7, 7, 7, 7}, 2, 3))
		if got := Scalar(int32(3)).Int32s(); len(got) != 1 || got[0] != 3 {
			t.Errorf("Int32s = %v", got)
		}
		if got := FromSlice([]bool{true, false}).Bools(); got[0] != true || got[1] != false {
			t.Errorf("Bools = %v", got)
		}
	})
	err := Catch(func() { f32([]float32{1, 2, 3}, 2, 2) })
	if err == nil || !strings.Contains(err.Error(), "fromslice: 3 elements for shape [2 2], want 4") {
		t.Errorf("FromSlice with a bad shape: %v", err)
	}
	err = Catch(func() { FromSlice([]int32{1}).Float32s() })
	if err == nil || !strings.Contains(err.Error(), "float32s: tensor is si32[1], not f32") {
		t.Errorf("Float32s of si32: %v", err)
	}
}

func TestString(t *testing.T) {
	dev := DefaultDevice().Name()
	tests := []struct {
		x    *Tensor
		want string
	}{
		{f32([]float32{1, 2, 3, 4}, 2, 2), "Tensor(f32[2,2], " + dev + ")\n[[1 2]\n [3 4]]"},
		{f32([]float32{1, -2.5, 10}, 3), "Tensor(f32[3], " + dev + ")\n[   1 -2.5   10]"},
		{Scalar(int32(7)), "Tensor(si32[], " + dev + ") 7"},
		{Reshape(Arange(ir.S32, 8), 2, 2, 2), "Tensor(si32[2,2,2], " + dev + ")\n[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]"},
		{FromSlice([]bool{true, false}), "Tensor(i1[2], " + dev + ")\n[ true false]"},
		{Zeros(ir.F32, 0), "Tensor(f32[0], " + dev + ")\n[]"},
		{FromSlice([]float64{math.NaN(), math.Inf(-1)}), "Tensor(f64[2], " + dev + ")\n[ nan -inf]"},
	}
	for _, tt := range tests {
		if got := tt.x.String(); got != tt.want {
			t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
		}
	}
	big := Arange(ir.S32, 2000).String()
	if want := "Tensor(si32[2000], " + dev + ")\n[   0    1    2 ... 1997 1998 1999]"; big != want {
		t.Errorf("summarized:\n%s\nwant:\n%s", big, want)
	}
	tr := NewTracer("f")
	p := tr.Param(ir.TensorOf(ir.F32, 2, 3), ir.UnknownLoc)
	if got := p.String(); got != "Tensor(f32[2,3], traced)" {
		t.Errorf("traced: %s", got)
	}
	err := Catch(func() { p.Float32s() })
	if err == nil || !strings.Contains(err.Error(), "literal: tensor f32[2,3] is traced in @f") {
		t.Errorf("values of a traced tensor: %v", err)
	}
	tr.Discard()
}

func TestElementwise(t *testing.T) {
	check(t, func() {
		x := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
		row := f32([]float32{10, 20, 30}, 3)
		col := f32([]float32{100, 200}, 2, 1)
		same(t, Add(x, row), f32([]float32{11, 22, 33, 14, 25, 36}, 2, 3))
		same(t, Add(x, col), f32([]float32{101, 102, 103, 204, 205, 206}, 2, 3))
		same(t, Mul(x, Scalar(float32(2))), f32([]float32{2, 4, 6, 8, 10, 12}, 2, 3))
		same(t, Sub(row, col), f32([]float32{-90, -80, -70, -190, -180, -170}, 2, 3))
		same(t, Div(FromSlice([]int32{7, -7}), FromSlice([]int32{2, 2})), FromSlice([]int32{3, -3}))
		same(t, Neg(row), f32([]float32{-10, -20, -30}, 3))
		same(t, Maximum(x, Scalar(float32(3.5))), f32([]float32{3.5, 3.5, 3.5, 4, 5, 6}, 2, 3))
		same(t, Relu(f32([]float32{-1, 0, 2}, 3)), f32([]float32{0, 0, 2}, 3))
		same(t, Less(row, Scalar(float32(25))), FromSlice([]bool{true, true, false}))
		same(t, Where(Greater(x, Scalar(float32(3))), x, Neg(x)), f32([]float32{-1, -2, -3, 4, 5, 6}, 2, 3))
		same(t, Clamp(x, Scalar(float32(2)), Scalar(float32(5))), f32([]float32{2, 2, 3, 4, 5, 5}, 2, 3))
		same(t, Convert(f32([]float32{1.7, -1.7}, 2), ir.S32), FromSlice([]int32{1, -1}))
		same(t, BitcastConvert(f32([]float32{1}, 1), ir.S32), FromSlice([]int32{0x3f800000}))
		near(t, Sigmoid(f32([]float32{0}, 1)), f32([]float32{0.5}, 1))
		near(t, Sqrt(f32([]float32{4, 9}, 2)), f32([]float32{2, 3}, 2))
		near(t, Exp(Log(row)), row)

		g := []float32{-3, -1, 0, 0.5, 2}
		want := make([]float32, len(g))
		for i, v := range g {
			x := float64(v)
			want[i] = float32(0.5 * x * (1 + math.Tanh(math.Sqrt(2/math.Pi)*(x+0.044715*x*x*x))))
		}
		near(t, GELU(FromSlice(g)), FromSlice(want))
	})
}

func TestStructural(t *testing.T) {
	check(t, func() {
		x := Arange(ir.S32, 6)
		m := Reshape(x, 2, -1)
		same(t, m, FromSlice([]int32{0, 1, 2, 3, 4, 5}, 2, 3))
		same(t, Transpose(m), FromSlice([]int32{0, 3, 1, 4, 2, 5}, 3, 2))
		same(t, BroadcastTo(FromSlice([]int32{1, 2}), 2, 2), FromSlice([]int32{1, 2, 1, 2}, 2, 2))
		same(t, ExpandDims(x, 0), FromSlice([]int32{0, 1, 2, 3, 4, 5}, 1, 6))
		same(t, Squeeze(Reshape(x, 1, 6, 1)), x)
		same(t, Slice(x, []int{1}, []int{-1}, []int{2}), FromSlice([]int32{1, 3}))
		same(t, SliceAxis(m, 1, 1, 3), FromSlice([]int32{1, 2, 4, 5}, 2, 2))
		same(t, Concat(0, x, FromSlice([]int32{9})), FromSlice([]int32{0, 1, 2, 3, 4, 5, 9}))
		same(t, Pad(FromSlice([]int32{1, 2}), Scalar(int32(0)), []int{1}, []int{2}, []int{1}), FromSlice([]int32{0, 1, 0, 2, 0, 0}))
		same(t, Reverse(m, 1), FromSlice([]int32{2, 1, 0, 5, 4, 3}, 2, 3))
		same(t, DynamicSlice(x, []*Tensor{Scalar(int32(5))}, []int{2}), FromSlice([]int32{4, 5})) // clamped
		same(t, DynamicUpdateSlice(x, FromSlice([]int32{7, 8}), []*Tensor{Scalar(int32(1))}), FromSlice([]int32{0, 7, 8, 3, 4, 5}))
	})
}

func TestMatMul(t *testing.T) {
	check(t, func() {
		a := f32([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
		b := f32([]float32{1, 0, 0, 1, 1, 1}, 3, 2)
		same(t, MatMul(a, b), f32([]float32{4, 5, 10, 11}, 2, 2))
		// Batched lhs with a shared rhs.
		a2 := Concat(0, Reshape(a, 1, 2, 3), Reshape(Neg(a), 1, 2, 3))
		same(t, MatMul(a2, b), f32([]float32{4, 5, 10, 11, -4, -5, -10, -11}, 2, 2, 2))
		// Broadcast batch dimensions: [2,1,2,3] x [3,3,2] → [2,3,2,2].
		b3 := Concat(0, Reshape(b, 1, 3, 2), Reshape(Neg(b), 1, 3, 2), Reshape(Add(b, b), 1, 3, 2))
		got := MatMul(Reshape(a2, 2, 1, 2, 3), b3)
		if s := got.Type().String(); s != "f32[2,3,2,2]" {
			t.Fatalf("batched matmul type %s", s)
		}
		same(t, SliceAxis(SliceAxis(got, 0, 1, 2), 1, 2, 3), f32([]float32{-8, -10, -20, -22}, 1, 1, 2, 2))
	})
}

func TestReductions(t *testing.T) {
	check(t, func() {
		x := f32([]float32{1, 5, 3, 4, 2, 6}, 2, 3)
		same(t, Sum(x), Scalar(float32(21)))
		same(t, Sum(x, 1), f32([]float32{9, 12}, 2))
		same(t, KeepDims(Sum, x, -1), f32([]float32{9, 12}, 2, 1))
		same(t, Max(x, 0), f32([]float32{4, 5, 6}, 3))
		same(t, Min(x, 1), f32([]float32{1, 2}, 2))
		same(t, Prod(x, 0), f32([]float32{4, 10, 18}, 3))
		same(t, Mean(x, 0), f32([]float32{2.5, 3.5, 4.5}, 3))
		same(t, ArgMax(x, 1), FromSlice([]int32{1, 2}))
		same(t, ArgMin(x, 0), FromSlice([]int32{0, 1, 0}))
		nan := float32(math.NaN())
		same(t, ArgMax(f32([]float32{3, 7, 7, 1, nan, 9}, 2, 3), 1), FromSlice([]int32{1, 1}))
		same(t, ArgMax(FromSlice([]int32{2, 9, 9}), 0), Scalar(int32(1)))

		s := Softmax(x, -1)
		near(t, Sum(s, -1), f32([]float32{1, 1}, 2))
		e := []float64{math.Exp(1), math.Exp(5), math.Exp(3)}
		z := e[0] + e[1] + e[2]
		near(t, SliceAxis(s, 0, 0, 1), f32([]float32{float32(e[0] / z), float32(e[1] / z), float32(e[2] / z)}, 1, 3))
		near(t, LogSoftmax(x, 1), Log(s))
		big := f32([]float32{1000, 1001}, 2)
		near(t, Softmax(big, 0), f32([]float32{float32(1 / (1 + math.E)), float32(math.E / (1 + math.E))}, 2))

		ln := LayerNorm(x, f32([]float32{1, 2, 1}, 3), f32([]float32{0, 0, 1}, 3), -1, 0)
		// Row 0: mean 3, var 8/3.
		sd := math.Sqrt(8.0 / 3)
		near(t, SliceAxis(ln, 0, 0, 1), f32([]float32{float32(-2 / sd), float32(4 / sd), 1}, 1, 3))
		rms := RMSNorm(f32([]float32{3, 4}, 1, 2), nil, -1, 0)
		r := math.Sqrt(12.5)
		near(t, rms, f32([]float32{float32(3 / r), float32(4 / r)}, 1, 2))
	})
}

// conv2dRef is a direct NHWC/HWIO convolution with explicit padding.
func conv2dRef(x []float32, xs [4]int, k []float32, ks [4]int, stride, dil [2]int, pad [2][2]int, groups int) ([]float32, [4]int) {
	n, h, w, c := xs[0], xs[1], xs[2], xs[3]
	kh, kw, ci, co := ks[0], ks[1], ks[2], ks[3]
	oh := (h+pad[0][0]+pad[0][1]-((kh-1)*dil[0]+1))/stride[0] + 1
	ow := (w+pad[1][0]+pad[1][1]-((kw-1)*dil[1]+1))/stride[1] + 1
	out := make([]float32, n*oh*ow*co)
	opg := co / groups
	for b := 0; b < n; b++ {
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				for o := 0; o < co; o++ {
					g := o / opg
					var s float32
					for di := 0; di < kh; di++ {
						for dj := 0; dj < kw; dj++ {
							y, xx := i*stride[0]+di*dil[0]-pad[0][0], j*stride[1]+dj*dil[1]-pad[1][0]
							if y < 0 || y >= h || xx < 0 || xx >= w {
								continue
							}
							for q := 0; q < ci; q++ {
								s += x[((b*h+y)*w+xx)*c+g*ci+q] * k[((di*kw+dj)*ci+q)*co+o]
							}
						}
					}
					out[((b*oh+i)*ow+j)*co+o] = s
				}
			}
		}
	}
	return out, [4]int{n, oh, ow, co}
}

func ramp(n int, scale float32) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32((i*7)%11-5) * scale
	}
	return s
}

func TestConv2D(t *testing.T) {
	tests := []struct {
		name   string
		xs, ks [4]int
		opts   Conv2DOptions
		pad    [2][2]int // what opts.Padding resolves to
	}{
		{"valid", [4]int{1, 5, 5, 2}, [4]int{3, 3, 2, 3}, Conv2DOptions{}, [2][2]int{}},
		{"same", [4]int{2, 5, 4, 2}, [4]int{3, 3, 2, 2}, Conv2DOptions{Padding: Same}, [2][2]int{{1, 1}, {1, 1}}},
		{"same-stride2", [4]int{1, 6, 6, 1}, [4]int{3, 3, 1, 2}, Conv2DOptions{Strides: [2]int{2, 2}, Padding: Same}, [2][2]int{{0, 1}, {0, 1}}},
		{"dilated", [4]int{1, 7, 7, 1}, [4]int{2, 2, 1, 1}, Conv2DOptions{Dilation: [2]int{2, 3}}, [2][2]int{}},
		{"groups", [4]int{1, 4, 4, 4}, [4]int{3, 3, 2, 4}, Conv2DOptions{Groups: 2, Padding: ExplicitPadding([2]int{1, 0}, [2]int{0, 2})}, [2][2]int{{1, 0}, {0, 2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			xd := ramp(tt.xs[0]*tt.xs[1]*tt.xs[2]*tt.xs[3], 0.5)
			kd := ramp(tt.ks[0]*tt.ks[1]*tt.ks[2]*tt.ks[3], 0.25)
			st, dl := tt.opts.Strides, tt.opts.Dilation
			for i := range 2 {
				st[i], dl[i] = max(st[i], 1), max(dl[i], 1)
			}
			want, ws := conv2dRef(xd, tt.xs, kd, tt.ks, st, dl, tt.pad, max(tt.opts.Groups, 1))
			check(t, func() {
				got := Conv2D(FromSlice(xd, tt.xs[:]...), FromSlice(kd, tt.ks[:]...), tt.opts)
				near(t, got, FromSlice(want, ws[:]...))
			})
		})
	}
}

func TestPooling(t *testing.T) {
	check(t, func() {
		x := Reshape(Convert(Arange(ir.S32, 16), ir.F32), 1, 4, 4, 1)
		same(t, MaxPool2D(x, [2]int{2, 2}, [2]int{}, Valid), f32([]float32{5, 7, 13, 15}, 1, 2, 2, 1))
		same(t, AvgPool2D(x, [2]int{2, 2}, [2]int{}, Valid), f32([]float32{2.5, 4.5, 10.5, 12.5}, 1, 2, 2, 1))
		// 3x3 windows, stride 2, SAME on 4x4: padding (0,1); edge windows
		// average only what they cover.
		same(t, MaxPool2D(x, [2]int{3, 3}, [2]int{2, 2}, Same), f32([]float32{10, 11, 14, 15}, 1, 2, 2, 1))
		same(t, AvgPool2D(x, [2]int{3, 3}, [2]int{2, 2}, Same), f32([]float32{5, 6.5, 11, 12.5}, 1, 2, 2, 1))
	})
}

func TestTakeScatter(t *testing.T) {
	check(t, func() {
		table := Reshape(Convert(Arange(ir.S32, 8), ir.F32), 4, 2)
		ids := FromSlice([]int32{3, 0, 3}, 1, 3)
		emb := Take(table, ids, 0)
		same(t, emb, f32([]float32{6, 7, 0, 1, 6, 7}, 1, 3, 2))
		same(t, Take(table, FromSlice([]int32{1}), 1), f32([]float32{1, 3, 5, 7}, 4, 1))
		acc := ScatterAdd(Zeros(ir.F32, 4, 2), ids, OnesLike(emb), 0)
		same(t, acc, f32([]float32{1, 1, 0, 0, 0, 0, 2, 2}, 4, 2))
	})
}

func TestControlFlowEager(t *testing.T) {
	check(t, func() {
		// Sum 1..10 with a captured step and limit.
		one, limit := Scalar(int32(1)), Scalar(int32(10))
		out := While(
			func(s []*Tensor) *Tensor { return Less(s[0], limit) },
			func(s []*Tensor) []*Tensor {
				i := Add(s[0], one)
				return []*Tensor{i, Add(s[1], i)}
			},
			Scalar(int32(0)), Scalar(int32(0)))
		same(t, out[0], Scalar(int32(10)))
		same(t, out[1], Scalar(int32(55)))

		x := f32([]float32{1, 2}, 2)
		pick := func(p bool) *Tensor {
			return Cond(Scalar(p),
				func() []*Tensor { return []*Tensor{Add(x, x)} },
				func() []*Tensor { return []*Tensor{Neg(x)} })[0]
		}
		same(t, pick(true), f32([]float32{2, 4}, 2))
		same(t, pick(false), f32([]float32{-1, -2}, 2))
		br := func(k float32) func() []*Tensor {
			return func() []*Tensor { return []*Tensor{Mul(x, Scalar(k))} }
		}
		same(t, Switch(Scalar(int32(1)), br(10), br(20), br(30))[0], f32([]float32{20, 40}, 2))
		same(t, Switch(Scalar(int64(7)), br(10), br(20), br(30))[0], f32([]float32{30, 60}, 2)) // out of range: last
	})
}

// otherDevice is a second device (the reference evaluator under another
// identity), to test that mixing devices is an error.
type otherDevice struct{}
type otherBuffer struct{ b Buffer }

func (otherDevice) Name() string { return "other" }
func (d otherDevice) Put(l *ir.Literal) (Buffer, error) {
	b, err := HostDevice().Put(l)
	return &otherBuffer{b}, err
}
func (d otherDevice) Run(f *ir.Func, args []Buffer) ([]Buffer, error) {
	in := make([]Buffer, len(args))
	for i, a := range args {
		in[i] = a.(*otherBuffer).b
	}
	out, err := HostDevice().Run(f, in)
	for i := range out {
		out[i] = &otherBuffer{out[i]}
	}
	return out, err
}
func (b *otherBuffer) Type() ir.Type                 { return b.b.Type() }
func (b *otherBuffer) Device() Device                { return otherDevice{} }
func (b *otherBuffer) Literal() (*ir.Literal, error) { return b.b.Literal() }

func TestDevices(t *testing.T) {
	RegisterDevice("other", otherDevice{})
	x := f32([]float32{1, 2}, 2)
	y := x.To("other")
	if y.Device() != "other" || !y.Committed() || x.Committed() {
		t.Fatalf("To: device %q, committed %v (x committed %v)", y.Device(), y.Committed(), x.Committed())
	}
	check(t, func() { same(t, Add(y, y).To("host"), Add(x, x)) })
	if got := Add(y, y).Device(); got != "other" {
		t.Errorf("eager op ran on %q, want the operands' device", got)
	}
	if z := Add(x, x); z.Device() != x.Device() || z.Committed() {
		t.Errorf("uncommitted operands: result on %s, committed %v", z.Device(), z.Committed())
	}
	// An uncommitted operand follows a committed one to its device.
	var z *Tensor
	check(t, func() { z = Add(x, y) })
	if z.Device() != "other" || !z.Committed() {
		t.Errorf("mixed commitment: result on %s, committed %v", z.Device(), z.Committed())
	}
	check(t, func() { same(t, z.To("host"), f32([]float32{2, 4}, 2)) })
	// Committed operands on two devices are an error naming both.
	err := Catch(func() { Add(y, x.To("host")) })
	if err == nil || !regexp.MustCompile(`^tensor_test\.go:\d+: add: operand #0 is committed to device other and operand #1 to device host: copy one to the other's device with To$`).MatchString(err.Error()) {
		t.Errorf("mixing committed devices: %v", err)
	}
	// To the same device commits without copying.
	if c := x.To(x.Device()); !c.Committed() || c.Buffer() != x.Buffer() {
		t.Errorf("To its own device: committed %v, same buffer %v", c.Committed(), c.Buffer() == x.Buffer())
	}
	err = Catch(func() { x.To("nowhere") })
	if err == nil || !strings.Contains(err.Error(), `unknown device "nowhere"`) {
		t.Errorf("unknown device: %v", err)
	}
}

// fullDevice is a device with no room: every Put fails.
type fullDevice struct{ otherDevice }

func (fullDevice) Name() string                    { return "full" }
func (fullDevice) Put(*ir.Literal) (Buffer, error) { return nil, errors.New("out of memory") }

// A copy that MoveTo cannot make names the tensor as its caller calls it.
func TestMoveToNamesTheTensor(t *testing.T) {
	x, y := f32([]float32{1, 2}, 2), f32([]float32{3}, 1)
	_, err := MoveTo([]*Tensor{x, y}, fullDevice{}, func(i int) string { return fmt.Sprintf("weight #%d", i) })
	want := "copying weight #0 from " + x.Device() + " to full: out of memory"
	if err == nil || err.Error() != want {
		t.Errorf("MoveTo: %v, want %s", err, want)
	}
}

// Uncommitted tensors on two devices (made before the default changed)
// meet on the default device.
func TestDefaultDevicePlacement(t *testing.T) {
	old := DefaultDevice().Name()
	x := f32([]float32{1, 2}, 2)
	if err := SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := SetDefaultDevice(old); err != nil {
			t.Fatal(err)
		}
	}()
	h := f32([]float32{10, 20}, 2)
	var z *Tensor
	check(t, func() { z = Add(x, h) })
	if z.Device() != "host" || z.Committed() {
		t.Errorf("result on %s, committed %v; want host, uncommitted", z.Device(), z.Committed())
	}
	check(t, func() { same(t, z, f32([]float32{11, 22}, 2)) })
	// Run (a whole function) follows the same rule.
	f, err := jitAdd()
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(f, x.To("cpu:1"), h)
	if err != nil || out[0].Device() != "cpu:1" || !out[0].Committed() {
		t.Fatalf("Run: %v, %v", out, err)
	}
}

// jitAdd traces x + y over f32[2].
func jitAdd() (*ir.Func, error) {
	tr := NewTracer("add2")
	a := tr.Param(ir.TensorOf(ir.F32, 2), ir.UnknownLoc)
	b := tr.Param(ir.TensorOf(ir.F32, 2), ir.UnknownLoc)
	var s *Tensor
	if err := Catch(func() { s = Add(a, b) }); err != nil {
		return nil, err
	}
	f, _, err := tr.Finish(s)
	return f, err
}

// Go numbers take the element type of the tensor they meet.
func TestWeakScalars(t *testing.T) {
	check(t, func() {
		x := f32([]float32{1, 2}, 2)
		s := Scalar(3.0)
		if !s.Weak() || s.DType() != ir.F64 || s.Float64s()[0] != 3 || s.Committed() {
			t.Errorf("Scalar(3.0): weak %v, %v", s.Weak(), s)
		}
		if Scalar(float32(3)).Weak() || Scalar(int32(3)).Weak() || Scalar(int64(3)).Weak() {
			t.Errorf("Scalar of a sized Go type is weak")
		}
		same(t, Add(x, Scalar(3.0)), f32([]float32{4, 5}, 2))
		same(t, Add(Scalar(3.0), x), f32([]float32{4, 5}, 2))
		same(t, Mul(x, Scalar(2)), f32([]float32{2, 4}, 2))
		same(t, Pow(x, Scalar(2)), f32([]float32{1, 4}, 2))
		same(t, Sub(x, Scalar(16777216)), f32([]float32{1 - 16777216, 2 - 16777216}, 2))
		same(t, Add(x, Scalar(0.1)), f32([]float32{1 + float32(0.1), 2 + float32(0.1)}, 2))
		same(t, Less(x, Scalar(1.5)), FromSlice([]bool{true, false}))
		same(t, Where(Less(x, Scalar(1.5)), x, Scalar(0.0)), f32([]float32{1, 0}, 2))
		same(t, Clamp(x, Scalar(0), Scalar(1.5)), f32([]float32{1, 1.5}, 2))
		same(t, Pad(x, Scalar(9), []int{1}, []int{0}, nil), f32([]float32{9, 1, 2}, 3))
		h := FromSlice([]ir.BFloat16{ir.BFloat16FromFloat32(1), ir.BFloat16FromFloat32(2)})
		same(t, Add(h, Scalar(0.5)), FromSlice([]ir.BFloat16{ir.BFloat16FromFloat32(1.5), ir.BFloat16FromFloat32(2.5)}))
		f16 := FromSlice([]ir.Float16{ir.Float16FromFloat64(1)})
		same(t, Add(f16, Scalar(0.5)), FromSlice([]ir.Float16{ir.Float16FromFloat64(1.5)}))
		i := FromSlice([]int32{1, 2})
		same(t, Add(i, Scalar(2)), FromSlice([]int32{3, 4}))
		same(t, Add(FromSlice([]uint8{1}), Scalar(254)), FromSlice([]uint8{255}))
		same(t, Add(FromSlice([]complex64{1}), Scalar(1i)), FromSlice([]complex64{1 + 1i}))
		same(t, Add(FromSlice([]float64{1}), Scalar(0.25)), FromSlice([]float64{1.25}))

		// Among themselves weak scalars keep their kind, the widest wins.
		w := Add(Scalar(1), Scalar(0.5))
		if !w.Weak() || w.DType() != ir.F64 || w.Float64s()[0] != 1.5 {
			t.Errorf("1 + 0.5: weak %v, %v", w.Weak(), w)
		}
		if n := Mul(Scalar(2), Scalar(3)); !n.Weak() || n.Int64s()[0] != 6 {
			t.Errorf("2 * 3: weak %v, %v", n.Weak(), n)
		}
		if b := Less(Scalar(1), Scalar(2.0)); b.Weak() || !b.Bools()[0] {
			t.Errorf("1 < 2.0: weak %v, %v", b.Weak(), b)
		}
		same(t, Add(x, Neg(Scalar(2.0))), f32([]float32{-1, 0}, 2))
		// Convert is explicit: it truncates as Convert does, and the
		// result is an ordinary tensor.
		if c := Convert(Scalar(2.7), ir.S32); c.Weak() || c.Int32s()[0] != 2 {
			t.Errorf("Convert(2.7, si32): %v", c)
		}
		if c := Convert(Scalar(2.5), ir.F64); c.Weak() {
			t.Errorf("Convert to its own type stays weak")
		}
		// The constant is made where the other operand is.
		y := Add(x.To("cpu:1"), Scalar(1.0))
		if y.Device() != "cpu:1" || !y.Committed() {
			t.Errorf("weak with a committed operand: on %s, committed %v", y.Device(), y.Committed())
		}
	})
}

func TestTraceCapture(t *testing.T) {
	w := f32([]float32{1, 2, 3}, 3)
	tr := NewTracer("f")
	x := tr.Param(ir.TensorOf(ir.F32, 3), ir.UnknownLoc)
	var y *Tensor
	check(t, func() { y = Mul(Add(x, w), w) })
	f, captured, err := tr.Finish(y, w)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Params) != 2 || len(captured) != 1 || captured[0] != w {
		t.Fatalf("want w captured once as the second parameter; params %v, captured %v", f.Params, captured)
	}
	if f.Results[1] != f.Params[1] {
		t.Errorf("returning a captured tensor should return its parameter")
	}
	for _, in := range f.Body {
		if in.Op == ir.OpConstant {
			t.Errorf("captured tensor became a constant: %v", f)
		}
	}
	if err := ir.Verify(f); err != nil {
		t.Fatal(err)
	}
	out, err := Run(f, f32([]float32{1, 1, 1}, 3), w)
	if err != nil {
		t.Fatal(err)
	}
	same(t, out[0], f32([]float32{2, 6, 12}, 3))
	same(t, out[1], w)
	// The traced tensor escaped its trace.
	err = Catch(func() { Add(y, y) })
	if err == nil || !strings.Contains(err.Error(), "belongs to trace @f, which has finished") {
		t.Errorf("escaped tensor: %v", err)
	}
}

func TestMixingTraces(t *testing.T) {
	t1, t2 := NewTracer("f"), NewTracer("g")
	a := t1.Param(ir.TensorOf(ir.F32, 2), ir.UnknownLoc)
	b := t2.Param(ir.TensorOf(ir.F32, 2), ir.UnknownLoc)
	err := Catch(func() { Add(a, b) })
	if err == nil || !strings.Contains(err.Error(), "operand #0 belongs to trace @f and operand #1 to trace @g") {
		t.Errorf("mixing traces: %v", err)
	}
	t1.Discard()
	t2.Discard()
}
