package mnist

import (
	"fmt"
	"iter"
	"math/bits"
	"math/rand/v2"

	"github.com/stela-ml/stela/frontend/tensor"
)

// Layout is how a batch's images are shaped.
type Layout int

const (
	// Flat is f32[b, 784]: each image a row of pixels, for an MLP.
	Flat Layout = iota
	// NHWC is f32[b, 28, 28, 1]: channels last, tensor.Conv2D's default.
	NHWC
	// NCHW is f32[b, 1, 28, 28]: channels first, PyTorch's order.
	NCHW
)

// String is the layout's name: "flat", "NHWC", "NCHW".
func (l Layout) String() string {
	switch l {
	case Flat:
		return "flat"
	case NHWC:
		return "NHWC"
	case NCHW:
		return "NCHW"
	}
	return fmt.Sprintf("Layout(%d)", int(l))
}

// Shape is the shape of b images in layout l.
func (l Layout) Shape(b int) []int {
	switch l {
	case NHWC:
		return []int{b, Rows, Cols, 1}
	case NCHW:
		return []int{b, 1, Rows, Cols}
	}
	return []int{b, Pixels}
}

func (l Layout) valid() bool { return l == Flat || l == NHWC || l == NCHW }

// Batch is a minibatch: the examples at Indices of a Set, as tensors on
// the default device (tensor.FromSlice).
type Batch struct {
	// X is the images, pixels in [0, 1], shaped by the Layout.
	X *tensor.Tensor
	// Labels is si32[b], the digits.
	Labels *tensor.Tensor
	// OneHot is f32[b, 10]: 1 at each example's digit, 0 elsewhere.
	OneHot *tensor.Tensor
	// Indices are the examples' indices in the Set.
	Indices []int
	// Y is the digits on the host, as Labels holds them.
	Y []int32
}

// Size is the number of examples.
func (b *Batch) Size() int { return len(b.Indices) }

// Batch makes a batch of the examples at indices.
func (s *Set) Batch(indices []int, layout Layout) (*Batch, error) {
	if !layout.valid() {
		return nil, fmt.Errorf("mnist: %s.Batch: unknown layout %v", s.name, layout)
	}
	if len(indices) == 0 {
		return nil, fmt.Errorf("mnist: %s.Batch: no indices", s.name)
	}
	for _, i := range indices {
		if i < 0 || i >= s.Len() {
			return nil, fmt.Errorf("mnist: %s.Batch: index %d out of range [0, %d)", s.name, i, s.Len())
		}
	}
	return s.batch(indices, layout), nil
}

// batch makes a batch of valid indices. In every layout an image's 784
// pixels are contiguous and row-major (the channel dimension is 1), so
// the three layouts share one buffer and differ only in shape.
func (s *Set) batch(indices []int, layout Layout) *Batch {
	n := len(indices)
	x := make([]float32, n*Pixels)
	y := make([]int32, n)
	oh := make([]float32, n*Classes)
	for k, i := range indices {
		scale(x[k*Pixels:(k+1)*Pixels], s.images[i*Pixels:(i+1)*Pixels])
		y[k] = int32(s.labels[i])
		oh[k*Classes+int(s.labels[i])] = 1
	}
	return &Batch{
		X:       tensor.FromSlice(x, layout.Shape(n)...),
		Labels:  tensor.FromSlice(y, n),
		OneHot:  tensor.FromSlice(oh, n, Classes),
		Indices: append([]int(nil), indices...),
		Y:       y,
	}
}

// Batches goes through s in order, size examples a batch, the last one
// smaller when size does not divide Len(): for evaluation. A size below 1
// yields nothing.
func (s *Set) Batches(size int, layout Layout) iter.Seq[*Batch] {
	return func(yield func(*Batch) bool) {
		if size < 1 || !layout.valid() {
			return
		}
		idx := make([]int, 0, size)
		for start := 0; start < s.Len(); start += size {
			idx = idx[:0]
			for i := start; i < min(start+size, s.Len()); i++ {
				idx = append(idx, i)
			}
			if !yield(s.batch(idx, layout)) {
				return
			}
		}
	}
}

// Permutation is the order in which a shuffling Loader with seed deals
// the n examples in epoch (from 0): a Fisher–Yates shuffle driven by
// rand.PCG(seed, epoch). It depends on nothing else, not on the Go
// release either: it uses the generator's 64-bit outputs directly
// (rand.Perm's algorithm may change between releases; PCG's output may
// not).
func Permutation(n int, seed uint64, epoch int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r := rand.NewPCG(seed, uint64(epoch))
	for i := n - 1; i > 0; i-- {
		// j uniform in [0, i] by Lemire's multiply-shift: the bias,
		// (i+1)/2^64, is nothing at data-set sizes.
		hi, _ := bits.Mul64(r.Uint64(), uint64(i+1))
		j := int(hi)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// LoaderOptions configure a Loader.
type LoaderOptions struct {
	// BatchSize is the examples per batch (at least 1, at most the set's
	// size).
	BatchSize int
	// Layout shapes the images.
	Layout Layout
	// Shuffle deals each epoch in a new order, Permutation(n, Seed,
	// epoch); otherwise every epoch is in the set's order.
	Shuffle bool
	Seed    uint64
	// KeepLast deals an epoch's last, smaller batch when BatchSize does
	// not divide the set's size; by default it is dropped, so that every
	// batch has the same shape (a compiled step compiles once) and the
	// dropped examples differ from epoch to epoch when shuffling.
	KeepLast bool
}

// Loader deals a Set in minibatches, epoch after epoch, for training.
type Loader struct {
	set   *Set
	opts  LoaderOptions
	epoch int   // of the next batch
	pos   int   // of the next batch's first example in order
	order []int // epoch's order
}

// Loader makes a Loader over s.
func (s *Set) Loader(opts LoaderOptions) (*Loader, error) {
	if opts.BatchSize < 1 || opts.BatchSize > s.Len() {
		return nil, fmt.Errorf("mnist: %s.Loader: batch size %d: want 1 to %d", s.name, opts.BatchSize, s.Len())
	}
	if !opts.Layout.valid() {
		return nil, fmt.Errorf("mnist: %s.Loader: unknown layout %v", s.name, opts.Layout)
	}
	return &Loader{set: s, opts: opts}, nil
}

// StepsPerEpoch is the number of batches in an epoch.
func (l *Loader) StepsPerEpoch() int {
	n, b := l.set.Len(), l.opts.BatchSize
	if l.opts.KeepLast {
		return (n + b - 1) / b
	}
	return n / b
}

// Epoch is the epoch (from 0) of the batch Next returns next.
func (l *Loader) Epoch() int {
	l.advance()
	return l.epoch
}

// advance moves to the next epoch when the current one has no batch left.
func (l *Loader) advance() {
	n, b := l.set.Len(), l.opts.BatchSize
	left := n - l.pos
	if l.order != nil && (left >= b || (l.opts.KeepLast && left > 0)) {
		return
	}
	if l.order != nil {
		l.epoch++
	}
	l.pos = 0
	if l.opts.Shuffle {
		l.order = Permutation(n, l.opts.Seed, l.epoch)
	} else if l.order == nil {
		l.order = make([]int, n)
		for i := range l.order {
			l.order[i] = i
		}
	}
}

// Next returns the next batch, starting a new epoch when the current one
// is used up; it never ends.
func (l *Loader) Next() *Batch {
	l.advance()
	end := min(l.pos+l.opts.BatchSize, l.set.Len())
	b := l.set.batch(l.order[l.pos:end], l.opts.Layout)
	l.pos = end
	return b
}
