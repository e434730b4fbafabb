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
	opts := []pjrt.NamedValue{
		{Name: "cpu_device_count", Value: int64(n)},
		{Name: "stela_worker", Value: exe},
		{Name: "stela_cache_dir", Value: t.TempDir()}}
	var c *pjrt.Client
	if job := crossJob(t); job != nil {
		// One process of a job (TestCollectivesAcrossProcesses): n/K
		// devices here, the others in the other processes.
		k := job.NumProcesses()
		if n%k != 0 {
			t.Fatalf("%d devices over %d processes", n, k)
		}
		opts[0].Value = int64(n / k)
		opts = append(opts, pjrt.NamedValue{Name: "stela_gloo_host", Value: "127.0.0.1"})
		c, err = loadPlugin(t).NewDistributedClient(job.PJRTOptions(), opts...)
	} else {
		c, err = loadPlugin(t).NewClient(opts...)
	}
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
			da[r] = append(da[r], globalID(t, c, r*m.p+p))
		}
	}
	if job := crossJob(t); job != nil && m.n() < job.NumProcesses() {
		t.Skipf("%d devices, fewer than the job's %d processes", m.n(), job.NumProcesses())
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
	for k, dev := range devs {
		d := execIndex(t, k)
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
	// Devices of other processes (TestCollectivesAcrossProcesses) have
	// nil results, which the checks skip.
	res := make([][]*ir.Literal, len(args))
	for d := range res {
		res[d] = make([]*ir.Literal, 0, 4)
	}
	for k, list := range outs {
		d := execIndex(t, k)
		for _, b := range list {
			l, err := b.ToLiteral()
			if err != nil {
				t.Fatal(err)
			}
			res[d] = append(res[d], l)
			b.Destroy()
		}
	}
	for d := range res {
		for len(res[d]) < len(outs[0]) {
			res[d] = append(res[d], nil)
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

// unpad drops the -1s that pad groups smaller than the largest.
func unpad(groups [][]int) [][]int {
	var out [][]int
	for _, g := range groups {
		out = append(out, slices.DeleteFunc(slices.Clone(g), func(id int) bool { return id < 0 }))
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
	if got == nil {
		return // a device of another process (TestCollectivesAcrossProcesses)
	}
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

// --- shapes of flat row-major arrays, for the expected values

func strides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	return st
}

// block returns x[..., start:start+size along dim, ...] (x of shape).
func block(x []float64, shape []int, dim, start, size int) []float64 {
	outer, inner := 1, 1
	for i, s := range shape {
		if i < dim {
			outer *= s
		} else if i > dim {
			inner *= s
		}
	}
	var out []float64
	for a := range outer {
		base := (a*shape[dim] + start) * inner
		out = append(out, x[base:base+size*inner]...)
	}
	return out
}

// concat joins parts (each of shape) along dim.
func concat(parts [][]float64, shape []int, dim int) []float64 {
	outer, inner := 1, 1
	for i, s := range shape {
		if i < dim {
			outer *= s
		} else if i > dim {
			inner *= s
		}
	}
	row := shape[dim] * inner
	var out []float64
	for a := range outer {
		for _, p := range parts {
			out = append(out, p[a*row:(a+1)*row]...)
		}
	}
	return out
}

func shapeStr(d ir.DType, shape []int) string { return mlirType(d, shape) }

func withDim(shape []int, dim, size int) []int {
	s := slices.Clone(shape)
	s[dim] = size
	return s
}

// runCase compiles program for m, runs it on per-device inputs made by
// mk and returns the inputs and results.
func runCase(t *testing.T, c *pjrt.Client, m mesh, program string, mk func(d int) []*ir.Literal) ([][]*ir.Literal, [][]*ir.Literal) {
	t.Helper()
	exe := compileOn(t, c, m, program)
	args := make([][]*ir.Literal, m.n())
	for d := range args {
		args[d] = mk(d)
	}
	res, err := runOn(t, c, exe, args)
	if err != nil {
		t.Fatal(err)
	}
	return args, res
}

func TestCollectiveAllGather(t *testing.T) {
	c := realClient(t, 8)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		m      mesh
		mode   groupMode
		groups [][]int
		dim    int
		dts    []ir.DType
		shapes [][]int
	}{
		{mesh{4, 1}, crossReplica, nil, 0, []ir.DType{ir.F32}, [][]int{{3}}},
		{mesh{2, 1}, crossReplica, nil, 1, []ir.DType{ir.F64}, [][]int{{2, 3}}},
		{mesh{2, 2}, crossReplica, [][]int{{1, 0}}, 0, []ir.DType{ir.S32}, [][]int{{2, 2}}},
		{mesh{2, 2}, crossReplicaAndPartition, [][]int{{0, 1}}, 1, []ir.DType{ir.S32}, [][]int{{2, 3}}},
		{mesh{1, 8}, flattenedIDs, [][]int{{7, 6, 5, 4, 3, 2, 1, 0}}, 0, []ir.DType{ir.F64}, [][]int{{2, 2}}},
		{mesh{2, 4}, flattenedIDs, [][]int{{0, 5}, {1, 4}, {2, 7}, {3, 6}}, 1, []ir.DType{ir.F32}, [][]int{{3, 2}}},
		{mesh{1, 4}, flattenedIDs, nil, 0, []ir.DType{ir.F32, ir.S32}, [][]int{{2}, {3, 1}}},
		{mesh{1, 8}, flattenedIDs, nil, 1, []ir.DType{ir.F32}, [][]int{{4, 5000}}},
	} {
		name := fmt.Sprintf("%dx%d/%v/%v/dim%d/%v", tc.m.r, tc.m.p, tc.mode, tc.groups, tc.dim, tc.shapes)
		t.Run(name, func(t *testing.T) {
			groups := specGroups(tc.m, tc.mode, tc.groups)
			size := len(groups[0])
			var params, ins, outs, results []string
			for i, d := range tc.dts {
				params = append(params, fmt.Sprintf("%%x%d: %s", i, shapeStr(d, tc.shapes[i])))
				ins = append(ins, shapeStr(d, tc.shapes[i]))
				outs = append(outs, shapeStr(d, withDim(tc.shapes[i], tc.dim, tc.shapes[i][tc.dim]*size)))
				results = append(results, fmt.Sprintf("%%r#%d", i))
			}
			var operands []string
			for i := range tc.dts {
				operands = append(operands, fmt.Sprintf("%%x%d", i))
			}
			program := fmt.Sprintf(`module @all_gather_test {
  func.func public @main(%s) -> (%s) {
    %%r:%d = "stablehlo.all_gather"(%s) {all_gather_dim = %d : i64, %s%s} : (%s) -> (%s)
    return %s : %s
  }
}
`, strings.Join(params, ", "), strings.Join(outs, ", "), len(tc.dts), strings.Join(operands, ", "), tc.dim,
				groupsAttr(tc.groups), modeAttrs(tc.mode), strings.Join(ins, ", "), strings.Join(outs, ", "),
				strings.Join(results, ", "), strings.Join(outs, ", "))
			args, res := runCase(t, c, tc.m, program, func(int) []*ir.Literal {
				var l []*ir.Literal
				for i, d := range tc.dts {
					l = append(l, inputs(rng, d, tc.shapes[i]))
				}
				return l
			})
			for d := range args {
				g, _ := groupOf(groups, d)
				for i := range tc.dts {
					var parts [][]float64
					for _, m := range g {
						parts = append(parts, args[m][i].Float64s())
					}
					sameValues(t, fmt.Sprintf("device %d result %d", d, i), res[d][i], concat(parts, tc.shapes[i], tc.dim))
				}
			}
		})
	}
}

func TestCollectiveReduceScatter(t *testing.T) {
	c := realClient(t, 8)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		m      mesh
		mode   groupMode
		groups [][]int
		op     string
		dim    int
		dt     ir.DType
		shape  []int
	}{
		{mesh{4, 1}, crossReplica, nil, "add", 0, ir.F32, []int{8}},
		{mesh{2, 2}, crossReplicaAndPartition, [][]int{{0, 1}}, "add", 1, ir.S32, []int{3, 8}},
		{mesh{4, 1}, crossReplica, [][]int{{0, 2}, {1, 3}}, "maximum", 1, ir.F64, []int{2, 6}},
		{mesh{2, 4}, flattenedIDs, [][]int{{6, 1, 4, 3}, {0, 5, 2, 7}}, "add", 0, ir.F32, []int{4, 3, 2}},
		{mesh{1, 8}, flattenedIDs, nil, "add", 0, ir.F32, []int{16, 1000}},
		{mesh{2, 1}, crossReplica, nil, "add", 0, ir.BF16, []int{6}},
	} {
		name := fmt.Sprintf("%dx%d/%v/%v/%s/dim%d/%v", tc.m.r, tc.m.p, tc.mode, tc.groups, tc.op, tc.dim, tc.shape)
		t.Run(name, func(t *testing.T) {
			groups := specGroups(tc.m, tc.mode, tc.groups)
			size := len(groups[0])
			part := tc.shape[tc.dim] / size
			in, out := shapeStr(tc.dt, tc.shape), shapeStr(tc.dt, withDim(tc.shape, tc.dim, part))
			e := strings.TrimSuffix(strings.TrimPrefix(mlirType(tc.dt, nil), "tensor<"), ">")
			program := fmt.Sprintf(`module @reduce_scatter_test {
  func.func public @main(%%x: %s) -> %s {
    %%r = "stablehlo.reduce_scatter"(%%x) <{scatter_dimension = %d : i64, %s%s}> %s : (%s) -> %s
    return %%r : %s
  }
}
`, in, out, tc.dim, groupsAttr(tc.groups), modeAttrs(tc.mode), reduceBody(tc.op, e), in, out, out)
			args, res := runCase(t, c, tc.m, program, func(int) []*ir.Literal { return []*ir.Literal{inputs(rng, tc.dt, tc.shape)} })
			for d := range args {
				g, i := groupOf(groups, d)
				want := block(args[g[0]][0].Float64s(), tc.shape, tc.dim, i*part, part)
				for _, m := range g[1:] {
					x := block(args[m][0].Float64s(), tc.shape, tc.dim, i*part, part)
					for k := range want {
						want[k] = combine(tc.op, tc.dt, want[k], x[k])
					}
				}
				sameValues(t, fmt.Sprintf("device %d", d), res[d][0], want)
			}
		})
	}
}

func TestCollectiveAllToAll(t *testing.T) {
	c := realClient(t, 8)
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		m             mesh
		mode          groupMode // crossReplica or crossPartition
		groups        [][]int
		split, concat int
		dt            ir.DType
		shape         []int
	}{
		{mesh{2, 1}, crossReplica, [][]int{{0, 1}}, 1, 0, ir.F32, []int{2, 4}}, // the spec's example
		{mesh{1, 4}, crossPartition, [][]int{{0, 1, 2, 3}}, 0, 1, ir.F64, []int{8, 3}},
		{mesh{4, 1}, crossReplica, [][]int{{0, 2}, {1, 3}}, 0, 0, ir.S32, []int{4, 2}},
		{mesh{2, 2}, crossReplica, [][]int{{1, 0}}, 1, 1, ir.S32, []int{2, 4}},
		{mesh{2, 4}, crossPartition, [][]int{{3, 2, 1, 0}}, 2, 0, ir.F32, []int{2, 3, 8}},
		{mesh{8, 1}, crossReplica, nil, 2, 1, ir.F32, []int{3, 2, 16}},
	} {
		name := fmt.Sprintf("%dx%d/%v/%v/split%d/concat%d/%v", tc.m.r, tc.m.p, tc.mode, tc.groups, tc.split, tc.concat, tc.shape)
		t.Run(name, func(t *testing.T) {
			groups := specGroups(tc.m, tc.mode, tc.groups)
			n := len(groups[0])
			partShape := withDim(tc.shape, tc.split, tc.shape[tc.split]/n)
			outShape := withDim(partShape, tc.concat, partShape[tc.concat]*n)
			in, out := shapeStr(tc.dt, tc.shape), shapeStr(tc.dt, outShape)
			program := fmt.Sprintf(`module @all_to_all_test {
  func.func public @main(%%x: %s) -> %s {
    %%r = "stablehlo.all_to_all"(%%x) {split_dimension = %d : i64, concat_dimension = %d : i64, split_count = %d : i64, %s%s} : (%s) -> %s
    return %%r : %s
  }
}
`, in, out, tc.split, tc.concat, n, groupsAttr(tc.groups), modeAttrs(tc.mode), in, out, out)
			args, res := runCase(t, c, tc.m, program, func(int) []*ir.Literal { return []*ir.Literal{inputs(rng, tc.dt, tc.shape)} })
			for d := range args {
				g, i := groupOf(groups, d)
				var parts [][]float64
				for _, m := range g {
					parts = append(parts, block(args[m][0].Float64s(), tc.shape, tc.split, i*partShape[tc.split], partShape[tc.split]))
				}
				sameValues(t, fmt.Sprintf("device %d", d), res[d][0], concat(parts, partShape, tc.concat))
			}
		})
	}
}

func TestCollectivePermute(t *testing.T) {
	c := realClient(t, 8)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		m     mesh
		mode  groupMode // crossReplica or crossPartition
		pairs [][]int
		dt    ir.DType
		shape []int
	}{
		{mesh{4, 1}, crossReplica, [][]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}}, ir.F32, []int{5}},
		{mesh{2, 4}, crossPartition, [][]int{{0, 2}, {2, 0}, {1, 3}}, ir.S32, []int{2, 3}},
		{mesh{2, 2}, crossReplica, [][]int{{1, 0}}, ir.F64, []int{3}},
		{mesh{1, 2}, crossPartition, [][]int{{0, 1}, {1, 0}}, ir.F32, []int{2, 2}},
		{mesh{8, 1}, crossReplica, [][]int{{0, 7}, {3, 3}, {7, 1}}, ir.F32, []int{4, 1000}},
	} {
		name := fmt.Sprintf("%dx%d/%v/%v", tc.m.r, tc.m.p, tc.mode, tc.pairs)
		t.Run(name, func(t *testing.T) {
			ty := shapeStr(tc.dt, tc.shape)
			program := fmt.Sprintf(`module @permute_test {
  func.func public @main(%%x: %s) -> %s {
    %%r = "stablehlo.collective_permute"(%%x) <{source_target_pairs = %s%s}> : (%s) -> %s
    return %%r : %s
  }
}
`, ty, ty, strings.TrimPrefix(groupsAttr(tc.pairs), "replica_groups = "), modeAttrs(tc.mode), ty, ty, ty)
			args, res := runCase(t, c, tc.m, program, func(int) []*ir.Literal { return []*ir.Literal{inputs(rng, tc.dt, tc.shape)} })
			// The spec: process groups from the pairs (cross_replica or
			// cross_partition); a process receives from the first of
			// the group it is the second of, else zeros.
			groups := specGroups(tc.m, tc.mode, tc.pairs)
			for d := range args {
				want := make([]float64, args[d][0].Type.NumElements())
				for _, g := range groups {
					if g[1] == d {
						want = args[g[0]][0].Float64s()
					}
				}
				sameValues(t, fmt.Sprintf("device %d", d), res[d][0], want)
			}
		})
	}
}

func TestCollectiveBroadcast(t *testing.T) {
	c := realClient(t, 8)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tc := range []struct {
		m      mesh
		mode   groupMode
		groups [][]int
	}{
		{mesh{4, 1}, crossReplica, [][]int{{1, 0, 2, 3}}},
		{mesh{2, 2}, crossPartition, [][]int{{1, 0}}},
		{mesh{4, 1}, crossReplica, [][]int{{2, 3}}}, // devices 0 and 1 in no group: zeros
		{mesh{2, 1}, crossReplica, [][]int{{1, 0}}},
		{mesh{2, 4}, crossPartition, [][]int{{3, 0, 1}, {2, -1, -1}}}, // groups of 3 and 1
	} {
		t.Run(fmt.Sprintf("%dx%d/%v/%v", tc.m.r, tc.m.p, tc.mode, tc.groups), func(t *testing.T) {
			ty := shapeStr(ir.F32, []int{2, 3})
			program := fmt.Sprintf(`module @broadcast_test {
  func.func public @main(%%x: %s) -> %s {
    %%r = "stablehlo.collective_broadcast"(%%x) <{%s%s}> : (%s) -> %s
    return %%r : %s
  }
}
`, ty, ty, groupsAttr(tc.groups), modeAttrs(tc.mode), ty, ty, ty)
			args, res := runCase(t, c, tc.m, program, func(int) []*ir.Literal { return []*ir.Literal{inputs(rng, ir.F32, []int{2, 3})} })
			groups := specGroups(tc.m, tc.mode, unpad(tc.groups))
			for d := range args {
				want := make([]float64, 6)
				if g, _ := groupOf(groups, d); g != nil {
					want = args[g[0]][0].Float64s()
				}
				sameValues(t, fmt.Sprintf("device %d", d), res[d][0], want)
			}
		})
	}
}

// replica_id and partition_id on every device of a 2×4 execution, and
// an all_reduce of them (a use JAX makes of axis_index).
func TestCollectiveDeviceIDs(t *testing.T) {
	c := realClient(t, 8)
	const program = `module @ids {
  func.func public @main() -> (tensor<ui32>, tensor<ui32>, tensor<ui32>) {
    %r = stablehlo.replica_id : tensor<ui32>
    %p = "stablehlo.partition_id"() : () -> tensor<ui32>
    %s = "stablehlo.all_reduce"(%p) ({
    ^bb0(%a: tensor<ui32>, %b: tensor<ui32>):
      %t = stablehlo.add %a, %b : tensor<ui32>
      stablehlo.return %t : tensor<ui32>
    }) {replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, use_global_device_ids} : (tensor<ui32>) -> tensor<ui32>
    return %r, %p, %s : tensor<ui32>, tensor<ui32>, tensor<ui32>
  }
}
`
	m := mesh{2, 4}
	_, res := runCase(t, c, m, program, func(int) []*ir.Literal { return nil })
	for d := range m.n() {
		got := fmt.Sprint(res[d][0].Float64s(), res[d][1].Float64s(), res[d][2].Float64s())
		if want := fmt.Sprint([]float64{float64(d / m.p)}, []float64{float64(d % m.p)}, []float64{12}); got != want {
			t.Errorf("device %d: replica, partition, sum of partitions = %s, want %s", d, got, want)
		}
	}
}

// A portable executable (one device) with collectives: groups of one,
// so every collective is the identity (collective_permute from itself,
// or zeros when nobody sends), replica_id and partition_id 0.
func TestCollectiveOneDevice(t *testing.T) {
	c := realClient(t, 2)
	const program = `module @one attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>, tensor<ui32>) {
    %0 = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0]]> : tensor<1x1xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "stablehlo.all_gather"(%x) {all_gather_dim = 1 : i64, replica_groups = dense<> : tensor<0x0xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "stablehlo.reduce_scatter"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
    }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = "stablehlo.all_to_all"(%x) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 1 : i64, replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %4 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<[[0, 0]]> : tensor<1x2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.collective_permute"(%x) {source_target_pairs = dense<> : tensor<0x2xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "stablehlo.collective_broadcast"(%x) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %7 = stablehlo.replica_id : tensor<ui32>
    %8 = stablehlo.partition_id : tensor<ui32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<ui32>, tensor<ui32>
  }
}
`
	exe, err := c.Compile(program, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer exe.Destroy()
	if !exe.Portable() {
		t.Fatal("not portable")
	}
	x := inputs(rand.New(rand.NewPCG(13, 14)), ir.F32, []int{2, 3})
	for _, dev := range c.AddressableDevices() {
		b, err := c.BufferFromLiteral(x, dev)
		if err != nil {
			t.Fatal(err)
		}
		outs, err := exe.Execute(b)
		b.Destroy()
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range outs {
			l, err := o.ToLiteral()
			o.Destroy()
			if err != nil {
				t.Fatal(err)
			}
			want := x.Float64s()
			switch i {
			case 5:
				want = make([]float64, 6)
			case 7, 8:
				want = []float64{0}
			}
			sameValues(t, fmt.Sprintf("device %d result %d", dev.ID(), i), l, want)
		}
	}
}

// Collectives inside a while loop: each iteration all-reduces the state
// (the loop kernel passes the collective's status on).
func TestCollectiveInLoop(t *testing.T) {
	c := realClient(t, 4)
	const program = `module @loop {
  func.func public @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<3xf32>
     cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %lt = stablehlo.compare LT, %i, %n, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      %s = "stablehlo.all_reduce"(%v) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<3xf32>) -> tensor<3xf32>
      stablehlo.return %j, %s : tensor<i32>, tensor<3xf32>
    }
    return %r#1 : tensor<3xf32>
  }
}
`
	m := mesh{4, 1}
	args, res := runCase(t, c, m, program, func(d int) []*ir.Literal {
		return []*ir.Literal{ir.LiteralOf([]int{3}, float32(d), float32(d+1), float32(-d))}
	})
	// Three rounds of summing over the 4 devices: S, 4S, then 16S.
	var sum [3]float64
	for d := range args {
		for i, v := range args[d][0].Float64s() {
			sum[i] += v
		}
	}
	for d := range args {
		sameValues(t, fmt.Sprintf("device %d", d), res[d][0], []float64{16 * sum[0], 16 * sum[1], 16 * sum[2]})
	}
}

// Programs whose devices do not make the same collectives fail with an
// error naming the op, and hang nowhere: here partition 1 skips the
// all_reduce that partition 0 waits in (an if on partition_id), or goes
// to another collective.
func TestCollectiveDivergence(t *testing.T) {
	c := realClient(t, 2)
	const skip = `module @diverge {
  func.func public @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %p = stablehlo.partition_id : tensor<ui32>
    %z = stablehlo.constant dense<0> : tensor<ui32>
    %first = stablehlo.compare EQ, %p, %z, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %r = "stablehlo.if"(%first) ({
      %s = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.add %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
      stablehlo.return %s : tensor<4xf32>
    }, {
      stablehlo.return %OTHER : tensor<4xf32>
    }) : (tensor<i1>) -> tensor<4xf32>
    return %r : tensor<4xf32>
  }
}
`
	other := `%g = "stablehlo.all_reduce"(%x) ({
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %t = stablehlo.maximum %a, %b : tensor<f32>
        stablehlo.return %t : tensor<f32>
      }) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<4xf32>) -> tensor<4xf32>
      `
	for _, tc := range []struct{ name, program, msg string }{
		{"skip", strings.Replace(skip, "%OTHER", "%x", 1), "ended its program without joining this collective"},
		{"other", strings.Replace(strings.Replace(skip, "stablehlo.return %OTHER", other+"stablehlo.return %g", 1), "%OTHER", "%g", 1), "is at another collective"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exe := compileOn(t, c, mesh{1, 2}, tc.program)
			x := ir.LiteralOf([]int{4}, float32(1), 2, 3, 4)
			for range 3 {
				_, err := runOn(t, c, exe, [][]*ir.Literal{{x}, {x}})
				wantError(t, err, pjrt.CodeInternal, tc.msg)
				wantError(t, err, pjrt.CodeInternal, "stablehlo.all_reduce in @main")
			}
		})
	}
}

// collC is a program (C, through the fake worker) that takes part in an
// all-reduce of one int64 through the runtime table of version 3, except
// on the device whose index is its argument's second element: that one
// fails first. The other devices' collective must be aborted, and
// Execute report the failing device's error.
const collC = `// fake: c
/* module @coll_fail */
#include <stdint.h>
#include <stdio.h>
typedef struct stela_rt {
  int64_t version, num_threads;
  void *parallel_for, *sgemm, *dgemm;
  int64_t num_devices, device_index, num_replicas, num_partitions, replica_id, partition_id;
  void* rendezvous;
  int32_t (*coll_exchange)(void*, int64_t, int64_t, const char*, const int64_t*, int64_t, void* const*, int64_t, void**, char*);
  int32_t (*coll_barrier)(void*, int64_t, int64_t, const char*, const int64_t*, int64_t, char*);
} stela_rt;
const char stela_signature[] = "arg si64 2\nres si64\n";
const int stela_rt_uses = 2;
int stela_entry(void *const *args, void *const *results, char err[256], const stela_rt* rt) {
  const int64_t* a = args[0];
  int64_t d = rt->device_index, n = rt->num_devices;
  if (d == a[1]) { snprintf(err, 256, "device %lld ran out of something", (long long)d); return 1; }
  int64_t members[16];
  for (int64_t i = 0; i < n; i++) members[i] = i;
  void* mine[1] = {args[0]};
  void* peers[16];
  if (rt->coll_exchange(rt->rendezvous, d, 1, "c all-reduce", members, n, mine, 1, peers, err)) return 1;
  int64_t s = 0;
  for (int64_t i = 0; i < n; i++) s += ((const int64_t*)peers[i])[0];
  *(int64_t*)results[0] = s;
  return rt->coll_barrier(rt->rendezvous, d, 1, "c all-reduce", members, n, err);
}
`

func TestCollectiveDeviceFails(t *testing.T) {
	c := newClient(t, 4)
	exe := compileOn(t, c, mesh{2, 2}, collC)
	run := func(bad int64) ([][]*ir.Literal, error) {
		args := make([][]*ir.Literal, 4)
		for d := range args {
			args[d] = []*ir.Literal{ir.LiteralOf([]int{2}, int64(d+1), bad)}
		}
		return runOn(t, c, exe, args)
	}
	res, err := run(-1)
	if err != nil {
		t.Fatal(err)
	}
	for d := range res {
		if got := res[d][0].Float64s(); got[0] != 10 {
			t.Errorf("device %d: sum %v, want 10", d, got)
		}
	}
	for _, bad := range []int64{0, 1, 3} {
		_, err := run(bad)
		wantError(t, err, pjrt.CodeInternal, fmt.Sprintf("coll_fail on device %d: device %d ran out of something", bad, bad))
	}
	// Still usable afterwards.
	if _, err := run(-1); err != nil {
		t.Fatal(err)
	}
}

// An all_reduce whose operand is a donated argument aliased to its result
// (tf.aliasing_output) runs in place: the same sums, with the argument
// donated (its buffer becomes the result) or not (the plugin copies it
// first).
func TestCollectiveAllReduceInPlace(t *testing.T) {
	c := realClient(t, 8)
	rng := rand.New(rand.NewPCG(15, 16))
	for _, rc := range []reduceCase{
		{mesh{2, 1}, crossReplica, nil, "add", []ir.DType{ir.F32}, []int{7}},
		{mesh{4, 1}, crossReplica, [][]int{{0, 2}, {1, 3}}, "add", []ir.DType{ir.F64}, []int{3, 1001}},
		{mesh{1, 8}, flattenedIDs, [][]int{{3, 1, 4, 0, 5, 2, 7, 6}}, "add", []ir.DType{ir.F32}, []int{40000}},
		{mesh{2, 2}, crossReplicaAndPartition, [][]int{{0, 1}}, "maximum", []ir.DType{ir.BF16}, []int{9000}},
		{mesh{1, 1}, crossReplica, nil, "add", []ir.DType{ir.F32}, []int{5}},
	} {
		t.Run(rc.String(), func(t *testing.T) {
			dt := rc.dts[0]
			program := strings.Replace(rc.program(), "%x0: "+mlirType(dt, rc.shape), "%x0: "+mlirType(dt, rc.shape)+" {tf.aliasing_output = 0 : i32}", 1)
			exe := compileOn(t, c, rc.m, program)
			args := make([][]*ir.Literal, rc.m.n())
			for d := range args {
				args[d] = []*ir.Literal{inputs(rng, dt, rc.shape)}
			}
			groups := specGroups(rc.m, rc.mode, rc.groups)
			check := func(res [][]*ir.Literal) {
				t.Helper()
				for d := range args {
					g, _ := groupOf(groups, d)
					want := slices.Clone(args[g[0]][0].Float64s())
					for _, m := range g[1:] {
						for e, x := range args[m][0].Float64s() {
							want[e] = combine(rc.op, dt, want[e], x)
						}
					}
					sameValues(t, fmt.Sprintf("device %d", d), res[d][0], want)
				}
			}
			res, err := runOn(t, c, exe, args)
			if err != nil {
				t.Fatal(err)
			}
			check(res)
			// Donated.
			var lists [][]*pjrt.Buffer
			for k, dev := range exe.AddressableDevices() {
				b, err := c.BufferFromLiteral(args[execIndex(t, k)][0], dev)
				if err != nil {
					t.Fatal(err)
				}
				defer b.Destroy()
				lists = append(lists, []*pjrt.Buffer{b})
			}
			x, err := exe.Launch(lists, &pjrt.ExecuteOptions{Donate: []int{0}})
			if err == nil {
				err = x.Await()
			}
			if err != nil {
				t.Fatal(err)
			}
			res = make([][]*ir.Literal, len(args))
			for d := range res {
				res[d] = []*ir.Literal{nil}
			}
			for k, outs := range x.Outputs {
				if del, _ := lists[k][0].IsDeleted(); !del {
					t.Errorf("device %d: the donated argument is not deleted", execIndex(t, k))
				}
				l, err := outs[0].ToLiteral()
				if err != nil {
					t.Fatal(err)
				}
				outs[0].Destroy()
				res[execIndex(t, k)] = []*ir.Literal{l}
			}
			check(res)
		})
	}
}

// all_to_all of two operands at once (its variadic form): each is
// exchanged as if alone.
func TestCollectiveAllToAllVariadic(t *testing.T) {
	c := realClient(t, 4)
	rng := rand.New(rand.NewPCG(17, 18))
	m := mesh{1, 4}
	const program = `module @a2a2 {
  func.func public @main(%x: tensor<8x2xf32>, %y: tensor<4x4xi32>) -> (tensor<2x8xf32>, tensor<1x16xi32>) {
    %r:2 = "stablehlo.all_to_all"(%x, %y) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>} : (tensor<8x2xf32>, tensor<4x4xi32>) -> (tensor<2x8xf32>, tensor<1x16xi32>)
    return %r#0, %r#1 : tensor<2x8xf32>, tensor<1x16xi32>
  }
}
`
	shapes := [][]int{{8, 2}, {4, 4}}
	args, res := runCase(t, c, m, program, func(int) []*ir.Literal {
		return []*ir.Literal{inputs(rng, ir.F32, shapes[0]), inputs(rng, ir.S32, shapes[1])}
	})
	for d := range args {
		for i, shape := range shapes {
			part := shape[0] / 4
			var parts [][]float64
			for j := range 4 {
				parts = append(parts, block(args[j][i].Float64s(), shape, 0, d*part, part))
			}
			sameValues(t, fmt.Sprintf("device %d result %d", d, i), res[d][i], concat(parts, []int{part, shape[1]}, 1))
		}
	}
}
