package examples_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/stela-ml/stela/frontend/examples"
	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/passes"
	"github.com/stela-ml/stela/runtime"
)

// BenchmarkCompileAgain is W6's "again in the same process" of `stela
// bench`: the GPT-2 block (W5) traced, run through the default passes and
// compiled for the default device, after a first compile of the same
// program in the process. It reports each stage's time per iteration
// (trace-ms, passes-ms, compile-ms) beside the total, and the process's
// CPU time per iteration (cpu-ms).
func BenchmarkCompileAgain(b *testing.B) {
	comp, ok := tensor.DefaultDevice().(runtime.Compiler)
	if !ok {
		b.Skipf("device %s does not compile", tensor.DefaultDevice().Name())
	}
	ex, err := examples.Get("gpt2-small")
	if err != nil {
		b.Fatal(err)
	}
	var trace, pass, compile time.Duration
	once := func() {
		start := time.Now()
		tr, err := examples.Trace(ex)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		m := &ir.Module{Funcs: []*ir.Func{tr.Func}}
		if _, err := passes.Run(m, passes.Default, passes.Options{}); err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		if _, err := comp.Compile(m.Funcs[0]); err != nil {
			b.Fatal(err)
		}
		trace += t1.Sub(start)
		pass += t2.Sub(t1)
		compile += time.Since(t2)
	}
	once()
	before := runtime.CacheStats()
	trace, pass, compile = 0, 0, 0
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		once()
	}
	b.StopTimer()
	cpu = cpuTime() - cpu
	if after := runtime.CacheStats(); after.Compiles != before.Compiles {
		b.Fatalf("%d compiles after the first: the in-memory cache did not serve the same program", after.Compiles-before.Compiles)
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) / float64(b.N) }
	b.ReportMetric(ms(trace), "trace-ms")
	b.ReportMetric(ms(pass), "passes-ms")
	b.ReportMetric(ms(compile), "compile-ms")
	b.ReportMetric(ms(cpu), "cpu-ms")
}

// cpuTime is the process's CPU time (user and system, all threads): on a
// shared machine, where wall time includes the time other processes held
// the cores, it is the steadier measure.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
