package tensor

import (
	"strings"

	"github.com/stela-ml/stela/ir"
)

// Errors name the function the user called. A composite op function
// (Softmax is a max, a subtract, an exponential, a sum and a divide)
// starts with
//
//	defer named(opSoftmax)
//
// and every located error raised inside it, by its own checks or by the
// IR ops it builds, comes out prefixed with its name:
// "softmax: exponential: element type si32 is not supported". Composites
// call composites (Softmax calls KeepDims and Max); the outermost name
// wins, so the user reads the function they called, then the IR op that
// failed. Functions that run user closures (While, Cond, Switch) are not
// composites: an error in a closure belongs to the closure's own line and
// op.
const (
	opSoftmax    = "softmax"
	opLogSoftmax = "log_softmax"
	opLayerNorm  = "layer_norm"
	opRMSNorm    = "rms_norm"
	opGELU       = "gelu"
	opRelu       = "relu"
	opSum        = "sum"
	opProd       = "prod"
	opMax        = "max"
	opMin        = "min"
	opMean       = "mean"
	opKeepDims   = "keep_dims"
	opArgMax     = "argmax"
	opArgMin     = "argmin"
	opMatMul     = "matmul"
	opConv2D     = "conv2d"
	opMaxPool2D  = "max_pool2d"
	opAvgPool2D  = "avg_pool2d"
	opTake       = "take"
	opScatterAdd = "scatter_add"
	opWhere      = "where"
	opExpandDims = "expand_dims"
	opSqueeze    = "squeeze"
	opSliceAxis  = "slice_axis"

	opSort              = "sort"
	opSortDescending    = "sort_descending"
	opArgSort           = "argsort"
	opArgSortDescending = "argsort_descending"
	opSortMany          = "sort_many"
	opTopK              = "top_k"
)

// composites are the names above: a located error whose op starts with one
// of them was named by a composite that an outer composite called.
var composites = map[string]bool{
	opSoftmax: true, opLogSoftmax: true, opLayerNorm: true, opRMSNorm: true, opGELU: true, opRelu: true,
	opSum: true, opProd: true, opMax: true, opMin: true, opMean: true, opKeepDims: true,
	opArgMax: true, opArgMin: true, opMatMul: true, opConv2D: true, opMaxPool2D: true, opAvgPool2D: true,
	opTake: true, opScatterAdd: true, opWhere: true, opExpandDims: true, opSqueeze: true, opSliceAxis: true,
	opSort: true, opSortDescending: true, opArgSort: true, opArgSortDescending: true, opSortMany: true, opTopK: true,
}

// named is deferred by composite op functions: a located error panicking
// out of the function gets the function's name (see above). Other panics
// go on unchanged; the re-panic happens before the stack unwinds, so a
// crash still shows where the original panic was.
func named(name string) {
	r := recover()
	if r == nil {
		return
	}
	switch e := r.(type) {
	case *ir.Error:
		panic(renamed(name, e))
	case ir.ErrorList:
		out := make(ir.ErrorList, len(e))
		for i, x := range e {
			out[i] = renamed(name, x)
		}
		panic(out)
	}
	panic(r)
}

// renamed is e with op name prefixed to its op, or replacing the name of
// an inner composite.
func renamed(name string, e *ir.Error) *ir.Error {
	op := e.Op
	head, rest, _ := strings.Cut(op, ": ")
	switch {
	case head == name:
		return e
	case composites[head]:
		op = name
		if rest != "" {
			op += ": " + rest
		}
	case op == "":
		op = name
	default:
		op = name + ": " + op
	}
	c := *e
	c.Op = op
	return &c
}
