package rt

/*
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stela_rt.h"

// A program for tests of the rendezvous: each device publishes its
// argument (an int64 array, element 0 its value) and its result, sums the
// members' values into result[0], then meets them at a barrier. What a
// device does first depends on coll_script[d]:
//   0  take part
//   1  fail before the collective (return 1)
//   2  end at once, successfully (return 0)
//   3  take part with another op id (as if at another collective)
//   4  take part, then make a second, extra collective
static int coll_script[64];

static int coll_entry_impl(void* const* args, void* const* results, char err[256], const stela_rt* rt) {
	if (rt == NULL || rt->version < 3) {
		snprintf(err, 256, "no runtime table of version 3");
		return 1;
	}
	int64_t d = rt->device_index, n = rt->num_devices;
	int script = coll_script[d];
	if (script == 1) {
		snprintf(err, 256, "device %lld failed on purpose", (long long)d);
		return 1;
	}
	if (script == 2) return 0;
	int64_t members[64];
	for (int64_t i = 0; i < n; i++) members[i] = i;
	void* mine[2] = {args[0], results[0]};
	void* peers[128];
	int64_t id = script == 3 ? 8 : 7;
	const char* op = script == 3 ? "other op" : "test op";
	if (rt->coll_exchange(rt->rendezvous, d, id, op, members, n, mine, 2, peers, err) != 0) return 1;
	int64_t sum = 0;
	for (int64_t j = 0; j < n; j++) sum += ((const int64_t*)peers[2 * j])[0];
	int64_t* out = results[0];
	out[0] = sum;
	out[1] = rt->replica_id;
	out[2] = rt->partition_id;
	if (rt->coll_barrier(rt->rendezvous, d, id, op, members, n, err) != 0) return 1;
	if (script == 4 && rt->coll_barrier(rt->rendezvous, d, 9, "extra op", members, n, err) != 0) return 1;
	return 0;
}

typedef struct coll_result {
	int rc[64];
	char err[64][256];
	int64_t out[64][3];
	int64_t cause;
	int status;
} coll_result;

static void coll_run(stela_pool* pool, const stela_rt* table, int64_t replicas, int64_t partitions, const int* script, size_t stack, coll_result* res) {
	int64_t n = replicas * partitions;
	static int64_t in[64][1];
	void* argv[64][1];
	void* resv[64][1];
	void* const* a[64];
	void* const* rs[64];
	char* errs[64];
	for (int64_t d = 0; d < n; d++) {
		coll_script[d] = script[d];
		in[d][0] = 10 * (d + 1);
		argv[d][0] = in[d];
		resv[d][0] = res->out[d];
		res->out[d][0] = res->out[d][1] = res->out[d][2] = -1;
		a[d] = argv[d];
		rs[d] = resv[d];
		errs[d] = res->err[d];
		res->err[d][0] = 0;
		res->rc[d] = -1;
	}
	res->status = stela_rt_run_devices(pool, table, coll_entry_impl, replicas, partitions, true, stack, a, rs,
	                                   errs, res->rc, &res->cause);
}
*/
import "C"

import "unsafe"

// CollResult is what CollectiveProbe saw on each device.
type CollResult struct {
	RC    []int
	Err   []string
	Out   [][3]int64 // sum of the members' values (10·(d+1)), replica id, partition id
	Cause int64      // the device whose failure aborted the execution, or -1
}

// CollectiveProbe runs a test program on replicas × partitions devices
// (at most 64) at once through stela_rt_run_devices, the plugin's way:
// each device exchanges with all the others and meets them at a barrier,
// unless script[d] says otherwise (1: fail before the collective, 2: end
// at once, 3: come with another op id, 4: make an extra collective).
// stack is the device threads' stack size (0: the default; a huge one
// makes thread creation fail).
func (r *Runtime) CollectiveProbe(replicas, partitions int, script []int, stack uintptr) (CollResult, bool) {
	n := replicas * partitions
	res := (*C.coll_result)(C.calloc(1, C.size_t(unsafe.Sizeof(C.coll_result{}))))
	defer C.free(unsafe.Pointer(res))
	var sc [64]C.int
	for d := range n {
		if d < len(script) {
			sc[d] = C.int(script[d])
		}
	}
	C.coll_run(r.r.pool, &r.r.table, C.int64_t(replicas), C.int64_t(partitions), &sc[0], C.size_t(stack), res)
	out := CollResult{Cause: int64(res.cause)}
	for d := range n {
		out.RC = append(out.RC, int(res.rc[d]))
		out.Err = append(out.Err, C.GoString(&res.err[d][0]))
		out.Out = append(out.Out, [3]int64{int64(res.out[d][0]), int64(res.out[d][1]), int64(res.out[d][2])})
	}
	return out, res.status == 0
}
