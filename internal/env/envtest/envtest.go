// Package envtest lets tests change Stela's environment switches
// (package env), which a running process otherwise parses once.
package envtest

import (
	"testing"

	"github.com/stela-ml/stela/internal/env"
)

// Setenv sets an environment variable for the test, as t.Setenv does, and
// has package env parse the switches again, now and after the test has
// restored the variable.
func Setenv(t testing.TB, name, value string) {
	t.Helper()
	// Cleanups run last-registered first: this one after t.Setenv's
	// restores the old value.
	t.Cleanup(env.Reload)
	t.Setenv(name, value)
	env.Reload()
}
