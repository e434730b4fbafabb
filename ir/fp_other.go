//go:build !amd64

package ir

import "unsafe"

// fpWalk: elsewhere CallerLoc unwinds with runtime.Callers.
const fpWalk = false

func callerFP() unsafe.Pointer { return nil }
