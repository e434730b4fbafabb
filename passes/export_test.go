package passes

// Internal helpers for the external test package (examples_test.go).
var (
	CheckSame = checkSame
	CountOps  = countOps
)
