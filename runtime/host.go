package runtime

import (
	"fmt"

	"github.com/stela-ml/stela/ir"
)

// hostDevice is the reference device: buffers are host literals and
// programs run on ir.Eval, the test oracle. It is registered as "host".
type hostDevice struct{}

type hostBuffer struct {
	lit *ir.Literal
}

var host = &hostDevice{}

func init() { Register("host", host) }

// Host returns the reference device, which evaluates programs with ir.Eval.
func Host() Device { return host }

func (*hostDevice) Name() string { return "host" }

func (d *hostDevice) Put(l *ir.Literal) (Buffer, error) {
	if l == nil {
		return nil, fmt.Errorf("host: nil literal")
	}
	return &hostBuffer{lit: l}, nil
}

func (d *hostDevice) Run(f *ir.Func, args []Buffer) ([]Buffer, error) {
	lits := make([]*ir.Literal, len(args))
	for i, a := range args {
		hb, ok := a.(*hostBuffer)
		if !ok || hb == nil {
			if isNilBuffer(a) {
				return nil, fmt.Errorf("host: argument #%d is nil", i)
			}
			return nil, fmt.Errorf("host: argument #%d is on device %s", i, argDevice(a))
		}
		lits[i] = hb.lit
	}
	outs, err := ir.Eval(f, lits...)
	if err != nil {
		return nil, err
	}
	bufs := make([]Buffer, len(outs))
	for i, o := range outs {
		// A result may alias an argument (a function that returns its
		// parameter); literals are never mutated in place, so sharing is safe.
		bufs[i] = &hostBuffer{lit: o}
	}
	return bufs, nil
}

func (b *hostBuffer) Type() ir.Type                 { return b.lit.Type }
func (b *hostBuffer) Device() Device                { return host }
func (b *hostBuffer) Literal() (*ir.Literal, error) { return b.lit.Clone(), nil }
