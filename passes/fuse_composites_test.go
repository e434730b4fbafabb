package passes_test

import (
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
)

// TestFuseTransformer runs the GPT-2 block through
// canonicalize,cse,fuse-composites,dce: the result must evaluate bit for
// bit as before and hold two layer norms, one causal SDPA (whose softmax
// lives in its region, so none stands alone) and one GELU. Running
// fuse-composites again changes nothing.
func TestFuseTransformer(t *testing.T) {
	ex, err := examples.Get("transformer")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := examples.Trace(ex)
	if err != nil {
		t.Fatal(err)
	}
	f := tr.Func
	var args []*ir.Literal
	for _, in := range ex.Inputs(1) {
		args = append(args, in.Literal())
	}
	for _, c := range tr.Captured {
		args = append(args, c.Literal())
	}
	want, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	before, top := countAllOps(f), len(f.Body)
	pipe, err := passes.ParsePipeline("canonicalize,cse,fuse-composites,dce")
	if err != nil {
		t.Fatal(err)
	}
	res, err := passes.Run(&ir.Module{Funcs: []*ir.Func{f}}, pipe, passes.Options{VerifyEach: true, CheckDeterminism: true, ReproDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ops (regions included): %d before, %d after; top level: %d before, %d after", before, countAllOps(f), top, len(f.Body))
	got := map[string]int{}
	for _, in := range f.Body {
		if in.Op == ir.OpComposite {
			got[in.Attr.(ir.CompositeAttr).Name]++
		}
	}
	wantCount := map[string]int{"stela.layer_norm": 2, "stela.sdpa": 1, "stela.softmax": 0, "stela.gelu_tanh": 1}
	for name, n := range wantCount {
		if got[name] != n {
			t.Errorf("%d %s composites, want %d (all: %v)", got[name], name, n, got)
		}
	}
	fused := 0
	for _, r := range res.Remarks {
		if r.Pass == "fuse-composites" {
			fused++
		}
	}
	if fused != 4 {
		t.Errorf("%d fuse-composites remarks, want 4", fused)
	}
	for _, in := range f.Body {
		if a, ok := in.Attr.(ir.CompositeAttr); ok && a.Name == "stela.sdpa" {
			if len(in.Args) != 3 || a.Attrs[0].Value != 0.25 || a.Attrs[1].Value != true {
				t.Errorf("sdpa: %d operands, attrs %v; want q, k, v and scale 0.25, causal", len(in.Args), a.Attrs)
			}
		}
	}
	text := f.String()
	again, err := passes.Run(&ir.Module{Funcs: []*ir.Func{f}}, []*passes.Pass{passes.FuseComposites}, passes.Options{VerifyEach: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.String() != text || len(again.Remarks) != 0 {
		t.Errorf("a second fuse-composites changed the function (%d remarks)", len(again.Remarks))
	}
	out, err := ir.Eval(f, args...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !ir.LiteralEqual(out[i], want[i]) {
			t.Errorf("result %d differs after fusing", i)
		}
	}
}

// countAllOps counts instructions, those in regions included.
func countAllOps(f *ir.Func) int {
	n := 0
	f.Walk(func(*ir.Instr) { n++ })
	return n
}
