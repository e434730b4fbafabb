package jit

import (
	"fmt"
	"reflect"

	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/passes"
)

// InShardings lays the call's tensor arguments out over a mesh before the
// compiled program runs, one Sharding per tensor of the flattened
// arguments (slices and trees by leaf) in order; a zero Sharding, or an
// argument past the list, keeps the tensor's own layout (its sharding if
// it is sharded over the mesh, else replicated). Like jax.jit's
// in_shardings. The function then compiles for the mesh: partitioned by
// Stela's partitioner, or annotated for the plugin's compiler, as the
// mesh's mode says (docs/sharding.md).
func InShardings(s ...sharding.Sharding) Option {
	return func(c *compileConfig) { c.in = append(c.in, s...) }
}

// OutShardings says how the results are laid out over the mesh, one per
// tensor of the flattened results; a zero Sharding leaves a result to
// propagation. Like jax.jit's out_shardings.
func OutShardings(s ...sharding.Sharding) Option {
	return func(c *compileConfig) { c.out = append(c.out, s...) }
}

// CompileAny is Compile for a function whose type is known only at run
// time (a table of programs, the CLI): fn takes *tensor.Tensor arguments
// and returns tensors (*tensor.Tensor or []*tensor.Tensor results, and
// optionally an error last). The returned function takes the arguments in
// order and returns every result tensor, flattened, and the call's
// error.
func CompileAny(fn any, opts ...Option) func(args ...*tensor.Tensor) ([]*tensor.Tensor, error) {
	fv := reflect.ValueOf(fn)
	if !fv.IsValid() || fv.Kind() != reflect.Func || fv.IsNil() {
		panic(fmt.Sprintf("jit.CompileAny: fn is %T, want a func", fn))
	}
	cfg := compileConfig{pipeline: passes.Default, name: funcName(fv), maxSigs: 64}
	for _, o := range opts {
		o(&cfg)
	}
	c := newCompiledFunc(fv, cfg)
	if err := c.checkType(); err != nil {
		panic(fmt.Sprintf("jit.CompileAny %s: %v", cfg.name, err))
	}
	for i := 0; i < c.ft.NumIn(); i++ {
		if c.ft.In(i) != tensorType {
			panic(fmt.Sprintf("jit.CompileAny %s: parameter #%d is %v; CompileAny takes *tensor.Tensor parameters", cfg.name, i, c.ft.In(i)))
		}
	}
	return func(args ...*tensor.Tensor) ([]*tensor.Tensor, error) {
		if len(args) != c.ft.NumIn() {
			return nil, fmt.Errorf("jit %s: %d arguments, want %d", cfg.name, len(args), c.ft.NumIn())
		}
		in := make([]reflect.Value, len(args))
		for i, a := range args {
			in[i] = reflect.ValueOf(a)
		}
		outs, err := c.callErr(in)
		if err != nil {
			return nil, c.located(err)
		}
		var res []*tensor.Tensor
		for _, o := range outs {
			switch v := o.Interface().(type) {
			case *tensor.Tensor:
				res = append(res, v)
			case []*tensor.Tensor:
				res = append(res, v...)
			case error:
				if v != nil {
					return nil, v
				}
			}
		}
		return res, nil
	}
}
