package runtime

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/stela-ml/stela/internal/dist"
	"github.com/stela-ml/stela/ir"
	"github.com/stela-ml/stela/pjrt"
)

// Devices across the processes of a job (docs/distributed.md, "A global
// mesh"): the job's global device list names every process's devices;
// this process's are its own devices (cpu:0, ...), the others'
// RemoteDevices. A program compiled for devices of several processes
// runs on this process's devices here, and on theirs in the others, which
// must compile and run the same program (SPMD); the Stela CPU plugin's
// collectives reach the other processes through Gloo.

// Environment of the Stela CPU plugin's collectives across processes.
const (
	// GlooHostVar is the address Gloo listens on and publishes to the
	// other processes; default: this host's address on the route to the
	// coordinator (127.0.0.1 for a coordinator on loopback).
	GlooHostVar = "STELA_GLOO_HOST"
	// GlooIfaceVar names a network interface for Gloo instead.
	GlooIfaceVar = "STELA_GLOO_IFACE"
	// CollectiveTimeoutVar bounds every transfer between processes and
	// the connection at start-up (default 5m): a process that is alive
	// but stuck is reported after it; a dead one much sooner (its
	// connections close, and its lease expires).
	CollectiveTimeoutVar = "STELA_COLLECTIVE_TIMEOUT"
)

// RemoteDevice is a device of another process of the job: an entry of
// the global device list that programs compiled for several devices may
// name. It holds no buffers here: Put and Run fail.
type RemoteDevice struct {
	p    *platform
	g    GlobalDevice
	name string
}

// Name is "cpu:1@p2": local device 1 of process 2.
func (d *RemoteDevice) Name() string { return d.name }

// Process is the process that owns the device.
func (d *RemoteDevice) Process() int { return d.g.Process }

// Global is the device's id in the job.
func (d *RemoteDevice) Global() int { return d.g.Global }

// Family is the device's family ("cpu").
func (d *RemoteDevice) Family() string { return d.p.key }

func (d *RemoteDevice) errorf() error {
	return fmt.Errorf("device %s is in process %d of the job: this process cannot hold its buffers or run on it alone", d.name, d.g.Process)
}

// Put fails: the device is in another process.
func (d *RemoteDevice) Put(*ir.Literal) (Buffer, error) { return nil, d.errorf() }

// Run fails: the device is in another process.
func (d *RemoteDevice) Run(*ir.Func, []Buffer) ([]Buffer, error) { return nil, d.errorf() }

// IsLocal says whether d is a device of this process (not a RemoteDevice).
func IsLocal(d Device) bool {
	_, remote := d.(*RemoteDevice)
	return !remote
}

// DeviceProcess is the job's process that owns d: its Process for a
// RemoteDevice, this process's id for the others (0 outside a job).
func DeviceProcess(d Device) int {
	if r, ok := d.(*RemoteDevice); ok {
		return r.g.Process
	}
	if j := Distributed(); j != nil {
		return j.ProcessID()
	}
	return 0
}

// GlobalFamilyDevices returns the devices of a family over the whole job
// (GlobalDevices, in global order: process 0's, then process 1's, ...),
// this process's as its own devices and the others' as RemoteDevices;
// outside a job, FamilyDevices. It is collective: every process of the
// job calls it (the first call per family agrees on the list, through
// the coordinator).
func GlobalFamilyDevices(family string) ([]Device, error) {
	job := Distributed()
	if job == nil {
		return FamilyDevices(family)
	}
	job.mu.Lock()
	if devs, ok := job.global[family]; ok {
		job.mu.Unlock()
		return devs, nil
	}
	job.mu.Unlock()
	local, err := FamilyDevices(family)
	if err != nil {
		return nil, err
	}
	plat, err := openFamily(family)
	if err != nil {
		return nil, err
	}
	p, ok := plat.(*platform)
	if !ok {
		return nil, fmt.Errorf("devices of %s across the job: not a PJRT platform", family)
	}
	if p.nodes != job.NumProcesses() {
		return nil, fmt.Errorf("devices of %s across the job: the platform was opened before this process joined the job (call runtime.InitDistributed before using %s devices), or its plugin does not run across processes", family, family)
	}
	ctx, cancel := context.WithTimeout(context.Background(), dist.DefaultJoinTimeout)
	defer cancel()
	gl, err := job.GlobalDevices(ctx, family)
	if err != nil {
		return nil, err
	}
	devs := make([]Device, len(gl))
	for i, g := range gl {
		if g.Process == job.ProcessID() {
			devs[i] = local[g.Local]
			continue
		}
		devs[i] = &RemoteDevice{p: p, g: g, name: fmt.Sprintf("%s:%d@p%d", family, g.Local, g.Process)}
	}
	job.mu.Lock()
	if job.global == nil {
		job.global = map[string][]Device{}
	}
	job.global[family] = devs
	job.mu.Unlock()
	return devs, nil
}

// cpuDistributedOptions are the Stela CPU plugin's create options in a
// job: where Gloo listens, and its timeout.
func cpuDistributedOptions(job *Job) ([]pjrt.NamedValue, error) {
	var opts []pjrt.NamedValue
	switch {
	case os.Getenv(GlooIfaceVar) != "":
		opts = append(opts, pjrt.NamedValue{Name: "stela_gloo_iface", Value: os.Getenv(GlooIfaceVar)})
	case os.Getenv(GlooHostVar) != "":
		opts = append(opts, pjrt.NamedValue{Name: "stela_gloo_host", Value: os.Getenv(GlooHostVar)})
	default:
		host, err := routeAddress(job.j.Config().Coordinator)
		if err != nil {
			return nil, fmt.Errorf("the address for Gloo (set %s or %s): %w", GlooHostVar, GlooIfaceVar, err)
		}
		opts = append(opts, pjrt.NamedValue{Name: "stela_gloo_host", Value: host})
	}
	if s := os.Getenv(CollectiveTimeoutVar); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%s=%q: want a positive duration such as 5m", CollectiveTimeoutVar, s)
		}
		opts = append(opts, pjrt.NamedValue{Name: "stela_collective_timeout_ms", Value: d.Milliseconds()})
	}
	return opts, nil
}

// routeAddress is this host's address on the route to the coordinator's
// first endpoint (no packet is sent).
func routeAddress(coord string) (string, error) {
	eps := dist.Endpoints(coord)
	if len(eps) == 0 {
		return "", fmt.Errorf("no coordinator address")
	}
	ep := eps[0]
	if strings.Contains(ep, "://") {
		u, err := url.Parse(ep)
		if err != nil {
			return "", err
		}
		ep = u.Host
	}
	c, err := net.Dial("udp", ep)
	if err != nil {
		return "", err
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).IP.String(), nil
}

// explainTransferFailure adds the job's failure to the error of an
// execution across processes that failed in a transfer (the plugin's
// "... over Gloo: ..."): a process that died closes its connections, so
// that its peers fail at once, and processes that were talking to those
// peers fail naming them, not the dead one. The job's lease watcher names
// the dead process within the liveness timeout: the error waits that long
// for it (the default OnFailure then ends the process with that message).
func explainTransferFailure(err error) error {
	job := Distributed()
	if job == nil || err == nil || !strings.Contains(err.Error(), "over Gloo") {
		return err
	}
	select {
	case <-job.Failed():
	case <-time.After(job.j.Config().Liveness + 2*time.Second):
		return err
	}
	var pe *PeerError
	if jerr := job.Err(); jerr != nil && !errors.As(err, &pe) {
		return fmt.Errorf("%w; the job failed: %v", err, jerr)
	}
	return err
}
