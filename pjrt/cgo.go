package pjrt

// Package-wide cgo settings: the header lives in capi/ (package capi
// exposes the same text to the CPU plugin's build), and dlopen needs -ldl
// on older glibc.

/*
#cgo CFLAGS: -I${SRCDIR}/capi
#cgo LDFLAGS: -ldl
*/
import "C"

//go:generate go run ./internal/gencalls
