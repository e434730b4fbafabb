package ir

import "unsafe"

// fpWalk: on amd64 CallerLoc follows the frame pointers (Go keeps them
// on amd64) instead of calling runtime.Callers.
const fpWalk = true

// callerFP returns the frame pointer of the function that calls it, or
// of a frame below it (an ABI wrapper's): fp_amd64.s.
func callerFP() unsafe.Pointer
