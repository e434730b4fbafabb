// Package stablehlo is a Go model of StableHLO modules (functions, ops,
// types, attributes, regions, locations), a printer that writes the
// pretty MLIR text JAX prints (`jax.jit(f).lower(...).as_text()`), and a
// parser that reads that text in both pretty and generic form.
//
// In: a *Module built programmatically by the lowering (ir → StableHLO),
// or MLIR text from any producer (JAX, gopjrt, hand-written tests with
// check.* expectations). Out: MLIR text for PJRT, or a *Module that the
// CPU plugin's compiler and `stela check` consume. Nothing here executes
// anything.
//
// # Building
//
//	m := stablehlo.NewModule("jit_f")
//	t := stablehlo.Tensor(stablehlo.F32, 2, 3)
//	f := m.NewFunc("main", []stablehlo.Type{t, t}, []stablehlo.Type{t})
//	f.Visibility = "public"
//	b := f.Builder()
//	b.Loc = stablehlo.FileLoc("model.go", 42, 0) // given to the ops b makes
//	sum := b.Op1("stablehlo.add", []*stablehlo.Value{f.Arg(0), f.Arg(1)}, t)
//	b.Return(sum)
//	text := m.String() // or stablehlo.Format(m, stablehlo.PrintOptions{Locations: true})
//
// Ops are generic: a name, operands, results, attributes and regions
// (Builder.Op, Builder.Op1). Attributes are typed values, never
// preformatted strings (OpaqueAttr keeps text the model does not
// interpret). Constants are made from Go slices:
//
//	c := b.Constant(stablehlo.MustDense(stablehlo.DenseFromFloat64s(t, []float64{1})))
//
// Regions (reduce bodies, while cond then body, sort comparators, ...)
// are made with Op.NewRegion, whose builder's Return emits
// stablehlo.return:
//
//	s := stablehlo.Tensor(stablehlo.F32)
//	red := b.Op("stablehlo.reduce", []*stablehlo.Value{x, zero}, []stablehlo.Type{r},
//		stablehlo.NA("dimensions", stablehlo.I64Array(1)))
//	rb := red.NewRegion(s, s)
//	rb.Return(rb.Op1("stablehlo.add", []*stablehlo.Value{rb.Arg(0), rb.Arg(1)}, s))
//
// Module.Verify checks the structure (defs before uses, back pointers,
// argument types) before printing.
//
// # Attribute names and kinds
//
// The printer uses an op's pretty form only when its attributes have the
// names and kinds below (it prints the generic form otherwise, which is
// always valid). Arrays of dimensions are DenseArray of i64 (I64Array).
//
//	constant               value *DenseElements
//	iota                   iota_dimension IntAttr i64 (I64Attr)
//	broadcast_in_dim       broadcast_dimensions
//	transpose              permutation
//	reverse                dimensions
//	slice                  start_indices, limit_indices, strides
//	dynamic_slice          slice_sizes
//	concatenate            dimension I64Attr
//	pad                    edge_padding_low, edge_padding_high, interior_padding
//	compare                comparison_direction ComparisonDirection("GT"), compare_type ComparisonType("FLOAT") (optional)
//	dot_general            dot_dimension_numbers DotDims, precision_config PrecisionConfig(...) (optional)
//	convolution            dimension_numbers ConvDims, window_strides, lhs_dilation, rhs_dilation,
//	                       padding *DenseElements i64 [N,2], window_reversal BoolArray,
//	                       feature_group_count, batch_group_count I64Attr, precision_config
//	reduce                 dimensions; one region with 2N rank-0 arguments (accumulators, then elements)
//	reduce_window          window_dimensions, window_strides, base_dilations, window_dilations,
//	                       padding *DenseElements i64 [N,2]; one region
//	select_and_scatter     window_dimensions, window_strides, padding; two regions
//	gather                 dimension_numbers GatherDims, slice_sizes, indices_are_sorted BoolAttr
//	scatter                scatter_dimension_numbers ScatterDims, indices_are_sorted, unique_indices; one region
//	sort                   dimension I64Attr, is_stable BoolAttr; one region
//	while                  two regions: cond, then body, each with one argument per operand
//	case, if               one region per branch, no arguments
//	get_dimension_size     dimension I64Attr
//	get_tuple_element      index I32Attr
//	reduce_precision       exponent_bits, mantissa_bits I32Attr
//	fft                    fft_type FFTType("FFT"), fft_length
//	rng_bit_generator      rng_algorithm RngAlgorithm("THREE_FRY")
//	custom_call            call_target_name StringAttr, has_side_effect BoolAttr,
//	                       backend_config StringAttr or DictAttr, api_version I32Attr
//	composite              name StringAttr, composite_attributes DictAttr,
//	                       decomposition SymbolRefAttr, version I32Attr
//	func.call              callee SymbolRefAttr (Builder.Call sets it)
//
// # Printing
//
// The printer is deterministic. Values are named as MLIR's SSANameState
// names them: %arg0... for block arguments, %0... for op results,
// %cst (float) and %c (integer) for constants and %iterArg for while
// arguments with _N suffixes from one counter; nested regions are
// numbered after their enclosing region, sibling regions alike.
// Dictionaries are sorted by key. Ops with a custom assembly format in
// StableHLO print in it (`stablehlo.add %0, %1 : tensor<2x3xf32>`); the
// others (scatter, gather, sort, case, if, reduce_window, collectives,
// chlo and unknown ops) print in generic form
// (`"stablehlo.scatter"(...) <{...}> ({...}) : (...) -> ...`), inherent
// attributes in `<{...}>`. func.return and func.call directly in a
// function body print as return and call. Dense elements print as MLIR
// does: a splat as one value, more than 100 elements as a hex blob,
// otherwise nested lists. Floats print as MLIR's printFloatValue does
// (`1.000000e+00`, then APFloat's shortest form `0.707106769`, then the
// raw bits `0x7FC00000`, also used for NaN and infinities) and always read
// back bit-exactly. Locations print only with PrintOptions.Locations, as
// `loc(#locN)` with the alias definitions at the end.
//
// # Parsing
//
// Parse reads a module, or bare top-level func.func ops (Module.Bare),
// with location aliases anywhere at top level; the module and functions
// may also be in generic form (`"builtin.module"() ({...})`,
// `"func.func"() <{function_type = ..., sym_name = ...}> ({...})`). It reads the pretty and
// generic forms of every op above, properties `<{...}>` and attribute
// dictionaries, regions with `^bb0(...)` headers, multiple results
// (`%0:2 = ...` with uses `%0#1`, or `%a, %b = ...`), `//` comments,
// chlo ops (kept as generic ops, pretty forms `chlo.erf %x : A -> B` and
// `chlo.top_k(%x, k = 2)` accepted) and the check dialect
// (`check.expect_eq`, `check.expect_eq_const %x, dense<...> : T`,
// `check.expect_almost_eq[_const] ..., tolerance = 1.0e-3`,
// `check.expect_close ..., max_ulp_difference = 3, min_ulp_difference =
// 1`). Unknown ops are kept in generic representation so a consumer can
// reject them by name; types and attributes it does not interpret
// (`!quant.uniform<...>`, `#sdy.sharding<...>`, f8 dense literals) are
// kept verbatim. Errors are *ParseError with line:column; Parse never
// panics. Value names and location aliases of the input are not kept.
//
// # Invariants
//
// For every text T the printer produced, Format(Parse(T)) == T (the
// golden files in testdata check this, FuzzParse checks it on mutated
// input). For every module M built with this package that verifies,
// Parse(Format(M)) formats as M does. Every parsed module verifies.
//
// Not modeled: MLIR bytecode, attribute and type aliases other than
// locations, ops other than func.func at module level (sdy.mesh, ...),
// block successors (multi-block control flow).
package stablehlo
