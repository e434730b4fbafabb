// Package gopjrttest holds only a test: it drives the Stela CPU plugin
// (package github.com/stela-ml/stela/pjrt/cpu) with gopjrt's PJRT client,
// github.com/gomlx/gopjrt/pjrt v0.10.0, a client nobody here wrote. If that
// client can create a client, move buffers both ways, compile StableHLO
// text and run it on the plugin, the plugin's C API is right independently
// of Stela's own client (package pjrt), so the two cannot agree on a shared
// misunderstanding (pjrt-c-api.md section 20).
//
// It is its own package, and so its own test binary, so that gopjrt and
// Stela's client never load the plugin into one process: each calls
// PJRT_Plugin_Initialize and keeps its own plugin state.
package gopjrttest
