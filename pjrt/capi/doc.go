// Package capi holds Stela's own C declarations of the PJRT C API: the
// header stela_pjrt.h, for API version 0.81, covering every struct that
// Stela's client calls with or its CPU plugin implements, every enum, and
// the full 118-slot PJRT_Api table (structs of functions Stela neither calls
// nor implements are declared incomplete).
//
// In: nothing; the header is written by hand from the field tables in
// docs/pjrt-c-api.md, never copied from XLA. Out: the header file itself,
// which cgo code in package pjrt includes with -I${SRCDIR}/capi, and the
// same text as the string Header, which the CPU plugin's build writes next
// to its C sources so that client and plugin compile against one set of
// declarations.
//
// Invariant, checked by TestABI: every struct, field, _STRUCT_SIZE constant
// and enumerator declared here has the same size, alignment, offset, class
// and value as in the real pjrt_c_api.h of github.com/gomlx/gopjrt@v0.10.0,
// read from the Go module cache at test time. The list of things compared is
// parsed from the header (package pjrt/internal/cheader), so a declaration
// cannot be added without being checked.
package capi
