package safetensors_test

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/ir"
)

// FuzzOpen feeds Parse headers and data regions. It must never panic; a
// file it accepts must read back consistently: each tensor's literal is
// the bytes at its offsets, and writing the tensors again gives a file that
// parses to the same tensors and metadata.
func FuzzOpen(f *testing.F) {
	seed := func(file []byte) {
		n := binary.LittleEndian.Uint64(file)
		f.Add(file[8:8+n], file[8+n:])
	}
	var buf bytes.Buffer
	safetensors.Write(&buf, samples(), map[string]string{"k": "v"})
	seed(buf.Bytes())
	buf.Reset()
	safetensors.Write(&buf, nil, nil)
	seed(buf.Bytes())
	f.Add([]byte(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"U8","shape":[4],"data_offsets":[4,8]}}`), make([]byte, 8))
	f.Add([]byte(`{"q":{"dtype":"F8_E4M3","shape":[1,2],"data_offsets":[0,2]},"e":{"dtype":"I64","shape":[3,0],"data_offsets":[2,2]},"__metadata__":{"k":"v"}}`), []byte{1, 2})
	f.Add([]byte(`{"m":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}`), []byte{0, 1, 7})
	f.Add([]byte(`{"w":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}}`), make([]byte, 8))
	f.Fuzz(func(t *testing.T, header, data []byte) {
		file := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
		file = append(append(file, header...), data...)
		sf, err := safetensors.Parse(file)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "safetensors: safetensors data: ") {
				t.Fatalf("error without the package and file: %v", err)
			}
			return
		}
		tensors := map[string]*ir.Literal{}
		for _, name := range sf.Names() {
			info, err := sf.Info(name)
			if err != nil {
				t.Fatal(err)
			}
			raw := file[info.Offset : info.Offset+info.Size]
			l, err := sf.Literal(name)
			if info.DType == ir.InvalidDType {
				if err == nil {
					t.Fatalf("%s: Literal of %s worked", name, info.DTypeName)
				}
				return // not rewritable
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if info.DType == ir.Bool {
				raw = bytes.Clone(raw)
				for i := range raw {
					raw[i] = min(raw[i], 1)
				}
			}
			if !l.Type.Equal(info.Type()) || !bytes.Equal(l.Bytes(), raw) {
				t.Fatalf("%s: literal %v is not the file's bytes", name, l.Type)
			}
			tensors[name] = l
		}
		var out bytes.Buffer
		if err := safetensors.Write(&out, tensors, sf.Metadata()); err != nil {
			t.Fatalf("rewriting: %v", err)
		}
		again, err := safetensors.Parse(out.Bytes())
		if err != nil {
			t.Fatalf("parsing the rewritten file: %v", err)
		}
		checkFile(t, again, tensors, sf.Metadata())
	})
}
