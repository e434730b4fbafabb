package rt

import (
	"strings"
	"testing"
)

// The rendezvous of collectives (rt_coll.c) driven by a C test program on
// several device threads, as the plugin's Execute runs them.

func collProbe(t *testing.T, replicas, partitions int, script []int, stack uintptr) CollResult {
	t.Helper()
	r, err := New(2)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res, ok := r.CollectiveProbe(replicas, partitions, script, stack)
	if !ok {
		t.Fatal("stela_rt_run_devices: out of memory")
	}
	return res
}

func TestRendezvous(t *testing.T) {
	for _, m := range [][2]int{{1, 1}, {2, 1}, {1, 3}, {2, 4}, {16, 1}} {
		n := m[0] * m[1]
		for range 20 {
			res := collProbe(t, m[0], m[1], nil, 0)
			want := int64(10 * n * (n + 1) / 2)
			for d := range n {
				if res.RC[d] != 0 || res.Out[d] != [3]int64{want, int64(d / m[1]), int64(d % m[1])} {
					t.Fatalf("%d×%d: device %d: rc %d (%s), out %v; want sum %d, replica %d, partition %d",
						m[0], m[1], d, res.RC[d], res.Err[d], res.Out[d], want, d/m[1], d%m[1])
				}
			}
			if res.Cause != -1 {
				t.Fatalf("%d×%d: cause %d, want -1", m[0], m[1], res.Cause)
			}
		}
	}
}

// wantAborted checks that every device but the cause failed with an
// error naming the op and quoting the cause's message.
func wantAborted(t *testing.T, res CollResult, cause int, causeMsg string) {
	t.Helper()
	if res.Cause != int64(cause) {
		t.Fatalf("cause %d, want %d (%q)", res.Cause, cause, res.Err)
	}
	if res.RC[cause] != 1 || !strings.Contains(res.Err[cause], causeMsg) {
		t.Errorf("device %d: rc %d, %q; want 1, %q", cause, res.RC[cause], res.Err[cause], causeMsg)
	}
	for d := range res.RC {
		if d == cause {
			continue
		}
		if res.RC[d] != 1 || !strings.Contains(res.Err[d], "test op: aborted, device") || !strings.Contains(res.Err[d], causeMsg) {
			t.Errorf("device %d: rc %d, %q; want 1 and an abort naming the op and quoting %q", d, res.RC[d], res.Err[d], causeMsg)
		}
	}
}

// A device that fails before a collective aborts the others' (waiting or
// yet to come); nobody hangs.
func TestRendezvousDeviceFails(t *testing.T) {
	for _, bad := range []int{0, 2, 3} {
		script := make([]int, 4)
		script[bad] = 1
		res := collProbe(t, 1, 4, script, 0)
		wantAborted(t, res, bad, "failed on purpose")
	}
}

// A device whose thread cannot be started fails (its program never
// runs), and the others' collectives abort.
func TestRendezvousNoThread(t *testing.T) {
	res := collProbe(t, 2, 2, nil, 1<<62)
	if res.Cause != 1 {
		t.Fatalf("cause %d (%q), want 1", res.Cause, res.Err)
	}
	for d := 1; d < 4; d++ {
		if res.RC[d] != 1 || !strings.Contains(res.Err[d], "could not start a thread for device") {
			t.Errorf("device %d: rc %d, %q", d, res.RC[d], res.Err[d])
		}
	}
	if res.RC[0] != 1 || !strings.Contains(res.Err[0], "test op: aborted, device 1 (replica 0, partition 1) failed: could not start a thread") {
		t.Errorf("device 0: rc %d, %q", res.RC[0], res.Err[0])
	}
}

// A device that ends its program while the others wait for it at a
// collective: they get an error saying so (no hang).
func TestRendezvousEndedWithoutJoining(t *testing.T) {
	res := collProbe(t, 1, 3, []int{0, 0, 2}, 0)
	if res.RC[2] != 0 {
		t.Errorf("device 2: rc %d (%s), want 0", res.RC[2], res.Err[2])
	}
	if res.Cause != 0 && res.Cause != 1 {
		t.Fatalf("cause %d, want 0 or 1 (%q)", res.Cause, res.Err)
	}
	c := res.Cause
	if res.RC[c] != 1 || !strings.Contains(res.Err[c], "test op: device 2 (replica 0, partition 2) ended its program without joining this collective") {
		t.Errorf("device %d: %q", c, res.Err[c])
	}
	// Two devices extra collective: its peers ended.
	res = collProbe(t, 2, 1, []int{4, 0}, 0)
	if res.RC[0] != 1 || !strings.Contains(res.Err[0], "extra op: device 1 (replica 1, partition 0) ended its program without joining") {
		t.Errorf("extra collective: device 0: rc %d, %q", res.RC[0], res.Err[0])
	}
}

// Devices at different collectives at the same point: an error, not an
// exchange of the wrong buffers.
func TestRendezvousOtherOp(t *testing.T) {
	res := collProbe(t, 1, 2, []int{0, 3}, 0)
	for d := range 2 {
		if res.RC[d] != 1 {
			t.Errorf("device %d: rc %d, want 1", d, res.RC[d])
		}
	}
	c := res.Cause
	if c < 0 || !strings.Contains(res.Err[c], "is at another collective") {
		t.Errorf("cause %d: %q", c, res.Err)
	}
}
