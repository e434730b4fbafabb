package gomlx_test

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/support/backendtest"

	stelagomlx "github.com/stela-ml/stela/frontend/gomlx"
)

// TestCompliance runs compute's conformance suite (support/backendtest,
// the suite GoMLX's own backends run) against the backend on Stela's CPU
// plugin.
func TestCompliance(t *testing.T) {
	b, err := compute.NewWithConfig(stelagomlx.BackendName)
	if err != nil {
		t.Fatal(err)
	}
	backendtest.RunAll(t, b, nil)
}
