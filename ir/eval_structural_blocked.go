package ir

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The blocked paths of dot_general and convolution: the same sums as the
// spec loops (sxDot.spec, sxConv.spec), laid out for the cache and spread
// over the machine's cores.
//
// What makes them agree bit for bit with the spec loops: every result
// element is still one accumulator in the same domain (sxAccum's: float64,
// complex128 or uint64), starting from zero, that adds the same products,
// each rounded to the domain, in the same order. Only the order in which
// different result elements are computed changes, and the elements are
// independent. Operands are read into the domain with the spec loop's own
// readers (sxF64At, sxC128At, sxU64At) and results are written with its
// own sxAccum.store. i1 contractions count the true products in uint64 and
// store whether the count is nonzero, which is the or of ands.
//
// Tests compare both paths on random shapes of every element type
// (eval_structural_blocked_test.go).

// sxBlockedMinWork is the number of products below which a contraction
// takes the spec loop: packing and goroutines cost more than they save.
const sxBlockedMinWork = 1 << 12

// sxNumeric is the accumulation domain of a contraction.
type sxNumeric interface{ float64 | complex128 | uint64 }

// sxGroupOffsets lists, for every index over the dimensions dims of a
// tensor with the given strides (row-major in the order of dims), the
// element offset of that index. No dims give the one offset 0; a
// zero-size dimension gives none.
func sxGroupOffsets(shape, strides, dims []int) []int {
	sub := make([]int, len(dims))
	for i, d := range dims {
		sub[i] = shape[d]
	}
	var offs []int
	sxEach(sub, func(idx []int) error {
		o := 0
		for i, x := range idx {
			o += x * strides[dims[i]]
		}
		offs = append(offs, o)
		return nil
	})
	return offs
}

// sxPack reads l[outer[i]+mid[j]+inner[k]] into element (i, j, k) of a
// dense row-major array.
func sxPack[T any](l *Literal, read func(*Literal, int) T, outer, mid, inner []int) []T {
	out := make([]T, 0, len(outer)*len(mid)*len(inner))
	for _, o := range outer {
		for _, m := range mid {
			for _, k := range inner {
				out = append(out, read(l, o+m+k))
			}
		}
	}
	return out
}

// sxParallel calls fn(i) for i in [0, n) on up to GOMAXPROCS goroutines.
// Which goroutine runs which i varies; fn must only write what belongs to
// its i. A panic in fn stops the other calls from starting and is raised
// again in the caller's goroutine once they have returned, so that the
// rule's sxGuard reports it as it reports a panic of the sequential loop
// (a panic left in a worker goroutine would end the process).
func sxParallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var failure any
	for range workers {
		wg.Go(func() {
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { failure = r })
					next.Store(int64(n))
				}
			}()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
	if failure != nil {
		panic(failure)
	}
}

// sxStoreAll writes the sums vals (in the result's row-major order) into
// out with the spec loop's rounding.
func sxStoreAll[T sxNumeric](out *Literal, vals []T, at func(i int) int) {
	acc := &sxAccum{dt: out.Type.DType}
	for i, v := range vals {
		switch v := any(v).(type) {
		case float64:
			acc.f = v
		case complex128:
			acc.c = v
		case uint64:
			acc.u, acc.b = v, v != 0
		}
		acc.store(out, at(i))
	}
}

// ---- dot_general ----

// blocked computes the dot_general into d.out. The operands are packed
// into dense arrays in the accumulation domain: lhs as [batch][m][k] and
// rhs as [batch][n][k], m and n running over each side's free dimensions
// and k over the contracting ones, so that every result element (b, m, n)
// is the dot product of two contiguous rows, summed in increasing k as the
// spec loop sums it. The result's own row-major order is (batch, lhs free,
// rhs free), which is the packed order of (b, m, n).
func (d *sxDot) blocked() {
	dt := d.out.Type.DType
	switch {
	case dt.IsFloat():
		sxDotBlocked(d, sxF64At, sxDotRowsF64)
	case dt.IsComplex():
		sxDotBlocked(d, sxC128At, sxDotRowsC128)
	default: // integers and i1
		sxDotBlocked(d, sxU64At, sxDotRowsU64)
	}
}

// sxDotRows computes c[m*n+j] = Σk a[m*k+i]·b[j*k+i] for the rows m in
// [m0, m1) of one batch: a is [rows][k], b is [n][k], c is [rows][n].
type sxDotRows[T sxNumeric] func(c, a, b []T, n, k, m0, m1 int)

// sxDotChunk is how many lhs rows one task of the parallel loop takes.
const sxDotChunk = 8

func sxDotBlocked[T sxNumeric](d *sxDot, read func(*Literal, int) T, rows sxDotRows[T]) {
	at, lt, rt := d.attr, d.lhs.Type, d.rhs.Type
	ls, rs := Strides(lt.Shape), Strides(rt.Shape)
	lb, rb := sxGroupOffsets(lt.Shape, ls, at.LhsBatch), sxGroupOffsets(rt.Shape, rs, at.RhsBatch)
	lm, rn := sxGroupOffsets(lt.Shape, ls, d.lfree), sxGroupOffsets(rt.Shape, rs, d.rfree)
	lk, rk := sxGroupOffsets(lt.Shape, ls, at.LhsContract), sxGroupOffsets(rt.Shape, rs, at.RhsContract)
	B, M, N, K := len(lb), len(lm), len(rn), len(lk)
	if B*M*N == 0 {
		return
	}
	a := sxPack(d.lhs, read, lb, lm, lk)
	b := sxPack(d.rhs, read, rb, rn, rk)
	c := make([]T, B*M*N)
	chunks := (M + sxDotChunk - 1) / sxDotChunk
	sxParallel(B*chunks, func(task int) {
		bi, ch := task/chunks, task%chunks
		m0, m1 := ch*sxDotChunk, min((ch+1)*sxDotChunk, M)
		rows(c[bi*M*N:(bi+1)*M*N], a[bi*M*K:(bi+1)*M*K], b[bi*N*K:(bi+1)*N*K], N, K, m0, m1)
	})
	sxStoreAll(d.out, c, func(i int) int { return i })
}

// sxDotNBlock is how many rhs rows (result columns) the float kernel
// keeps hot in the cache while it sweeps its lhs rows.
const sxDotNBlock = 64

// sxDotRowsF64 is the float kernel: 2×2 result tiles whose four sums stay
// in registers over the whole contraction, so that each pair of operand
// loads feeds two products. Each sum still runs over k in order from +0.
func sxDotRowsF64(c, a, b []float64, n, k, m0, m1 int) {
	for j0 := 0; j0 < n; j0 += sxDotNBlock {
		j1 := min(j0+sxDotNBlock, n)
		m := m0
		for ; m+2 <= m1; m += 2 {
			x0, x1 := a[m*k:(m+1)*k], a[(m+1)*k:(m+2)*k]
			j := j0
			for ; j+2 <= j1; j += 2 {
				y0, y1 := b[j*k:(j+1)*k], b[(j+1)*k:(j+2)*k]
				x1, y0, y1 := x1[:len(x0)], y0[:len(x0)], y1[:len(x0)] // no bounds checks in the loop
				var c00, c01, c10, c11 float64
				for i, u0 := range x0 {
					u1, v0, v1 := x1[i], y0[i], y1[i]
					c00 += float64(u0 * v0)
					c01 += float64(u0 * v1)
					c10 += float64(u1 * v0)
					c11 += float64(u1 * v1)
				}
				c[m*n+j], c[m*n+j+1] = c00, c01
				c[(m+1)*n+j], c[(m+1)*n+j+1] = c10, c11
			}
			for ; j < j1; j++ {
				y := b[j*k : (j+1)*k]
				x0, x1 := x0[:len(y)], x1[:len(y)]
				var c0, c1 float64
				for i, v := range y {
					c0 += float64(x0[i] * v)
					c1 += float64(x1[i] * v)
				}
				c[m*n+j], c[(m+1)*n+j] = c0, c1
			}
		}
		for ; m < m1; m++ {
			x := a[m*k : (m+1)*k]
			for j := j0; j < j1; j++ {
				y := b[j*k : (j+1)*k][:len(x)]
				var s float64
				for i, u := range x {
					s += float64(u * y[i])
				}
				c[m*n+j] = s
			}
		}
	}
}

// sxDotRowsC128 is the complex kernel: one sum per result element.
func sxDotRowsC128(c, a, b []complex128, n, k, m0, m1 int) {
	for m := m0; m < m1; m++ {
		x := a[m*k : (m+1)*k]
		for j := range n {
			y := b[j*k : (j+1)*k][:len(x)]
			var s complex128
			for i, u := range x {
				s += complex128(u * y[i])
			}
			c[m*n+j] = s
		}
	}
}

// sxDotRowsU64 is the integer kernel: sums wrap modulo 2^64 (so the order
// would not even matter).
func sxDotRowsU64(c, a, b []uint64, n, k, m0, m1 int) {
	for m := m0; m < m1; m++ {
		x := a[m*k : (m+1)*k]
		for j := range n {
			y := b[j*k : (j+1)*k][:len(x)]
			var s uint64
			for i, u := range x {
				s += u * y[i]
			}
			c[m*n+j] = s
		}
	}
}

// ---- convolution ----

// blocked computes the convolution into c.out. For each result position
// (output batch and spatial index) it keeps one sum per output feature
// and walks the window positions in row-major order, skipping padding and
// dilation holes as the spec loop does, and within each the input
// features in order, adding input × kernel to every output feature of the
// group at once: the kernel is packed as [window position][input
// feature][output feature], so the innermost loop runs over contiguous
// memory. Each output feature's sum sees the same products in the same
// order as in the spec loop.
func (c *sxConv) blocked() {
	dt := c.out.Type.DType
	switch {
	case dt.IsFloat():
		sxConvBlocked(c, sxF64At, sxAxpyF64)
	case dt.IsComplex():
		sxConvBlocked(c, sxC128At, sxAxpyC128)
	default: // integers and i1
		sxConvBlocked(c, sxU64At, sxAxpyU64)
	}
}

// sxAxpyF64 adds x·k[o] to acc[o] for every o, each product rounded first.
func sxAxpyF64(acc []float64, x float64, k []float64) {
	k = k[:len(acc)]
	for o, v := range k {
		acc[o] += float64(x * v)
	}
}

func sxAxpyC128(acc []complex128, x complex128, k []complex128) {
	k = k[:len(acc)]
	for o, v := range k {
		acc[o] += complex128(x * v)
	}
}

func sxAxpyU64(acc []uint64, x uint64, k []uint64) {
	k = k[:len(acc)]
	for o, v := range k {
		acc[o] += x * v
	}
}

func sxConvBlocked[T sxNumeric](c *sxConv, read func(*Literal, int) T, axpy func(acc []T, x T, k []T)) {
	a, lt, kt, ot := c.attr, c.lhs.Type, c.rhs.Type, c.out.Type
	ns := len(c.ksize)
	fgc, bgc := a.FeatureGroupCount, a.BatchGroupCount
	batch := lt.Shape[a.InputBatchDim]
	kin, kout := kt.Shape[a.KernelInputFeatureDim], kt.Shape[a.KernelOutputFeatureDim]
	obatch := ot.Shape[a.OutputBatchDim]
	osp := make([]int, ns)
	for d := range ns {
		osp[d] = ot.Shape[a.OutputSpatialDims[d]]
	}
	npos := 1
	for _, n := range osp {
		npos *= n
	}
	if obatch*kout*npos == 0 {
		return
	}
	ls, ks, ostr := Strides(lt.Shape), Strides(kt.Shape), Strides(ot.Shape)

	// The kernel as [window position][input feature][output feature], the
	// window reversal applied, so window position w pairs with the kernel
	// element the spec loop pairs it with.
	nwin := 1
	for _, k := range c.ksize {
		nwin *= k
	}
	kp := make([]T, 0, nwin*kin*kout)
	sxEach(c.ksize, func(w []int) error {
		base := 0
		for d := range ns {
			kd := w[d]
			if c.rev[d] {
				kd = c.ksize[d] - 1 - w[d]
			}
			base += kd * ks[a.KernelSpatialDims[d]]
		}
		for ci := range kin {
			for o := range kout {
				kp = append(kp, read(c.rhs, base+ci*ks[a.KernelInputFeatureDim]+o*ks[a.KernelOutputFeatureDim]))
			}
		}
		return nil
	})
	x := make([]T, lt.NumElements())
	for i := range x {
		x[i] = read(c.lhs, i)
	}

	// Output features split into groups: a feature group reads its own
	// slice of input features, a batch group its own slice of the batch.
	// At most one of the counts exceeds 1.
	groups := max(fgc, bgc)
	perGroup := kout / groups
	featStride, batchStride := ls[a.InputFeatureDim], ls[a.InputBatchDim]

	type winPos struct{ w, off int } // window position, input spatial offset
	sxParallel(npos, func(pos int) {
		// The spatial index of this result position, and the window
		// positions that land on real input.
		sp := make([]int, ns)
		for d, r := ns-1, pos; d >= 0; d-- {
			sp[d], r = r%osp[d], r/osp[d]
		}
		var wins []winPos
		w := 0
		sxEach(c.ksize, func(k []int) error {
			off := 0
			for d := range ns {
				p := sp[d]*c.strides[d] + k[d]*c.rdil[d] - c.pad[d][0]
				if p < 0 || p%c.ldil[d] != 0 || p/c.ldil[d] >= lt.Shape[a.InputSpatialDims[d]] {
					w++
					return nil
				}
				off += p / c.ldil[d] * ls[a.InputSpatialDims[d]]
			}
			wins = append(wins, winPos{w, off})
			w++
			return nil
		})
		outBase := 0
		for d := range ns {
			outBase += sp[d] * ostr[a.OutputSpatialDims[d]]
		}
		acc := make([]T, kout)
		for b := range obatch {
			clear(acc)
			for g := range groups {
				o0, o1 := g*perGroup, (g+1)*perGroup
				fbase, bi := 0, b
				if fgc > 1 {
					fbase = g * kin
				}
				if bgc > 1 {
					bi = g*(batch/bgc) + b
				}
				for _, wp := range wins {
					in := bi*batchStride + wp.off
					for ci := range kin {
						k := kp[(wp.w*kin+ci)*kout:]
						axpy(acc[o0:o1], x[in+(fbase+ci)*featStride], k[o0:o1])
					}
				}
			}
			ob := outBase + b*ostr[a.OutputBatchDim]
			sxStoreAll(c.out, acc, func(o int) int { return ob + o*ostr[a.OutputFeatureDim] })
		}
	})
}
