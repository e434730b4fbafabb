package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// Collectives compiled by the real worker and run through PJRT on 2, 4
// and 8 devices; every expected value is computed here from the inputs,
// following the StableHLO spec's definitions (process groups, the op's
// semantics), independently of the code generator's tables.

// realClient makes a client of n devices that compiles with the real
// worker (this test binary) into a cache of its own.
func realClient(t testing.TB, n int) *pjrt.Client {
	t.Helper()
	for _, tool := range []string{"opt", "llc"} {
		if _, err := exec.LookPath(tool); err != nil {
			if _, err := exec.LookPath(tool + "-14"); err != nil {
				t.Skipf("no %s: apt-get install llvm-14", tool)
			}
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := loadPlugin(t).NewClient(
		pjrt.NamedValue{Name: "cpu_device_count", Value: int64(n)},
		pjrt.NamedValue{Name: "stela_worker", Value: exe},
		pjrt.NamedValue{Name: "stela_cache_dir", Value: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Destroy)
	return c
}

// mesh is an execution's shape: replicas × partitions devices.
type mesh struct{ r, p int }

func (m mesh) n() int { return m.r * m.p }

// compileOn compiles a program for the mesh, device (r, p) being device
// r·P + p of the client.
func compileOn(t testing.TB, c *pjrt.Client, m mesh, program string) *pjrt.LoadedExecutable {
	t.Helper()
	da := make([][]int, m.r)
	for r := range da {
		for p := range m.p {
			da[r] = append(da[r], r*m.p+p)
		}
	}
	exe, err := c.Compile(program, &pjrt.CompileOptions{NumReplicas: m.r, NumPartitions: m.p, DeviceAssignment: da})
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, program)
	}
	t.Cleanup(exe.Destroy)
	return exe
}

// runOn runs exe with args[d] on device d and returns each device's
// results.
func runOn(t testing.TB, c *pjrt.Client, exe *pjrt.LoadedExecutable, args [][]*ir.Literal) ([][]*ir.Literal, error) {
	t.Helper()
	devs := exe.AddressableDevices()
	var lists [][]*pjrt.Buffer
	for d, dev := range devs {
		var list []*pjrt.Buffer
		for _, a := range args[d] {
			b, err := c.BufferFromLiteral(a, dev)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Destroy()
			list = append(list, b)
		}
		lists = append(lists, list)
	}
	outs, err := exe.ExecuteDevices(lists)
	if err != nil {
		return nil, err
	}
	res := make([][]*ir.Literal, len(outs))
	for d, list := range outs {
		for _, b := range list {
			l, err := b.ToLiteral()
			if err != nil {
				t.Fatal(err)
			}
			res[d] = append(res[d], l)
			b.Destroy()
		}
	}
	return res, nil
}

// groupMode is a process grouping strategy of the spec.
type groupMode int

const (
	crossReplica groupMode = iota
	crossPartition
	crossReplicaAndPartition
	flattenedIDs
)

// specGroups is the spec's process grouping (execution indices r·P+p):
// the Python of "Parallel execution" transcribed. nil groups mean all.
func specGroups(m mesh, mode groupMode, groups [][]int) [][]int {
	if groups == nil {
		n := m.r
		switch mode {
		case crossPartition:
			n = m.p
		case flattenedIDs:
			n = m.n()
		}
		var all []int
		for i := range n {
			all = append(all, i)
		}
		groups = [][]int{all}
	}
	var out [][]int
	for _, g := range groups {
		switch mode {
		case crossReplica:
			for p := range m.p {
				var pg []int
				for _, r := range g {
					pg = append(pg, r*m.p+p)
				}
				out = append(out, pg)
			}
		case crossPartition:
			for r := range m.r {
				var pg []int
				for _, p := range g {
					pg = append(pg, r*m.p+p)
				}
				out = append(out, pg)
			}
		case crossReplicaAndPartition:
			var pg []int
			for p := range m.p {
				for _, r := range g {
					pg = append(pg, r*m.p+p)
				}
			}
			out = append(out, pg)
		case flattenedIDs:
			out = append(out, slices.Clone(g))
		}
	}
	return out
}

// groupOf returns d's group and its position in it.
func groupOf(groups [][]int, d int) ([]int, int) {
	for _, g := range groups {
		if i := slices.Index(g, d); i >= 0 {
			return g, i
		}
	}
	return nil, -1
}

// groupsAttr prints replica_groups; attrs adds channel_handle and
// use_global_device_ids as the mode needs.
func groupsAttr(groups [][]int) string {
	if groups == nil {
		return "replica_groups = dense<> : tensor<0x0xi64>"
	}
	var rows []string
	for _, g := range groups {
		rows = append(rows, strings.ReplaceAll(fmt.Sprint(g), " ", ", "))
	}
	return fmt.Sprintf("replica_groups = dense<[%s]> : tensor<%dx%dxi64>", strings.Join(rows, ", "), len(groups), len(groups[0]))
}

func modeAttrs(mode groupMode) string {
	switch mode {
	case crossReplicaAndPartition, crossPartition:
		return ", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>"
	case flattenedIDs:
		return ", channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids"
	}
	return ""
}

// dtype helpers: the MLIR spelling, and the element arithmetic of the
// reductions as the plugin computes it (halves in f32, rounded once).
func mlirType(d ir.DType, shape []int) string { return ir.TensorOf(d, shape...).MLIR() }

func round(d ir.DType, x float64) float64 {
	switch d {
	case ir.F32:
		return float64(float32(x))
	case ir.BF16:
		return ir.RoundToFloatFormat(float64(float32(x)), 8, 7)
	case ir.F16:
		return ir.RoundToFloatFormat(float64(float32(x)), 5, 10)
	case ir.S32:
		return float64(int32(int64(x)))
	}
	return x
}

func combine(op string, d ir.DType, a, b float64) float64 {
	switch op {
	case "add":
		return round(d, a+b)
	case "multiply":
		return round(d, a*b)
	case "maximum":
		return math.Max(a, b)
	case "minimum":
		return math.Min(a, b)
	}
	panic(op)
}

// inputs makes device d's operand: random small values (integers, for
// integer types; a few significant bits for halves, so that sums round).
func inputs(rng *rand.Rand, d ir.DType, shape []int) *ir.Literal {
	n := 1
	for _, s := range shape {
		n *= s
	}
	vals := make([]float64, n)
	for i := range vals {
		switch d {
		case ir.S32, ir.S64, ir.U32:
			vals[i] = float64(rng.IntN(2001) - 1000)
		default:
			vals[i] = round(d, rng.NormFloat64()*8)
		}
	}
	return ir.LiteralFromFloat64s(ir.TensorOf(d, shape...), vals)
}

func sameValues(t *testing.T, what string, got *ir.Literal, want []float64) {
	t.Helper()
	g := got.Float64s()
	if len(g) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(g), len(want))
	}
	for i := range g {
		if g[i] != want[i] && !(math.IsNaN(g[i]) && math.IsNaN(want[i])) {
			t.Fatalf("%s: element %d is %v, want %v", what, i, g[i], want[i])
		}
	}
}

// reduceBody is an all_reduce/reduce_scatter region of op on element e.
func reduceBody(op, e string) string {
	return fmt.Sprintf(`({
    ^bb0(%%a: tensor<%[2]s>, %%b: tensor<%[2]s>):
      %%s = stablehlo.%[1]s %%a, %%b : tensor<%[2]s>
      stablehlo.return %%s : tensor<%[2]s>
    })`, op, e)
}

type reduceCase struct {
	m      mesh
	mode   groupMode
	groups [][]int
	op     string
	dts    []ir.DType // one operand each
	shape  []int
}

func (rc reduceCase) String() string {
	var ds []string
	for _, d := range rc.dts {
		ds = append(ds, d.String())
	}
	return fmt.Sprintf("%dx%d/%v/%v/%s/%s/%v", rc.m.r, rc.m.p, rc.mode, rc.groups, rc.op, strings.Join(ds, ","), rc.shape)
}

func (rc reduceCase) program() string {
	var params, types, results []string
	for i, d := range rc.dts {
		params = append(params, fmt.Sprintf("%%x%d: %s", i, mlirType(d, rc.shape)))
		types = append(types, mlirType(d, rc.shape))
		results = append(results, fmt.Sprintf("%%r#%d", i))
	}
	e := strings.TrimSuffix(strings.TrimPrefix(mlirType(rc.dts[0], nil), "tensor<"), ">")
	var operands []string
	for i := range rc.dts {
		operands = append(operands, fmt.Sprintf("%%x%d", i))
	}
	return fmt.Sprintf(`module @all_reduce_test {
  func.func public @main(%s) -> (%s) {
    %%r:%d = "stablehlo.all_reduce"(%s) <{%s%s}> %s : (%s) -> (%s)
    return %s : %s
  }
}
`, strings.Join(params, ", "), strings.Join(types, ", "), len(rc.dts), strings.Join(operands, ", "),
		groupsAttr(rc.groups), modeAttrs(rc.mode), reduceBody(rc.op, e), strings.Join(types, ", "), strings.Join(types, ", "),
		strings.Join(results, ", "), strings.Join(types, ", "))
}

// TestCollectiveAllReduce: every grouping strategy, non-trivial groups,
// several element types, reductions and operands, on 2, 4 and 8 devices,
// small (reduced whole by every device) and large (in segments, sizes
// that do not divide evenly). Results must equal the spec's fold in
// group order bit for bit, on every device.
func TestCollectiveAllReduce(t *testing.T) {
	c := realClient(t, 8)
	f32 := []ir.DType{ir.F32}
	cases := []reduceCase{
		{mesh{2, 1}, crossReplica, nil, "add", f32, []int{5}},
		{mesh{4, 1}, crossReplica, nil, "add", []ir.DType{ir.F64}, []int{3, 7}},
		{mesh{8, 1}, crossReplica, nil, "add", f32, []int{33}},
		{mesh{4, 1}, crossReplica, [][]int{{0, 2}, {1, 3}}, "add", f32, []int{10}},
		{mesh{4, 1}, crossReplica, [][]int{{3, 1, 0, 2}}, "add", []ir.DType{ir.S32}, []int{6}},
		{mesh{2, 2}, crossReplica, nil, "maximum", f32, []int{9}},
		{mesh{1, 4}, crossPartition, nil, "add", f32, []int{9}}, // all_reduce has no cross_partition: handle > 0 is cross_replica_and_partition
		{mesh{2, 2}, crossReplicaAndPartition, [][]int{{0, 1}}, "add", f32, []int{7}},
		{mesh{4, 2}, crossReplicaAndPartition, [][]int{{0, 3}, {1, 2}}, "add", []ir.DType{ir.F64}, []int{7}},
		{mesh{1, 8}, flattenedIDs, [][]int{{0, 1, 2, 3, 4, 5, 6, 7}}, "add", f32, []int{64}},
		{mesh{2, 4}, flattenedIDs, [][]int{{0, 5}, {1, 4}, {2, 7}, {3, 6}}, "minimum", f32, []int{4, 4}},
		{mesh{1, 4}, flattenedIDs, [][]int{{2, 0, 3, 1}}, "multiply", []ir.DType{ir.F64}, []int{11}},
		{mesh{1, 4}, flattenedIDs, nil, "add", []ir.DType{ir.BF16}, []int{100}},
		{mesh{2, 1}, crossReplica, nil, "add", []ir.DType{ir.F16}, []int{100}},
		{mesh{1, 4}, flattenedIDs, nil, "add", []ir.DType{ir.F32, ir.F32, ir.F32}, []int{3, 5}},
		// Segmented: more than 64 KiB in all.
		{mesh{2, 1}, crossReplica, nil, "add", f32, []int{20001}},
		{mesh{1, 4}, flattenedIDs, nil, "add", f32, []int{3, 10007}},
		{mesh{8, 1}, crossReplica, nil, "add", f32, []int{40000}},
		{mesh{4, 2}, crossReplicaAndPartition, [][]int{{0, 1, 2, 3}}, "add", []ir.DType{ir.F64, ir.F64}, []int{9999}},
		{mesh{4, 1}, crossReplica, [][]int{{0, 2}, {1, 3}}, "maximum", []ir.DType{ir.BF16}, []int{70000}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, rc := range cases {
		t.Run(rc.String(), func(t *testing.T) {
			mode := rc.mode
			if mode == crossPartition {
				mode = crossReplicaAndPartition
				rc.groups = [][]int{{0}}
			}
			exe := compileOn(t, c, rc.m, rc.program())
			args := make([][]*ir.Literal, rc.m.n())
			for d := range args {
				for _, dt := range rc.dts {
					args[d] = append(args[d], inputs(rng, dt, rc.shape))
				}
			}
			res, err := runOn(t, c, exe, args)
			if err != nil {
				t.Fatal(err)
			}
			groups := specGroups(rc.m, mode, rc.groups)
			for d := range args {
				g, _ := groupOf(groups, d)
				for i, dt := range rc.dts {
					want := slices.Clone(args[g[0]][i].Float64s())
					for _, m := range g[1:] {
						x := args[m][i].Float64s()
						for e := range want {
							want[e] = combine(rc.op, dt, want[e], x[e])
						}
					}
					sameValues(t, fmt.Sprintf("device %d result %d", d, i), res[d][i], want)
				}
			}
		})
	}
}
