// Package examples holds Stela's built-in example programs: an MLP, a
// small CNN and a GPT-2-style transformer block, written with the tensor
// API as ordinary Go functions. The CLI dumps them (stela dump --example
// NAME), tests trace and run them, and benchmarks use the larger configs.
//
// In: a name (Get) or nothing (All). Out: Examples, each a Go function
// over *tensor.Tensor parameters (Func), the types of those parameters
// (Specs), and deterministic random arguments for them (Inputs). The
// parameters are the data and all the weights, in Specs order, so a traced
// example captures nothing. Trace traces one into an ir.Func named after
// the example.
//
// Dimensions are static and come from the config struct or from the
// shapes of the inputs; Inputs(seed) is the same for the same seed on
// every machine (math/rand/v2's PCG).
package examples
