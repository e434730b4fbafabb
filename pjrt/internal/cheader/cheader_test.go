package cheader_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stela-ml/stela/pjrt/internal/cheader"
)

func parseOurs(t *testing.T) *cheader.Header {
	t.Helper()
	src, err := os.ReadFile("../../capi/stela_pjrt.h")
	if err != nil {
		t.Fatal(err)
	}
	h, err := cheader.Parse(string(src))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestParseStelaHeader(t *testing.T) {
	h := parseOurs(t)
	if got := h.Defines["PJRT_API_MINOR"]; got != 81 {
		t.Errorf("PJRT_API_MINOR = %d, want 81", got)
	}
	slots := h.Slots()
	if len(slots) != 118 {
		t.Fatalf("PJRT_Api has %d slots, want 118", len(slots))
	}
	if got := len(h.Api.Fields); got != 3+118 {
		t.Errorf("PJRT_Api has %d fields, want 121", got)
	}
	for _, s := range slots {
		if s.Type.Name != s.Name {
			t.Errorf("slot %d %s has type %s", s.Index, s.Name, s.Type.Name)
		}
		if s.Type.Arg != s.Name+"_Args" {
			t.Errorf("slot %s takes %s", s.Name, s.Type.Arg)
		}
		if !h.Complete(s.Type.Arg) && !contains(h.Incomplete, s.Type.Arg) {
			t.Errorf("slot %s: %s is not declared", s.Name, s.Type.Arg)
		}
	}
	for _, s := range h.Structs {
		if s.Last == "" {
			t.Errorf("struct %s has no PJRT_STRUCT_END", s.Name)
		}
	}
	nv := find(h, "PJRT_NamedValue")
	var union []string
	for _, f := range nv.Fields {
		if f.Union {
			union = append(union, f.Name)
		}
	}
	if got := strings.Join(union, ","); got != "string_value,int64_value,int64_array_value,float_value,bool_value" {
		t.Errorf("PJRT_NamedValue union = %s", got)
	}
	cv := find(h, "PJRT_Client_CreateViewOfDeviceBuffer_Args")
	if f := cv.Fields[9]; f.Name != "on_delete_callback" || f.Type != "(fn)" {
		t.Errorf("CreateViewOfDeviceBuffer field 9 = %+v", f)
	}
	ex := find(h, "PJRT_LoadedExecutable_Execute_Args")
	if f := ex.Fields[4]; f.Name != "argument_lists" || f.Type != "PJRT_Buffer* const* const*" {
		t.Errorf("Execute field 4 = %+v", f)
	}
}

func TestParseRejectsUnknownLines(t *testing.T) {
	for name, src := range map[string]string{
		"field":     "struct S {\n  int a[4];\n};\n",
		"enum":      "typedef enum {\n  A,\n} E;\n",
		"end order": "struct S {\n  int a;\n  int b;\n};\nPJRT_STRUCT_END(S, a)\n",
	} {
		if _, err := cheader.Parse(src + "struct PJRT_Api {\n  size_t struct_size;\n};\n"); err == nil {
			t.Errorf("%s: Parse accepted %q", name, src)
		}
	}
}

func find(h *cheader.Header, name string) *cheader.Struct {
	for _, s := range h.Structs {
		if s.Name == name {
			return s
		}
	}
	panic("no struct " + name)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
