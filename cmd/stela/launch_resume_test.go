package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/safetensors"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// trainState is what the resume test's job checkpoints.
type trainState struct {
	W *tensor.Tensor
}

// trainHelper is a process of a data-parallel training job (linear
// regression, SGD) on a mesh over every process's CPU devices: it
// resumes from the newest checkpoint in dir (os.Args[1]), if any, trains
// to step os.Args[2], checkpointing every 5 steps (process 0 writes,
// safetensors.SaveGlobal), and prints the final weights' SHA-256.
// STELA_TEST_KILL_AT=k makes process 1 kill itself at step k.
func trainHelper() {
	fail := func(what string, err error) {
		fmt.Fprintf(os.Stderr, "%s: %v\n", what, err)
		os.Exit(2)
	}
	dir := os.Args[1]
	steps, _ := strconv.Atoi(os.Args[2])
	killAt, _ := strconv.Atoi(os.Getenv("STELA_TEST_KILL_AT"))
	job, err := runtime.InitDistributedFromEnv(context.Background())
	if err != nil || job == nil {
		fail("join", err)
	}
	devs, err := runtime.GlobalFamilyDevices("cpu")
	if err != nil {
		fail("devices", err)
	}
	mesh, err := sharding.NewMesh([]string{"data"}, []int{len(devs)}, "cpu")
	if err != nil {
		fail("mesh", err)
	}
	const batch, in, out = 64, 16, 4
	xs, ys := make([]float32, batch*in), make([]float32, batch*out)
	for i := range xs {
		xs[i] = float32(math.Sin(float64(i)))
	}
	for i := range ys {
		ys[i] = float32(math.Cos(float64(3 * i)))
	}
	x := sharding.Put(tensor.FromSlice(xs, batch, in), mesh, sharding.P("data"))
	y := sharding.Put(tensor.FromSlice(ys, batch, out), mesh, sharding.P("data"))
	state := trainState{W: sharding.Put(tensor.Full(ir.F32, 0.01, in, out), mesh, sharding.P())}
	// This process holds its devices' rows of x: reading x whole is an
	// error that says so; Gather makes a copy every process reads.
	if err := tensor.Catch(func() { x.Float32s() }); err != nil {
		fmt.Println("reading x:", err)
	}
	if g := sharding.Gather(x).Float32s(); len(g) != len(xs) || g[len(g)-1] != xs[len(xs)-1] {
		fail("gather", fmt.Errorf("gathered %d values, want %d", len(g), len(xs)))
	}
	fmt.Printf("shards here: %d of %d\n", len(x.Shards()), len(devs))
	step := jit.Compile(func(x, y, w *tensor.Tensor) (*tensor.Tensor, *tensor.Tensor) {
		r := tensor.Sub(tensor.MatMul(x, w), y)
		loss := tensor.Mean(tensor.Mul(r, r))
		g := tensor.MatMul(tensor.Transpose(x, 1, 0), r) // the all_reduce over "data"
		return loss, tensor.Sub(w, tensor.Mul(tensor.Full(ir.F32, 0.05/batch, in, out), g))
	}, jit.WithName("resume_step"), jit.InShardings(mesh.On(sharding.P("data")), mesh.On(sharding.P("data")), mesh.On(sharding.P())),
		jit.OutShardings(mesh.On(sharding.P()), mesh.On(sharding.P())))

	start := 0
	ckpts, _ := filepath.Glob(filepath.Join(dir, "step-*.safetensors"))
	sort.Strings(ckpts)
	if len(ckpts) > 0 {
		last := ckpts[len(ckpts)-1]
		if state, err = safetensors.Load(last, state); err != nil {
			fail("resume", err)
		}
		f, err := safetensors.Open(last)
		if err != nil {
			fail("resume", err)
		}
		start, _ = strconv.Atoi(f.Metadata()["step"])
		f.Close()
		fmt.Printf("resumed from step %d\n", start)
	}
	for i := start + 1; i <= steps; i++ {
		if i == killAt && job.ProcessID() == 1 {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		var loss *tensor.Tensor
		if err := tensor.Catch(func() { loss, state.W = step(x, y, state.W) }); err != nil {
			fail(fmt.Sprintf("step %d", i), err)
		}
		if i%5 == 0 {
			path := filepath.Join(dir, fmt.Sprintf("step-%06d.safetensors", i))
			if err := safetensors.SaveGlobal(path, state, map[string]string{"step": strconv.Itoa(i)}); err != nil {
				fail("checkpoint", err)
			}
			fmt.Printf("step %d loss %.6f saved\n", i, loss.Float32s()[0])
		}
	}
	h := sha256.New()
	for _, v := range state.W.Float32s() {
		binary.Write(h, binary.LittleEndian, v)
	}
	fmt.Printf("final %x\n", h.Sum(nil))
	job.Close()
}

// TestLaunchResume: a job of 2 processes (2 CPU devices each) whose
// process 1 dies at step 12 fails; run again, it resumes from the
// checkpoint of step 10 and ends with the weights of a run that never
// failed, to the last bit.
func TestLaunchResume(t *testing.T) {
	needWorker(t)
	stela, helper := launchBins(t)
	train := strings.TrimSuffix(helper, "stela-dist-helper") + "stela-train-helper"
	if err := os.Symlink(stela, train); err != nil {
		t.Fatal(err)
	}
	final := regexp.MustCompile(`(?m)^\[p0\] final ([0-9a-f]+)$`)
	clean := t.TempDir()
	out, errb, err := runStela(t, stela, []string{"STELA_CPU_DEVICES=2"}, "launch", "-n", "2", "--", train, clean, "20")
	if err != nil {
		t.Fatalf("the uninterrupted run: %v\n%s%s", err, out, errb)
	}
	want := final.FindStringSubmatch(out)
	if want == nil {
		t.Fatalf("the uninterrupted run printed no final weights:\n%s", out)
	}
	for p := range 2 {
		for _, m := range []string{
			fmt.Sprintf("[p%d] reading x: ", p),
			"has pieces on devices of other processes of the job",
			fmt.Sprintf("[p%d] shards here: 2 of 4\n", p),
		} {
			if !strings.Contains(out, m) {
				t.Errorf("the run's output lacks %q:\n%s", m, out)
			}
		}
	}
	dir := t.TempDir()
	out, errb, err = runStela(t, stela, []string{"STELA_CPU_DEVICES=2", "STELA_TEST_KILL_AT=12"}, "launch", "-n", "2", "--", train, dir, "20")
	if err == nil || !strings.Contains(errb, "process 1 of 2 failed first: killed by signal killed") {
		t.Fatalf("the run whose process 1 dies at step 12: %v\n%s%s", err, out, errb)
	}
	if !strings.Contains(out, "[p0] step 10 loss") {
		t.Fatalf("no checkpoint at step 10 before the failure:\n%s", out)
	}
	out, errb, err = runStela(t, stela, []string{"STELA_CPU_DEVICES=2"}, "launch", "-n", "2", "--", train, dir, "20")
	if err != nil {
		t.Fatalf("the resumed run: %v\n%s%s", err, out, errb)
	}
	for p := range 2 {
		if m := fmt.Sprintf("[p%d] resumed from step 10\n", p); !strings.Contains(out, m) {
			t.Errorf("the resumed run's output lacks %q:\n%s", m, out)
		}
	}
	if strings.Contains(out, "step 5 loss") || strings.Contains(out, "step 10 loss") {
		t.Errorf("the resumed run ran steps before its checkpoint:\n%s", out)
	}
	got := final.FindStringSubmatch(out)
	if got == nil || got[1] != want[1] {
		t.Errorf("final weights %v after resuming, want %s (the uninterrupted run)\n%s", got, want[1], out)
	}
}
