package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/stela-ml/stela/pjrt"
	"github.com/stela-ml/stela/pjrt/cpu"
	"github.com/stela-ml/stela/runtime"
	"github.com/stela-ml/stela/runtime/stelacpu"
)

// isStelaCPU reports whether a --plugin value names the Stela CPU plugin.
func isStelaCPU(name string) bool {
	return name == "" || name == "cpu" || name == cpu.PluginName
}

// openClient loads a plugin by name or path and makes a client
// (runtime.OpenClient). The Stela CPU plugin gets `devices` virtual
// devices (0: those of the "cpu" platform, stelacpu.Devices) and uses
// this very executable as its compile worker.
func openClient(name string, devices int) (*pjrt.Client, error) {
	stela := isStelaCPU(name) || filepath.Base(name) == cpu.PluginFile
	if isStelaCPU(name) {
		name = stelacpu.Family
	}
	var extra []pjrt.NamedValue
	if devices > 0 && stela {
		extra = append(extra, stelacpu.DeviceCount(devices))
	}
	c, _, err := runtime.OpenClient(name, extra...)
	return c, err
}

func runPlugin(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plugin")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "path" {
		return usagef("want the argument path, got %q", pos)
	}
	p, err := cpu.PluginPath()
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, p)
	return nil
}

func runDevices(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("devices")
	plugin := fs.String("plugin", "", "list the devices of this PJRT plugin, by `NAME|PATH` (cpu: the Stela CPU plugin)")
	n := fs.Int("devices", 0, "with the Stela CPU plugin: make `N` virtual devices")
	if err := noArgs(fs, args); err != nil {
		return err
	}
	if *plugin == "" && *n == 0 {
		return listPlatforms(stdout)
	}
	c, err := openClient(*plugin, *n)
	if err != nil {
		return err
	}
	defer c.Destroy()
	major, minor := c.Plugin().APIVersion()
	fmt.Fprintf(stdout, "plugin %s (PJRT C API %d.%d)\n", c.Plugin().Path(), major, minor)
	fmt.Fprintf(stdout, "platform %s %s\n", c.PlatformName(), c.PlatformVersion())
	for _, d := range c.Devices() {
		fmt.Fprintf(stdout, "  device %d: %s (process %d, addressable %v)\n", d.ID(), d.Kind(), d.ProcessIndex(), d.IsAddressable())
	}
	return nil
}

// listPlatforms prints every PJRT platform the runtime can resolve by name
// (Stela's CPU plugin, cuda, tpu), with its devices or why it is not
// usable.
func listPlatforms(stdout io.Writer) error {
	for _, p := range runtime.Platforms() {
		switch {
		case p.Err == nil:
			fmt.Fprintf(stdout, "%s: %s (%s)\n", p.Name, p.Version, p.Path)
			for _, d := range p.Devices {
				fmt.Fprintf(stdout, "  %s\n", d)
			}
		case p.Path != "":
			fmt.Fprintf(stdout, "%s: not usable: plugin %s: %v\n", p.Name, p.Path, p.Err)
		default:
			fmt.Fprintf(stdout, "%s: not found: %v\n", p.Name, p.Err)
		}
	}
	fmt.Fprintf(stdout, "host: the reference evaluator (ir.Eval)\n")
	return nil
}
