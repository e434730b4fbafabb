package bytecode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stela-ml/stela/stablehlo"
)

// TestSamples reads the portable artifacts jaxlib wrote (testdata/gen.py)
// and checks that each gives the module stablehlo.Parse gives for the
// program's text: the same printed text.
func TestSamples(t *testing.T) {
	files, err := filepath.Glob("testdata/*.mlirbc")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	for _, bc := range files {
		name := filepath.Base(bc)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(bc)
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(filepath.Join("testdata", strings.SplitN(name, ".", 2)[0]+".mlir"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := stablehlo.Parse(src)
			if err != nil {
				t.Fatalf("parsing the text: %v", err)
			}
			got, err := Read(data)
			if err != nil {
				t.Fatalf("reading the bytecode: %v", err)
			}
			// VHLO spells out every attribute; reading drops those with
			// their default value, as StableHLO's deserializer does.
			// Compare without defaults on both sides.
			stripDefaults(want)
			stripDefaults(got)
			// Only the locs sample's text has locations (the others get
			// "-":line:col ones from serialize_portable_artifact_str).
			opts := stablehlo.PrintOptions{Locations: strings.HasPrefix(name, "locs.")}
			w, g := string(stablehlo.Format(want, opts)), string(stablehlo.Format(got, opts))
			if w != g {
				t.Errorf("bytecode and text differ:\n--- text\n%s\n--- bytecode\n%s", w, g)
			}
			if err := got.Verify(); err != nil {
				t.Errorf("verify: %v", err)
			}
			// The text form reads back to the same module.
			txt, err := ToText(data)
			if err != nil {
				t.Fatal(err)
			}
			again, err := stablehlo.Parse(txt)
			if err != nil {
				t.Fatalf("parsing ToText's output: %v\n%s", err, txt)
			}
			all := stablehlo.PrintOptions{Locations: true}
			if a, g := string(stablehlo.Format(again, all)), string(stablehlo.Format(got, all)); a != g {
				t.Errorf("ToText does not read back:\n%s\n---\n%s", a, g)
			}
		})
	}
}

func stripDefaults(m *stablehlo.Module) {
	var walk func(ops []*stablehlo.Op)
	walk = func(ops []*stablehlo.Op) {
		for _, o := range ops {
			if base, ok := strings.CutPrefix(o.Name, "stablehlo."); ok {
				s := &attrSet{op: o.Name, attrs: o.Attrs}
				s.removeDefaults(base)
				o.Attrs = s.attrs
			}
			for _, r := range o.Regions {
				for _, b := range r.Blocks {
					walk(b.Ops)
				}
			}
		}
	}
	for _, f := range m.Funcs {
		if f.Body != nil {
			walk(f.Entry().Ops)
		}
	}
}

// TestXLAClientProgram reads what XLA's PJRT C-API client sent the
// Stela plugin for `jax.jit(lambda x: x*2)` of an array committed to a
// device (captured with STELA_DUMP): a portable artifact with Shardy's
// sdy.mesh op and #sdy.sharding attributes in sdy's own encoding, which
// are kept undecoded.
func TestXLAClientProgram(t *testing.T) {
	data, err := os.ReadFile("testdata/xla_client_sdy.bin")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	txt := string(stablehlo.Format(m, stablehlo.PrintOptions{Locations: true}))
	for _, want := range []string{
		`func.func public @main(%arg0: tensor<3xf32> {sdy.sharding = #sdy.bytecode<"`,
		`stablehlo.multiply %arg0, %0 : tensor<3xf32>`,
		`loc("jit(<lambda>)/mul"(`,
	} {
		if !strings.Contains(txt, want) {
			t.Errorf("missing %q in\n%s", want, txt)
		}
	}
	if _, err := stablehlo.Parse([]byte(txt)); err != nil {
		t.Errorf("the text does not parse: %v", err)
	}
}

// TestPlainStablehloBytecode: plain (not VHLO) bytecode of the stablehlo
// dialect stores op attributes as ODS properties, which the reader does
// not decode; the error says so and names the op.
func TestPlainStablehloBytecode(t *testing.T) {
	data, err := os.ReadFile("testdata/plain_sin.bin")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Read(data)
	if err == nil || !strings.Contains(err.Error(), "stablehlo.sine stores its attributes as properties") {
		t.Errorf("got %v", err)
	}
}
