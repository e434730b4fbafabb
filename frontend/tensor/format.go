package tensor

import (
	"strings"

	"github.com/stela-ml/stela/ir"
)

// Printing follows numpy's str(): nested brackets, elements right-aligned
// to a common width, one blank line more between blocks of each higher
// dimension, and "..." for the middle of arrays with more than
// summarizeOver elements (edgeItems kept at each end of each dimension).
const (
	summarizeOver = 1000
	edgeItems     = 3
)

// FormatLiteral prints l like numpy prints an array: "[[1 2]\n [3 4]]".
func FormatLiteral(l *ir.Literal) string {
	shape := l.Type.Shape
	p := &printer{l: l, shape: shape, strides: ir.Strides(shape), summarize: l.Type.NumElements() > summarizeOver}
	if len(shape) == 0 {
		return ir.FormatElem(l.Type.DType, l.Elem(0))
	}
	p.measure(0, 0)
	var b strings.Builder
	p.print(&b, 0, 0)
	return b.String()
}

type printer struct {
	l         *ir.Literal
	shape     []int
	strides   []int
	summarize bool
	width     int
}

// shown lists the indices of a dimension to print; -1 marks the elision.
func (p *printer) shown(n int) []int {
	if !p.summarize || n <= 2*edgeItems {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	idx := []int{}
	for i := 0; i < edgeItems; i++ {
		idx = append(idx, i)
	}
	idx = append(idx, -1)
	for i := n - edgeItems; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

func (p *printer) measure(dim, off int) {
	if dim == len(p.shape) {
		p.width = max(p.width, len(ir.FormatElem(p.l.Type.DType, p.l.Elem(off))))
		return
	}
	for _, i := range p.shown(p.shape[dim]) {
		if i >= 0 {
			p.measure(dim+1, off+i*p.strides[dim])
		}
	}
}

func (p *printer) print(b *strings.Builder, dim, off int) {
	if dim == len(p.shape) {
		s := ir.FormatElem(p.l.Type.DType, p.l.Elem(off))
		b.WriteString(strings.Repeat(" ", p.width-len(s)))
		b.WriteString(s)
		return
	}
	b.WriteByte('[')
	sep := " "
	if dim < len(p.shape)-1 {
		sep = strings.Repeat("\n", len(p.shape)-dim-1) + strings.Repeat(" ", dim+1)
	}
	for k, i := range p.shown(p.shape[dim]) {
		if k > 0 {
			b.WriteString(sep)
		}
		if i < 0 {
			b.WriteString("...")
			continue
		}
		p.print(b, dim+1, off+i*p.strides[dim])
	}
	b.WriteByte(']')
}
