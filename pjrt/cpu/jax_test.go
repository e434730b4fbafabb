package cpu

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/stablehlo/bytecode"
)

// TestStablehloVersionAttributes: the plugin reports the StableHLO
// versions the worker's bytecode reader converts (XLA's client, and so
// JAX, serializes programs at the smaller of its version and
// stablehlo_current_version).
func TestStablehloVersionAttributes(t *testing.T) {
	p := loadPlugin(t)
	for name, want := range map[string][3]int64{
		"stablehlo_current_version": bytecode.CurrentVersion,
		"stablehlo_minimum_version": bytecode.MinVersion,
	} {
		v, ok := p.Attribute(name)
		if got, _ := v.([]int64); !ok || fmt.Sprint(got) != fmt.Sprint(want[:]) {
			t.Errorf("%s = %v, want %v", name, v, want)
		}
	}
}

// TestCompileBytecode compiles the StableHLO portable artifact jaxlib
// wrote for jnp.sin(x) + 1 (stablehlo/bytecode/testdata) with the real
// worker, runs it, and reads the program back as StableHLO text.
func TestCompileBytecode(t *testing.T) {
	code, err := os.ReadFile("../../stablehlo/bytecode/testdata/sin.1.17.0.mlirbc")
	if err != nil {
		t.Fatal(err)
	}
	c := realWorkerClient(t, 1)
	exe, err := c.CompileProgram(code, "mlir", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	x, err := c.BufferFromLiteral(ir.LiteralOf([]int{4}, float32(0), 1, 2, 3), c.AddressableDevices()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer x.Destroy()
	outs, err := exe.Execute(x)
	if err != nil {
		t.Fatal(err)
	}
	defer outs[0].Destroy()
	y, err := outs[0].ToLiteral()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range y.Data.([]float32) {
		if want := float32(math.Sin(float64(i))) + 1; math.Abs(float64(v-want)) > 1e-6 {
			t.Errorf("y[%d] = %v, want %v", i, v, want)
		}
	}
	text, format, err := exe.OptimizedProgram()
	if err != nil || format != "mlir" || !bytes.Contains(text, []byte("stablehlo.sine")) {
		t.Errorf("optimized program %q (%s), %v", text, format, err)
	}

	// Truncated bytecode: a compile error at the offset.
	_, err = c.CompileProgram(code[:len(code)/2], "mlir", nil)
	wantError(t, err, pjrt.CodeInvalidArgument, "stela cpu compile: mlir bytecode: offset ")
}
