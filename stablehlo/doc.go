// Package stablehlo is a Go model of StableHLO modules (functions, ops,
// types, attributes, regions, locations), a printer that writes the
// pretty MLIR text JAX prints, and a parser that reads that text in both
// pretty and generic form.
//
// In: a *Module built programmatically by the lowering (ir → StableHLO),
// or MLIR text from any producer (JAX's `lower(...).as_text()`, gopjrt,
// hand-written tests with check.* expectations). Out: MLIR text for PJRT,
// or a *Module that the CPU plugin's compiler and `stela check` consume.
// Nothing here executes anything.
//
// # Building
//
//	m := stablehlo.NewModule("jit_f")
//	t := stablehlo.Tensor(stablehlo.F32, 2, 3)
//	f := m.NewFunc("main", []stablehlo.Type{t, t}, []stablehlo.Type{t})
//	f.Visibility = "public"
//	b := f.Builder()
//	sum := b.Op1("stablehlo.add", []*stablehlo.Value{f.Arg(0), f.Arg(1)}, t)
//	b.Return(sum)
//	text := m.String() // or stablehlo.Print(w, m, stablehlo.PrintOptions{Locations: true})
//
// Ops are generic: a name, operands, results, attributes and regions.
// Attributes are typed values (IntAttr, DenseArray, *DenseElements,
// DotDims, ...), never preformatted strings, except OpaqueAttr, which
// keeps text the model does not interpret. Regions (reduce bodies, while
// cond/body, ...) are made with Op.NewRegion:
//
//	s := stablehlo.Tensor(stablehlo.F32)
//	red := b.Op("stablehlo.reduce", []*stablehlo.Value{x, zero}, []stablehlo.Type{r},
//		stablehlo.NA("dimensions", stablehlo.I64Array(1)))
//	rb := red.NewRegion(s, s)
//	rb.Return(rb.Op1("stablehlo.add", []*stablehlo.Value{rb.Arg(0), rb.Arg(1)}, s))
//
// # Printing
//
// The printer is deterministic. Values are named as MLIR names them
// (%arg0..., %0..., %cst and %c for constants, %iterArg for while
// arguments, with _N suffixes from one counter), dictionaries are sorted by
// key, ops that have a custom assembly format in StableHLO print in it
// (`stablehlo.add %0, %1 : tensor<2x3xf32>`), the others (scatter, gather,
// sort, case, if, reduce_window, unknown ops...) in generic form
// (`"stablehlo.scatter"(...) <{...}> ({...}) : (...) -> ...`). Float
// literals print as MLIR prints them (`1.000000e+00`, `0.707106769`,
// `0x7FC00000`) and always read back bit-exactly. Locations are printed
// only with PrintOptions.Locations, as `loc(#locN)` with the alias
// definitions at the end.
//
// # Parsing
//
// Parse reads a module (or bare top-level func.func ops) in pretty or
// generic form, including chlo.* ops (kept as generic ops) and check.*
// expectation ops. Unknown ops are kept in generic representation so a
// consumer can reject them by name. Errors carry line:column and Parse
// never panics.
//
// Invariants: for every text T the printer produced, Print(Parse(T)) == T;
// for every module M built with this package, Parse(Print(M)) prints as M
// does. Parsed values carry no names: the printer renumbers.
package stablehlo
