package pjrt

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// decode turns protobuf bytes into "field:value" lines, nested messages
// indented, so that tests state field numbers and values explicitly.
// Length-delimited fields listed in messages are decoded as messages;
// others print as hex.
func decode(t *testing.T, b []byte, messages map[protowire.Number]bool, indent string) string {
	t.Helper()
	var out strings.Builder
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			t.Fatalf("bad tag: %v", protowire.ParseError(n))
		}
		b = b[n:]
		switch typ {
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				t.Fatal("bad varint")
			}
			fmt.Fprintf(&out, "%s%d:%d\n", indent, num, int64(v))
			b = b[n:]
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				t.Fatal("bad bytes")
			}
			if messages[num] {
				fmt.Fprintf(&out, "%s%d:{\n%s%s}\n", indent, num, decode(t, v, messages, indent+"  "), indent)
			} else {
				fmt.Fprintf(&out, "%s%d:%x\n", indent, num, v)
			}
			b = b[n:]
		default:
			t.Fatalf("unexpected wire type %v", typ)
		}
	}
	return out.String()
}

func TestCompileOptionsMarshal(t *testing.T) {
	// Fields decoded as messages: 3 executable_build_options (and, inside
	// device_assignment, 3 computation_devices), 9 device_assignment.
	// Numbers are per message; these happen not to clash with scalar
	// fields of the messages they appear in.
	msgs := map[protowire.Number]bool{3: true, 9: true}
	for _, c := range []struct {
		name string
		opts CompileOptions
		want string
	}{
		{"default", CompileOptions{}, `
3:{
  1:-1
  4:1
  5:1
}
4:1
`},
		{"replicated", CompileOptions{NumReplicas: 2, DeviceAssignment: [][]int{{5}, {7}}}, `
3:{
  1:-1
  4:2
  5:1
  9:{
    1:2
    2:1
    3:{
      1:0507
    }
  }
}
`},
		{"shardy", CompileOptions{NumPartitions: 2, UseShardyPartitioner: true, DeviceAssignment: [][]int{{0, 1}}}, `
3:{
  1:-1
  4:1
  5:2
  6:1
  9:{
    1:1
    2:2
    3:{
      1:00
    }
    3:{
      1:01
    }
  }
  19:1
}
`},
	} {
		b, err := c.opts.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		// Inside 9, each computation_devices (3) holds replica_device_ids
		// (1), packed varints, printed as hex: 0507 is [5, 7].
		got := decode(t, b, msgs, "")
		if strings.TrimSpace(got) != strings.TrimSpace(c.want) {
			t.Errorf("%s: decoded\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// TestCompileOptionsLikeGopjrt compares with the bytes gopjrt v0.10.0 sends
// (captured by a tracing plugin; pjrt-c-api.md section 11.3).
func TestCompileOptionsLikeGopjrt(t *testing.T) {
	for _, c := range []struct {
		opts CompileOptions
		hex  string
	}{
		{CompileOptions{}, "1a0f08ffffffffffffffffff01200128012001"},
		{CompileOptions{UseSPMDPartitioning: true, DeviceAssignment: [][]int{{0}}},
			"1a1c08ffffffffffffffffff012001280130014a09080110011a030a0100"},
	} {
		b, err := c.opts.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := hex.DecodeString(c.hex)
		if !bytes.Equal(b, want) {
			t.Errorf("%+v:\n got %x\nwant %s", c.opts, b, c.hex)
		}
	}
}

func TestCompileOptionsErrors(t *testing.T) {
	for _, o := range []CompileOptions{
		{NumReplicas: 2, DeviceAssignment: [][]int{{0}}},
		{NumPartitions: 2, DeviceAssignment: [][]int{{0}}},
	} {
		if _, err := o.Marshal(); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%+v: %v, want ErrInvalidArgument", o, err)
		}
	}
	if (&CompileOptions{NumReplicas: 1, DeviceAssignment: [][]int{{3}}}).Portable() {
		t.Error("an explicit device assignment is not portable")
	}
}
