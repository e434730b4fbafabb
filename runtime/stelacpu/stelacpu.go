// Package stelacpu registers Stela's CPU PJRT plugin (package pjrt/cpu) as
// the runtime's "cpu" device family: the plugin's client-side set-up
// (building it, its path, its compile worker, its number of virtual
// devices), as a runtime.PluginProvider. Import it for its effect, as a
// database/sql driver:
//
//	import _ "github.com/stela-ml/stela/runtime/stelacpu"
//
// frontend/tensor and cmd/stela do, so that the default device "cpu"
// exists in every program that makes tensors. Importing it also links
// package pjrt/cpu, whose init turns the program into the plugin's
// compile worker when the plugin starts it as one.
package stelacpu

import (
	"fmt"
	"os"
	"strconv"

	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu"
	"github.com/stela-ml/stela/runtime"
)

// EnvCPUDevices sets how many virtual devices the "cpu" platform has
// (default DefaultCPUDevices).
const EnvCPUDevices = "STELA_CPU_DEVICES"

// DefaultCPUDevices is the number of virtual CPU devices when
// STELA_CPU_DEVICES is unset. Virtual devices share the plugin's thread
// pool and cost nothing until used (docs/runtime.md, "Backends", has the
// measurements); eight let "cpu:7" and programs sharded over eight
// devices work out of the box.
const DefaultCPUDevices = 8

// Family is the device family the plugin is registered as: devices
// "cpu:0" to "cpu:N-1".
const Family = "cpu"

func init() {
	runtime.RegisterPlugin(Family, runtime.PluginProvider{
		Path:        pluginPath,
		Options:     options,
		File:        cpu.PluginFile,
		NoSPMD:      true,
		MoreDevices: "set " + EnvCPUDevices + " to have more",
	})
}

// pluginPath builds the plugin on first use (cpu.PluginPath).
func pluginPath() (string, error) {
	p, err := cpu.PluginPath()
	if err != nil {
		return "", fmt.Errorf("stela cpu plugin: %w", err)
	}
	return p, nil
}

// options are the clients' create options: the number of devices, and
// this program as the compile worker (cpu.WorkerOptions).
func options() ([]pjrt.NamedValue, error) {
	n, err := Devices()
	if err != nil {
		return nil, err
	}
	wo, err := cpu.WorkerOptions()
	if err != nil {
		return nil, fmt.Errorf("stela cpu plugin: %w", err)
	}
	return append([]pjrt.NamedValue{DeviceCount(n)}, wo...), nil
}

// Devices returns the number of virtual devices the "cpu" platform is
// opened with: $STELA_CPU_DEVICES, else DefaultCPUDevices. A value that
// is not a positive integer is an error that names the variable.
func Devices() (int, error) {
	s := os.Getenv(EnvCPUDevices)
	if s == "" {
		return DefaultCPUDevices, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("stela cpu plugin: %s=%q: want a positive integer", EnvCPUDevices, s)
	}
	return n, nil
}

// DeviceCount is the client option that gives the plugin n virtual
// devices, for runtime.OpenClient's extra options.
func DeviceCount(n int) pjrt.NamedValue {
	return pjrt.NamedValue{Name: "cpu_device_count", Value: int64(n)}
}
