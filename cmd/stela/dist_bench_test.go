package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/jit"
	"github.com/stela-ml/stela/frontend/sharding"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/internal/dist"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/runtime"
)

// Benchmarks across processes (docs/distributed.md, "Performance"):
//
//	go test ./cmd/stela -run '^$' -bench 'Distributed' -count 5
//
// Each sub-benchmark drives a job of helper processes (this test binary,
// as stela-bench-helper) over their standard input: "allreduce SIZE N"
// runs N all_reduces of SIZE bytes (f32, summed over every device of the
// mesh: one per process, or all of one process's), "train N" N
// data-parallel steps of W4's MLP (examples.MLPTrain, the batch split
// over the mesh, the gradients all-reduced); the time of one is ns/op.
// Programs are compiled (and run once) before the timed part.

func benchHelper() {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "bench helper:", err)
		os.Exit(2)
	}
	job, err := runtime.InitDistributedFromEnv(context.Background())
	if err != nil {
		fail(err)
	}
	devs, err := runtime.GlobalFamilyDevices("cpu")
	if err != nil {
		fail(err)
	}
	mesh, err := sharding.NewMesh([]string{"x"}, []int{len(devs)}, "cpu")
	if err != nil {
		fail(err)
	}
	n := len(devs)
	reduce := jit.Compile(func(x *tensor.Tensor) *tensor.Tensor { return tensor.Sum(x, 0) },
		jit.WithName("bench_all_reduce"), jit.InShardings(mesh.On(sharding.P("x"))), jit.OutShardings(mesh.On(sharding.P())))
	inputs := map[int]*tensor.Tensor{}
	w4 := examples.DefaultMLPTrain()
	data := mesh.On(sharding.P("x"))
	var train func(args ...*tensor.Tensor) ([]*tensor.Tensor, error)
	var trainArgs []*tensor.Tensor
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		if len(f) == 0 {
			continue
		}
		count, _ := strconv.Atoi(f[len(f)-1])
		err := tensor.Catch(func() {
			switch f[0] {
			case "allreduce":
				size, _ := strconv.Atoi(f[1])
				x := inputs[size]
				if x == nil {
					x = sharding.Put(tensor.Ones(ir.F32, n, size/4), mesh, sharding.P("x"))
					inputs[size] = x
				}
				for range count {
					reduce(x).Free()
				}
			case "train":
				if train == nil {
					train = jit.CompileAny(w4.Step, jit.WithName("bench_w4_step"), jit.InShardings(data, data))
					trainArgs = w4.Inputs(1)
				}
				for range count {
					out, err := train(trainArgs...)
					if err != nil {
						panic(err)
					}
					for _, t := range out {
						t.Free()
					}
				}
			case "quit":
				if job != nil {
					job.Close()
				}
				os.Exit(0)
			default:
				panic(fmt.Errorf("unknown command %q", in.Text()))
			}
		})
		if err != nil {
			fail(err)
		}
		fmt.Println("bench: done")
	}
}

// benchJob is a job of helper processes.
type benchJob struct {
	etcd *dist.LocalEtcd
	cmds []*exec.Cmd
	in   []io.WriteCloser
	out  []*bufio.Scanner
}

func startBenchJob(b *testing.B, procs, devices int) *benchJob {
	b.Helper()
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	j := &benchJob{}
	env := append(os.Environ(), fmt.Sprintf("STELA_CPU_DEVICES=%d", devices))
	if procs > 1 {
		if j.etcd, err = dist.StartLocalEtcd(context.Background()); err != nil {
			b.Skip(err)
		}
		env = append(env, dist.CoordinatorVar+"="+j.etcd.Endpoint, dist.NumProcessesVar+"="+strconv.Itoa(procs), dist.JobIDVar+"=bench")
	}
	for p := range procs {
		cmd := exec.Command(exe)
		cmd.Args[0] = "stela-bench-helper"
		cmd.Env = append(env, dist.ProcessIDVar+"="+strconv.Itoa(p))
		cmd.Stderr = os.Stderr
		w, _ := cmd.StdinPipe()
		r, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		j.cmds, j.in, j.out = append(j.cmds, cmd), append(j.in, w), append(j.out, bufio.NewScanner(r))
	}
	return j
}

// do sends a command to every process and waits for all to finish it.
func (j *benchJob) do(b *testing.B, cmd string) {
	for _, w := range j.in {
		fmt.Fprintln(w, cmd)
	}
	for p, s := range j.out {
		for {
			if !s.Scan() {
				b.Fatalf("process %d ended during %q", p, cmd)
			}
			if s.Text() == "bench: done" {
				break
			}
		}
	}
}

func (j *benchJob) stop(b *testing.B) {
	for _, w := range j.in {
		fmt.Fprintln(w, "quit")
		w.Close()
	}
	for _, c := range j.cmds {
		c.Wait()
	}
	if j.etcd != nil {
		j.etcd.Close()
	}
}

func benchNeeds(b *testing.B) {
	if _, err := dist.EtcdPath(); err != nil {
		b.Skip(err)
	}
	if os.Getenv("STELA_CPU_WORKER_PATH") == "" {
		b.Skip("set STELA_CPU_WORKER_PATH to a built stela")
	}
}

// BenchmarkDistributedAllReduce: an all_reduce over 2 and 4 devices,
// each in a process of its own ("procs=4/devices=1") or all in one
// ("procs=1/devices=4"), from 1 KiB to 256 MiB; algGB/s is the operand's
// bytes over the time.
func BenchmarkDistributedAllReduce(b *testing.B) {
	benchNeeds(b)
	sizes := []int{1 << 10, 64 << 10, 1 << 20, 16 << 20, 256 << 20}
	for _, n := range []int{2, 4} {
		for _, procs := range []int{1, n} {
			j := startBenchJob(b, procs, n/procs)
			for _, size := range sizes {
				j.do(b, fmt.Sprintf("allreduce %d 1", size)) // compile, warm up
				b.Run(fmt.Sprintf("devices=%d/procs=%d/%s", n, procs, sizeName(size)), func(b *testing.B) {
					b.SetBytes(int64(size))
					b.ResetTimer()
					j.do(b, fmt.Sprintf("allreduce %d %d", size, b.N))
					b.ReportMetric(float64(size)*float64(b.N)/b.Elapsed().Seconds()/1e9, "algGB/s")
				})
			}
			j.stop(b)
		}
	}
}

// BenchmarkDistributedTrainW4: W4's MLP training step, data-parallel on
// 2 devices: 2 processes x 1 device against 1 process x 2 devices.
func BenchmarkDistributedTrainW4(b *testing.B) {
	benchNeeds(b)
	for _, procs := range []int{1, 2} {
		j := startBenchJob(b, procs, 2/procs)
		j.do(b, "train 1")
		b.Run(fmt.Sprintf("devices=2/procs=%d", procs), func(b *testing.B) {
			b.ResetTimer()
			j.do(b, fmt.Sprintf("train %d", b.N))
		})
		j.stop(b)
	}
}

func sizeName(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprint(n)
}
